import { plClass } from '../../../components/data/format';
import { plural } from '../model/plural';
import { compactFigureText, figureClass, figureText } from '../model/pl-text';
import type { PlFigure } from '../model/calendar-grid';

/** A cell's net P/L and trade count, in full on wide screens and squeezed on phones (journal.css). */
export function CellFigures({ figure, trades }: { figure: PlFigure; trades: number }) {
  return (
    <>
      {figure.byCurrency ? (
        // Several currencies: one line each, with its code, never added (docs/decisions/024-currencies-never-mixed.md).
        figure.byCurrency.map((part) => (
          // Squeezed on every screen ('-45k JPY'): two amounts with codes fit no cell in full; the exact amounts are
          // in the cell's label and on the day's panel.
          <span
            key={part.currency}
            className={`cal-day-pl cal-day-part ${plClass(part.amount)}`}
            title={`${figureText({ netPL: part.amount, byCurrency: null })} ${part.currency}`}
          >
            {compactFigureText({ netPL: part.amount, byCurrency: null })} {part.currency}
          </span>
        ))
      ) : (
        <span className="cal-day-pl">
          <span className="cal-full">{figureText(figure)}</span>
          <span className="cal-compact">{compactFigureText(figure)}</span>
        </span>
      )}
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
  totals: PlFigure & { trades: number; tradedDays: number };
}) {
  return (
    <dl className="cal-summary" aria-label={label}>
      <div>
        <dt>{plLabel}</dt>
        <dd className={figureClass(totals)}>{figureText(totals)}</dd>
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
