import { useQueries } from '@tanstack/react-query';
import { CSpinner } from '@coreui/react';
import type { CalendarDay } from '@pipsense/contract';
import { LoadErrorState } from '../../../components/data/data-states';
import { calendarMonthQuery } from '../api/journal-api';
import { CalendarTotals, FigureText } from './cal-figures';
import {
  dayTone,
  figureSign,
  largestDay,
  monthGrid,
  monthLabel,
  monthTotals,
  WEEKDAY_LABELS,
} from '../model/calendar-grid';
import { plural } from '../model/plural';
import { figureText } from '../model/pl-text';

function MiniMonth({
  month,
  days,
  largest,
  onOpen,
}: {
  month: string;
  days: readonly CalendarDay[] | undefined;
  largest: number;
  onOpen: () => void;
}) {
  const totals = days ? monthTotals(days) : null;
  const sign = totals ? figureSign(totals) : 0;
  const summary = !totals
    ? 'loading'
    : totals.trades === 0
      ? 'no closed trades'
      : `net P/L ${figureText(totals)}, ${plural(totals.trades, 'trade')}`;
  return (
    <button type="button" className="cal-mini" onClick={onOpen} aria-label={`${monthLabel(month)}: ${summary}`}>
      <span className="cal-mini-head">
        <span className="cal-mini-name">{monthLabel(month, 'short')}</span>
        <span
          className={`cal-mini-total ${sign > 0 ? 'text-success' : sign < 0 ? 'text-danger' : 'text-body-tertiary'}`}
        >
          {totals === null ? (
            <CSpinner size="sm" aria-hidden="true" />
          ) : totals.trades === 0 ? (
            '–'
          ) : (
            <FigureText figure={totals} />
          )}
        </span>
      </span>
      <span className="cal-mini-grid" aria-hidden="true">
        {WEEKDAY_LABELS.map((label) => (
          <span key={label} className="cal-mini-weekday">
            {label.charAt(0)}
          </span>
        ))}
        {monthGrid(month, days ?? [], largest).flatMap((week, w) =>
          week.days.map((day, d) => (
            <span key={`${w}-${d}`} className={day ? `cal-mini-day ${dayTone(day)}` : 'cal-mini-blank'} />
          )),
        )}
      </span>
    </button>
  );
}

/** The year at a glance: twelve small months on one colour scale (the year's largest day); a month opens it. */
export function YearView({
  year,
  timeZone,
  onOpenMonth,
}: {
  year: string;
  timeZone: string;
  onOpenMonth: (month: string) => void;
}) {
  const months = Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, '0')}`);
  const results = useQueries({ queries: months.map((m) => calendarMonthQuery(m, timeZone)) });
  const failed = results.find((r) => r.isError);
  if (failed?.error)
    return (
      <LoadErrorState
        what="calendar"
        message={failed.error.message}
        onRetry={() => results.forEach((r) => r.isError && void r.refetch())}
      />
    );
  const all = results.flatMap((r) => r.data?.days ?? []);
  const largest = largestDay(all);
  const totals = monthTotals(all);
  return (
    <>
      {results.every((r) => r.data !== undefined) ? (
        <CalendarTotals label="Year totals" plLabel={`Net P/L ${year}`} totals={totals} />
      ) : (
        <div className="cal-summary text-body-secondary small" role="status">
          Loading the year…
        </div>
      )}
      <div className="cal-year">
        {months.map((month, i) => (
          <MiniMonth
            key={month}
            month={month}
            days={results[i]?.data?.days}
            largest={largest}
            onOpen={() => onOpenMonth(month)}
          />
        ))}
      </div>
    </>
  );
}
