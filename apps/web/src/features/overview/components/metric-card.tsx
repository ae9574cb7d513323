import { CCard, CCardBody } from '@coreui/react';
import { formatInstrument } from '../../../components/data/format';
import type { OverviewCard } from '../model/overview-cards';
import { MetricValue } from './metric-value';

/** One overview card: the title, then the value in the shape the card's kind calls for. */
export function MetricCard({ card }: { card: OverviewCard }) {
  const titleId = `metric-${card.title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <CCard className={`metric-card metric-card-${card.kind} h-100`} aria-labelledby={titleId} role="region">
      <CCardBody>
        <h3 id={titleId} className="card-title mb-2">
          {card.title}
        </h3>
        <div className="metric-card-value">
          <MetricValue
            value={card.value}
            layout={card.layout ?? 'inline'}
            {...(card.kind === 'nested' ? { groupLabel: formatInstrument } : {})}
          />
        </div>
        {card.hint !== undefined && <div className="metric-card-hint">{card.hint}</div>}
      </CCardBody>
    </CCard>
  );
}
