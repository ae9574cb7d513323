import { plClass } from '../../../components/data/format';
import { plural } from '../model/plural';
import { compactPL, signedPL } from '../model/pl-text';

/** A cell's net P/L and trade count, in full on wide screens and squeezed on phones (journal.css). */
export function CellFigures({ netPL, trades }: { netPL: string; trades: number }) {
  return (
    <>
      <span className="cal-day-pl">
        <span className="cal-full">{signedPL(netPL)}</span>
        <span className="cal-compact">{compactPL(netPL)}</span>
      </span>
      <span className="cal-day-trades">
        <span className="cal-full">{plural(trades, 'trade')}</span>
        <span className="cal-compact">{trades}</span>
      </span>
    </>
  );
}

/** The totals above a month or the year: net P/L, closed trades, days traded. */
export function CalendarTotals({
  label,
  plLabel,
  totals,
}: {
  label: string;
  plLabel: string;
  totals: { netPL: string; trades: number; tradedDays: number };
}) {
  return (
    <dl className="cal-summary" aria-label={label}>
      <div>
        <dt>{plLabel}</dt>
        <dd className={plClass(totals.netPL)}>{signedPL(totals.netPL)}</dd>
      </div>
      <div>
        <dt>Closed trades</dt>
        <dd>{totals.trades}</dd>
      </div>
      <div>
        <dt>Days traded</dt>
        <dd>{totals.tradedDays}</dd>
      </div>
    </dl>
  );
}
