import type { TradeListItem } from '@pipsense/contract';
import { AttachmentsPanel } from '../../../components/attachments/attachments-panel';
import { DetailList } from '../../../components/data/detail-list';
import { DetailsModal } from '../../../components/data/details-modal';
import { formatDateTime, formatInstrument } from '../../../components/data/format';
import { ruleWithLimit } from '../../../lib/rule-labels';
import { tradeDetails } from '../model/trade-details';
import { direction } from '../model/trade-format';
import { tradeRisk } from '../model/trade-risk';
import { TradeCoachSection } from './trade-coach';
import { TradeJournal } from './trade-journal';
import { TradePlaybookSection } from './trade-playbook';
import { TradeChartPanel } from './trade-replay';

interface TradeDetailsModalProps {
  visible: boolean;
  /** Kept while the modal fades out, so its content does not vanish mid-animation. */
  trade: TradeListItem | null;
  /** The trading service the candles come from. */
  base: string | null;
  onClose: () => void;
}

/**
 * docs/PRODUCT.md, Trade list: 'Trade Details', the trade's fields and a chart of the instrument around it; the journal
 * adds the trade's journal (note, rating, tags) and its risk in R; a trade that broke a rule of the trader's rule sets
 * names each rule it broke (docs/rules.md, Where breaks are shown); the Coach section holds its review and facts
 * (trade-coach.tsx). The chart's Replay mode is trade-replay.tsx's.
 */
export function TradeDetailsModal({ visible, trade, base, onClose }: TradeDetailsModalProps) {
  return (
    <DetailsModal title="Trade Details" visible={visible} onClose={onClose}>
      {trade && (
        <>
          <p className="text-body-secondary mb-3">
            #{trade.tradeId} · {formatInstrument(trade.instrument)} · {direction(trade)}
          </p>
          {trade.ruleBreaks.length > 0 && (
            <ul className="list-unstyled text-danger small mb-3" aria-label="Rule breaks">
              {trade.ruleBreaks.map((b) => (
                <li key={`${b.ruleSetId}:${b.kind}:${b.time}`} title={`At ${formatDateTime(b.time)}`}>
                  Rule broken: {ruleWithLimit(b.rule)} — {b.ruleSetName}
                </li>
              ))}
            </ul>
          )}
          {base !== null && <TradeChartPanel key={trade.tradeId} base={base} trade={trade} />}
          <TradeJournal
            key={`${trade.accountId}:${trade.tradeId}`}
            accountId={trade.accountId}
            tradeId={trade.tradeId}
          />
          <TradePlaybookSection
            key={`playbook:${trade.accountId}:${trade.tradeId}`}
            accountId={trade.accountId}
            tradeId={trade.tradeId}
          />
          <TradeCoachSection
            key={`coach:${trade.accountId}:${trade.tradeId}`}
            accountId={trade.accountId}
            tradeId={trade.tradeId}
          />
          <AttachmentsPanel
            key={`images:${trade.accountId}:${trade.tradeId}`}
            target="trade"
            accountId={trade.accountId}
            tradeId={trade.tradeId}
            title="Screenshots"
          />
          <section className="mb-4" aria-label="Risk">
            <h3 className="h6 fw-semibold mb-2">Risk</h3>
            <DetailList items={tradeRisk(trade)} />
          </section>
          <section aria-label="Trade">
            <h3 className="h6 fw-semibold mb-2">Trade</h3>
            <DetailList items={tradeDetails(trade)} />
          </section>
        </>
      )}
    </DetailsModal>
  );
}
