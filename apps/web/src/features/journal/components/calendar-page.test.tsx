import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { fakeApi, failure, ok } from '../../../test/fake-api';
import { findOpenDialog, renderWithProviders } from '../../../test/render';
import {
  CALENDAR,
  calendarBody,
  dayBody,
  GET_DAY,
  MARCH_LISTED,
  OCTOBER,
  trade,
  UPDATE_DAY,
} from '../test/journal-fixtures';
import { CalendarPage } from './calendar-page';

const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.search}</output>;
}

function renderCalendar(path = '/journal/calendar?month=2025-10') {
  return renderWithProviders(
    <Routes>
      <Route
        path="/journal/calendar"
        element={
          <>
            <CalendarPage />
            <Where />
          </>
        }
      />
    </Routes>,
    { path },
  );
}

const calendarRoute = () => (call: { search: URLSearchParams }) => {
  const month = call.search.get('month')!;
  return { body: calendarBody(month, month === '2025-10' ? OCTOBER : []) };
};

beforeEach(() => localStorage.setItem('token', JSON.stringify('test-token')));

describe('CalendarPage', () => {
  it('draws the month from the server rows: colour steps, trade counts, entries and weekly totals', async () => {
    const api = fakeApi({ [CALENDAR]: calendarRoute() });
    renderCalendar();

    const loss = await screen.findByRole('button', { name: /Wednesday, 8 October 2025, net P\/L -200\.00, 3 trades$/ });
    expect(loss).toHaveClass('cal-loss-4');
    expect(screen.getByRole('button', { name: /6 October 2025, net P\/L \+120\.10, 2 trades$/ })).toHaveClass(
      'cal-win-3',
    );
    const withEntry = screen.getByRole('button', {
      name: /7 October 2025, net P\/L \+30\.05, 1 trade, journal entry$/,
    });
    expect(withEntry).toHaveClass('cal-win-1');
    expect(screen.getByRole('button', { name: /20 October 2025, no closed trades, journal entry$/ })).toHaveClass(
      'cal-none',
    );
    expect(screen.getByRole('gridcell', { name: 'Week 2: net P/L -49.85, 6 trades' })).toHaveClass('cal-week-loss');
    expect(screen.getByRole('gridcell', { name: 'Week 1: net P/L +10.50, 1 trade' })).toHaveClass('cal-week-win');
    expect(screen.getByRole('gridcell', { name: 'Week 4: no closed trades' })).toBeInTheDocument();
    expect(within(screen.getByLabelText('Month totals')).getByText('-39.35')).toHaveClass('text-danger');
    expect(screen.getByRole('heading', { name: 'P/L Calendar – October 2025' })).toBeInTheDocument();

    const [call] = api.to(CALENDAR);
    expect(call!.search.get('month')).toBe('2025-10');
    expect(call!.search.get('timeZone')).toBe(ZONE);
    expect(call!.headers.Authorization).toBe('Bearer test-token');
  });

  it('marks a day whose trades broke a rule, with "rule broken" in its label; other days carry no mark', async () => {
    const days = OCTOBER.map((d) => (d.date === '2025-10-08' ? { ...d, ruleBreaks: 2 } : d));
    fakeApi({ [CALENDAR]: () => ({ body: calendarBody('2025-10', days) }) });
    renderCalendar();

    const broke = await screen.findByRole('button', {
      name: /Wednesday, 8 October 2025, net P\/L -200\.00, 3 trades, rule broken$/,
    });
    const mark = broke.querySelector('.cal-break-mark');
    expect(mark).not.toBeNull();
    expect(mark).toHaveAttribute('title', 'Rule broken (2 trades)');
    const kept = screen.getByRole('button', { name: /6 October 2025, net P\/L \+120\.10, 2 trades$/ });
    expect(kept.querySelector('.cal-break-mark')).toBeNull();
  });

  it('lists a month of two currencies per currency: totals signed and grouped, each amount with its code', async () => {
    fakeApi({ [CALENDAR]: () => ({ body: calendarBody('2025-03', MARCH_LISTED) }) });
    renderCalendar('/journal/calendar?month=2025-03');

    const day = await screen.findByRole('button', {
      name: 'Friday, 14 March 2025, net P/L -45,000.00 JPY · +1,200.50 USD, 2 trades',
    });
    // The cell squeezes each amount beside its code (on a phone the code stands above it), the exact one in its title.
    expect(
      [...day.querySelectorAll('.cal-day-part')].map((part) => [part.textContent, part.getAttribute('title')]),
    ).toEqual([
      ['-45k JPY', '-45,000.00 JPY'],
      ['+1.2k USD', '+1,200.50 USD'],
    ]);
    const totals = within(screen.getByLabelText('Month totals'));
    expect(totals.getByText('-382,286.63 JPY')).toHaveClass('text-danger');
    expect(totals.getByText('+1,200.50 USD')).toHaveClass('text-success');
    expect(
      screen.getByRole('gridcell', { name: 'Week 3: net P/L -45,000.00 JPY · +1,200.50 USD, 2 trades' }),
    ).toBeInTheDocument();
  });

  it('moves by month with the arrows and back to this month with Today, keeping the month in the URL', async () => {
    const api = fakeApi({ [CALENDAR]: calendarRoute() });
    const user = userEvent.setup();
    renderCalendar();
    await screen.findByRole('heading', { name: 'P/L Calendar – October 2025' });

    await user.click(screen.getByRole('button', { name: 'Next month' }));
    await screen.findByRole('heading', { name: 'P/L Calendar – November 2025' });
    await user.click(screen.getByRole('button', { name: 'Previous month' }));
    await user.click(screen.getByRole('button', { name: 'Previous month' }));
    await screen.findByRole('heading', { name: 'P/L Calendar – September 2025' });
    expect(screen.getByTestId('where')).toHaveTextContent('?month=2025-09');
    await waitFor(() =>
      expect(api.to(CALENDAR).map((c) => c.search.get('month'))).toEqual(['2025-10', '2025-11', '2025-09']),
    );

    await user.click(screen.getByRole('button', { name: 'Today' }));
    const thisMonth = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit' })
      .format(new Date())
      .slice(0, 7);
    await waitFor(() => expect(api.to(CALENDAR).at(-1)!.search.get('month')).toBe(thisMonth));
    expect(screen.getByTestId('where')).toHaveTextContent(/^$/);
    expect(screen.getByRole('button', { name: 'Today' })).toBeDisabled();
  });

  it('shows the year as twelve months, one request each, and opens a month from it', async () => {
    const api = fakeApi({ [CALENDAR]: calendarRoute() });
    const user = userEvent.setup();
    renderCalendar('/journal/calendar?month=2025-10&view=year');

    expect(await screen.findByRole('heading', { name: 'P/L Calendar – 2025' })).toBeInTheDocument();
    const october = await screen.findByRole('button', { name: 'October 2025: net P/L -39.35, 8 trades' });
    expect(screen.getByRole('button', { name: 'January 2025: no closed trades' })).toBeInTheDocument();
    expect(october.querySelectorAll('.cal-loss-4')).toHaveLength(1);
    expect(
      api
        .to(CALENDAR)
        .map((c) => c.search.get('month'))
        .sort(),
    ).toEqual(Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}`));

    await user.click(screen.getByRole('button', { name: 'Previous year' }));
    expect(await screen.findByRole('heading', { name: 'P/L Calendar – 2024' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next year' }));
    await user.click(await screen.findByRole('button', { name: /^October 2025:/ }));
    expect(await screen.findByRole('heading', { name: 'P/L Calendar – October 2025' })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('?month=2025-10');
  });

  it('opens a day with its trades and entry, shows notes as text, and saves the entry', async () => {
    let saved = { note: 'Chased the **London** open. <img src=x onerror=alert(1)>', mood: 2 };
    const api = fakeApi({
      [CALENDAR]: calendarRoute(),
      [GET_DAY]: (call) =>
        ok(
          dayBody({ date: call.params.date!, ...saved, updatedAt: '2025-10-08T20:00:00.000Z' }, [
            trade({
              note: '<b>moved my stop</b>',
              rMultiple: -1.6,
              rating: 2,
              tags: [{ id: 't-fomo', name: 'FOMO', kind: 'mistake' }],
            }),
          ]),
        ),
      [UPDATE_DAY]: (call) => {
        saved = call.body as typeof saved;
        return ok({ success: true, message: 'Saved', data: { date: call.params.date, ...saved, updatedAt: 'x' } });
      },
    });
    const user = userEvent.setup();
    renderCalendar();

    await user.click(await screen.findByRole('button', { name: /8 October 2025, net P\/L -200\.00/ }));
    const dialog = await findOpenDialog();
    expect(within(dialog).getByRole('heading', { name: 'Wednesday, 8 October 2025' })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('day=2025-10-08');
    expect(await within(dialog).findByText('1 trade closed')).toBeInTheDocument();
    expect(within(dialog).getByText('EUR/USD')).toBeInTheDocument();
    expect(within(dialog).getByText('Short')).toBeInTheDocument();
    expect(within(dialog).getByText('-1.60 R')).toBeInTheDocument();
    expect(within(dialog).getByText('FOMO')).toBeInTheDocument();
    // Notes are text: the markup shows as written and nothing is rendered from it.
    expect(within(dialog).getByText('<b>moved my stop</b>')).toBeInTheDocument();
    expect(dialog.querySelector('b, img')).toBeNull();
    const note = within(dialog).getByLabelText('Notes');
    expect(note).toHaveValue(saved.note);
    expect(within(dialog).getByRole('radio', { name: '2 · Bad' })).toHaveAttribute('aria-checked', 'true');
    expect(api.to('/api/v1/journal/get_day/2025-10-08')[0]!.search.get('timeZone')).toBe(ZONE);

    const save = within(dialog).getByRole('button', { name: 'Save entry' });
    expect(save).toBeDisabled();
    await user.clear(note);
    await user.type(note, 'Waited for the retest.');
    await user.click(within(dialog).getByRole('radio', { name: '4 · Good' }));
    expect(within(dialog).getByText('Unsaved changes')).toBeInTheDocument();
    await user.click(save);

    await waitFor(() => expect(api.to('/api/v1/journal/update_day/2025-10-08', 'POST')).toHaveLength(1));
    expect(api.to('/api/v1/journal/update_day/2025-10-08')[0]!.body).toEqual({
      note: 'Waited for the retest.',
      mood: 4,
    });
    expect(await screen.findByText('Journal entry saved')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByText(/^Saved /)).toBeInTheDocument());
    // The calendar asks again: the day's entry mark may have changed.
    await waitFor(() => expect(api.to(CALENDAR).length).toBeGreaterThan(1));
  });

  it("keeps the text and shows the server's message when a save is refused", async () => {
    fakeApi({
      [CALENDAR]: calendarRoute(),
      [GET_DAY]: (call) => ok(dayBody({ date: call.params.date! })),
      [UPDATE_DAY]: () => failure(400, 'mood must be a whole number from 1 to 5'),
      // The day's images load beside the entry; this test is about the entry's one alert.
      'GET /api/v1/attachment/get_attachments': () => ok({ success: true, message: 'OK', data: [] }),
    });
    const user = userEvent.setup();
    renderCalendar('/journal/calendar?month=2025-10&day=2025-10-20');
    const dialog = await findOpenDialog();
    expect(await within(dialog).findByText('No trades closed this day')).toBeInTheDocument();
    expect(within(dialog).getByText('No entry yet')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Notes'), 'Quiet day.');
    await user.click(within(dialog).getByRole('button', { name: 'Save entry' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('mood must be a whole number from 1 to 5');
    expect(within(dialog).getByLabelText('Notes')).toHaveValue('Quiet day.');
    expect(within(dialog).getByText('Unsaved changes')).toBeInTheDocument();
  });

  it('refuses a note over the limit before sending it', async () => {
    const api = fakeApi({ [CALENDAR]: calendarRoute(), [GET_DAY]: (call) => ok(dayBody({ date: call.params.date! })) });
    const user = userEvent.setup();
    renderCalendar('/journal/calendar?month=2025-10&day=2025-10-20');
    const dialog = await findOpenDialog();
    const note = await within(dialog).findByLabelText('Notes');
    await user.click(note);
    await user.paste('x'.repeat(20_001));
    expect(within(dialog).getByText(/The note must be at most 20,000 characters \(now 20,001\)/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save entry' })).toBeDisabled();
    expect(api.to(/update_day/)).toHaveLength(0);
  });

  it('shows a failed month in place with a retry', async () => {
    let fail = true;
    fakeApi({ [CALENDAR]: (call) => (fail ? failure(500, 'The calendar is not available.') : calendarRoute()(call)) });
    const user = userEvent.setup();
    renderCalendar();
    expect(await screen.findByText('The calendar is not available.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: /^Wednesday, 8 October 2025/ })).toBeInTheDocument();
  });
});
