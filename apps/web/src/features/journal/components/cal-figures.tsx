import { Fragment } from 'react';
import { compactMoney, formatSignedMoney, plClass } from '../../../components/data/format';
import { plural } from '../model/plural';
import { figureClass, figureText } from '../model/pl-text';
import type { PlFigure } from '../model/calendar-grid';

/** A cell's net P/L and trade count, in full on wide screens and squeezed on phones (journal.css). */
export function CellFigures({ figure, trades }: { figure: PlFigure; trades: number }) {
  return (
    <>
      {figure.byCurrency ? (
        // Several currencies: one figure each, with its code, never added (docs/decisions/024-currencies-never-mixed.md).
        figure.byCurrency.map((part) => (
          // Squeezed on every screen ('-45k JPY'): two amounts with codes fit no cell in full; the exact amounts are
          // in the cell's label and on the day's panel. On a phone the code stands small above its amount.
          <span
            key={part.currency}
            className={`cal-day-pl cal-day-part ${plClass(part.amount)}`}
            title={formatSignedMoney(part.amount, part.currency)}
          >
            <span>{compactMoney(part.amount)}</span> <span className="cal-part-code">{part.currency}</span>
          </span>
        ))
      ) : (
        <span className="cal-day-pl">
          <span className="cal-full">{figureText(figure)}</span>
          <span className="cal-compact">{compactMoney(figure.netPL)}</span>
        </span>
      )}
      <span className="cal-day-trades">
        <span className="cal-full">{plural(trades, 'trade')}</span>
        <span className="cal-compact">{trades}</span>
      </span>
    </>
  );
}

/**
 * A P/L as text: one figure, or each currency's amount coloured by its own sign, each kept whole where the line
 * wraps (a month's or the year's total; the year view's small months stack them, journal.css).
 */
export function FigureText({ figure }: { figure: PlFigure }) {
  if (!figure.byCurrency?.length) return figureText(figure);
  return figure.byCurrency.map((part, at) => (
    <Fragment key={part.currency}>
      {at > 0 && <span className="cal-sep"> · </span>}
      <span className={`cal-part ${plClass(part.amount)}`}>{formatSignedMoney(part.amount, part.currency)}</span>
    </Fragment>
  ));
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
        <dd className={figureClass(totals)}>
          <FigureText figure={totals} />
        </dd>
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
