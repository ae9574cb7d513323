import { useSearchParams } from 'react-router';
import { CButton, CButtonGroup, CCard, CCardBody, CCardHeader } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilChevronLeft, cilChevronRight } from '@coreui/icons';
import { browserTimeZone } from '../../../lib/time-zone';
import { monthLabel, shiftMonth, todayIn } from '../model/calendar-grid';
import { DayPanel } from './day-panel';
import { MonthView } from './month-view';
import { YearView } from './year-view';
import '../journal.css';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The P/L calendar: a month of daily net P/L with weekly totals, or the year at a glance; a day opens its
 * trades and journal entry. The month, the view and the open day live in the URL, so the back button walks them.
 */
export function CalendarPage() {
  const timeZone = browserTimeZone() ?? 'UTC';
  const [params, setParams] = useSearchParams();
  const thisMonth = todayIn(timeZone).slice(0, 7);
  const monthParam = params.get('month') ?? '';
  const month = MONTH.test(monthParam) ? monthParam : thisMonth;
  const view = params.get('view') === 'year' ? 'year' : 'month';
  const dayParam = params.get('day');
  const openDay = dayParam && DATE.test(dayParam) ? dayParam : null;

  const go = (next: { month?: string; view?: 'month' | 'year'; day?: string | null }) => {
    const out = new URLSearchParams(params);
    const nextMonth = next.month ?? month;
    if (nextMonth === thisMonth) out.delete('month');
    else out.set('month', nextMonth);
    const nextView = next.view ?? view;
    if (nextView === 'year') out.set('view', 'year');
    else out.delete('view');
    // Any move closes the open day; only opening one sets it.
    if (next.day) out.set('day', next.day);
    else out.delete('day');
    setParams(out);
  };

  const step = view === 'year' ? 12 : 1;
  const title = view === 'year' ? month.slice(0, 4) : monthLabel(month);
  return (
    <div className="journal-calendar">
      <CCard className="data-card mb-4">
        <CCardHeader className="data-card-header">
          <h2 className="h5 mb-0 data-card-title">P/L Calendar – {title}</h2>
          <div className="data-card-toolbar cal-toolbar">
            <CButtonGroup role="group" aria-label="Calendar view">
              <CButton
                color="secondary"
                variant={view === 'month' ? undefined : 'outline'}
                aria-pressed={view === 'month'}
                onClick={() => go({ view: 'month' })}
              >
                Month
              </CButton>
              <CButton
                color="secondary"
                variant={view === 'year' ? undefined : 'outline'}
                aria-pressed={view === 'year'}
                onClick={() => go({ view: 'year' })}
              >
                Year
              </CButton>
            </CButtonGroup>
            <CButtonGroup role="group" aria-label="Move through the calendar">
              <CButton
                color="secondary"
                variant="outline"
                aria-label={view === 'year' ? 'Previous year' : 'Previous month'}
                onClick={() => go({ month: shiftMonth(month, -step) })}
              >
                <CIcon icon={cilChevronLeft} />
              </CButton>
              <CButton
                color="secondary"
                variant="outline"
                disabled={month === thisMonth}
                onClick={() => go({ month: thisMonth })}
              >
                Today
              </CButton>
              <CButton
                color="secondary"
                variant="outline"
                aria-label={view === 'year' ? 'Next year' : 'Next month'}
                onClick={() => go({ month: shiftMonth(month, step) })}
              >
                <CIcon icon={cilChevronRight} />
              </CButton>
            </CButtonGroup>
          </div>
        </CCardHeader>
        <CCardBody>
          {view === 'year' ? (
            <YearView
              year={month.slice(0, 4)}
              timeZone={timeZone}
              onOpenMonth={(m) => go({ month: m, view: 'month' })}
            />
          ) : (
            <MonthView
              month={month}
              timeZone={timeZone}
              today={todayIn(timeZone)}
              onOpenDay={(date) => go({ day: date })}
            />
          )}
          <p className="cal-zone-note text-body-secondary small mb-0">
            A trade counts on the day it closed ({timeZone}); open trades are not on the calendar.
          </p>
        </CCardBody>
      </CCard>
      {openDay !== null && <DayPanel date={openDay} timeZone={timeZone} onClose={() => go({ day: null })} />}
    </div>
  );
}
