import { CProgress } from '@coreui/react';
import type { OverviewCharts } from '@pipsense/contract';
import { instrumentBars, signedMoney } from '../model/chart-data';

/**
 * Net P/L by instrument as a list of horizontal bars, best first. Instruments are categories with long names and no
 * order in time, which lightweight-charts' time axis cannot label readably, so this one is plain CoreUI progress bars.
 */
export function InstrumentPnl({ rows }: { rows: OverviewCharts['pnlByInstrument'] }) {
  const bars = instrumentBars(rows);
  if (bars.length === 0) return <p className="overview-chart-empty">No closed trades yet.</p>;
  return (
    <ul className="instrument-bars" aria-label="Net P/L by instrument">
      {bars.map((bar) => {
        const tone = bar.netPL > 0 ? 'success' : bar.netPL < 0 ? 'danger' : 'secondary';
        return (
          <li key={bar.instrument} className="instrument-bar">
            <div className="instrument-bar-head">
              <span className="fw-semibold">{bar.label}</span>
              <span className="text-body-secondary small">
                {bar.trades.toLocaleString()} {bar.trades === 1 ? 'trade' : 'trades'}
              </span>
              <span className={`instrument-bar-value ${tone === 'secondary' ? '' : `text-${tone}`}`}>
                {signedMoney(bar.netPL)}
              </span>
            </div>
            <CProgress thin color={tone} value={bar.share} aria-label={`${bar.label}: ${signedMoney(bar.netPL)}`} />
          </li>
        );
      })}
    </ul>
  );
}
