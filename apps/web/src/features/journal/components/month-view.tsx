import { CSpinner } from '@coreui/react';
import { LoadErrorState } from '../../../components/data/data-states';
import { plural } from '../model/plural';
import { useCalendarMonth } from '../api/journal-api';
import { CalendarTotals, CellFigures } from './cal-figures';
import {
  dayLabel,
  dayTone,
  figureSign,
  monthGrid,
  monthTotals,
  WEEKDAY_LABELS,
  type GridDay,
} from '../model/calendar-grid';
import { figureText } from '../model/pl-text';

function dayName(day: GridDay): string {
  const parts = [dayLabel(day.date)];
  if (day.trades > 0) parts.push(`net P/L ${figureText(day)}`, plural(day.trades, 'trade'));
  else parts.push('no closed trades');
  if (day.ruleBreaks > 0) parts.push('rule broken');
  if (day.hasEntry) parts.push('journal entry');
  return parts.join(', ');
}

function DayCell({ day, today, onOpen }: { day: GridDay; today: boolean; onOpen: (date: string) => void }) {
  return (
    <button
      type="button"
      className={`cal-day ${dayTone(day)}${today ? ' cal-today' : ''}`}
      aria-label={dayName(day)}
      onClick={() => onOpen(day.date)}
    >
      <span className="cal-day-head">
        <span className="cal-day-number">{day.day}</span>
        <span className="cal-day-marks">
          {day.ruleBreaks > 0 && (
            <span
              className="cal-break-mark"
              title={`Rule broken (${plural(day.ruleBreaks, 'trade')})`}
              aria-hidden="true"
            >
              !
            </span>
          )}
          {day.hasEntry && <span className="cal-entry-dot" title="Journal entry" aria-hidden="true" />}
        </span>
      </span>
      {day.trades > 0 && <CellFigures figure={day} trades={day.trades} />}
    </button>
  );
}

/** One month: a cell per day coloured by its net P/L, the week's total at the end of each row. */
export function MonthView({
  month,
  timeZone,
  today,
  onOpenDay,
}: {
  month: string;
  timeZone: string;
  today: string;
  onOpenDay: (date: string) => void;
}) {
  const calendar = useCalendarMonth(month, timeZone);
  if (calendar.isError)
    return <LoadErrorState what="calendar" message={calendar.error.message} onRetry={() => void calendar.refetch()} />;
  if (!calendar.data)
    return (
      <div className="cal-loading" role="status" aria-label="Loading the calendar">
        <CSpinner color="primary" aria-hidden="true" />
      </div>
    );

  const weeks = monthGrid(month, calendar.data.days);
  const totals = monthTotals(calendar.data.days);
  return (
    <>
      <CalendarTotals
        label="Month totals"
        plLabel={
          // Several currencies converted into the home currency: the figures are in it, and say so.
          calendar.data.currency?.mode === 'converted' ? `Net P/L (${calendar.data.currency.home})` : 'Net P/L'
        }
        totals={totals}
      />
      {calendar.data.currency?.mode === 'converted' && (
        <p className="cal-currency-note">
          Amounts in {calendar.data.currency.currencies.filter((c) => c !== calendar.data.currency?.home).join(', ')}{' '}
          converted into {calendar.data.currency.home} at each trade&apos;s close day rate.
        </p>
      )}
      <div className="cal-grid" role="grid" aria-label={`Daily net P/L, ${month}`}>
        <div className="cal-row cal-head" role="row">
          {WEEKDAY_LABELS.map((label) => (
            <div key={label} role="columnheader" className="cal-weekday">
              {label}
            </div>
          ))}
          <div role="columnheader" className="cal-weekday cal-week-head">
            Week
          </div>
        </div>
        {weeks.map((week, index) => (
          <div key={index} className="cal-row" role="row">
            {week.days.map((day, at) => (
              <div key={day?.date ?? `blank-${at}`} role="gridcell" className="cal-cell">
                {day && <DayCell day={day} today={day.date === today} onOpen={onOpenDay} />}
              </div>
            ))}
            <div
              role="gridcell"
              className={`cal-week ${week.trades === 0 ? '' : figureSign(week) >= 0 ? 'cal-week-win' : 'cal-week-loss'}`}
              aria-label={`Week ${index + 1}: ${week.trades === 0 ? 'no closed trades' : `net P/L ${figureText(week)}, ${plural(week.trades, 'trade')}`}`}
            >
              {week.trades > 0 ? (
                <CellFigures figure={week} trades={week.trades} />
              ) : (
                <span className="text-body-tertiary">–</span>
              )}
            </div>
          </div>
        ))}
      </div>
    </>
  );
}
