import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, failure, ok } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import {
  GET_WEEK,
  GET_WEEKS,
  READ_WEEK,
  weekBody,
  weekItem,
  weeklyReview,
  weeksBody,
} from '../../../test/coach-fixtures';
import { WeeklyReviewsPage } from './weekly-reviews-page';

beforeEach(() => localStorage.setItem('token', JSON.stringify('test-token')));
afterEach(() => vi.useRealTimers());

const WEEKS = [
  weekItem(),
  weekItem({
    week: '2026-W46',
    from: '2026-11-09T00:00:00.000Z',
    to: '2026-11-16T00:00:00.000Z',
    trades: 1,
    netPL: { mode: 'single', currency: 'USD', amount: '-40.0000' },
    focus: 'Trade only the London session.',
    source: 'gpt-4o-mini',
    readAt: '2026-11-16T08:00:00.000Z',
  }),
];

describe('the Weekly Reviews list', () => {
  it('lists the weeks with their dates, trades, net P/L, focus and source, the unread one marked', async () => {
    fakeApi({ [GET_WEEKS]: () => ok(weeksBody(WEEKS)) });
    renderWithProviders(<WeeklyReviewsPage />, { path: '/coach/weekly_reviews' });
    const list = await screen.findByRole('navigation', { name: 'Weekly reviews' });
    const [w47, w46] = within(list).getAllByRole('link') as [HTMLElement, HTMLElement];
    expect(w47).toHaveAttribute('href', '/coach/weekly_reviews?week=2026-W47');
    expect(w47).toHaveClass('unread');
    expect(w47).toHaveTextContent('New');
    expect(w47).toHaveTextContent('14 trades');
    expect(w47).toHaveTextContent('215.40 USD');
    expect(w47).toHaveTextContent('Focus: Wait 30 minutes after a loss');
    expect(w47).toHaveTextContent('Written by: built-in analysis');
    expect(w47).toHaveTextContent(/Nov 16, 2026|16 Nov 2026/);
    expect(w46).not.toHaveClass('unread');
    expect(w46).not.toHaveTextContent('New');
    expect(w46).toHaveTextContent('1 trade');
    expect(within(w46).getByText('-40.00 USD')).toHaveClass('text-danger');
    expect(w46).toHaveTextContent('Written by: gpt-4o-mini');
  });

  it("opens last week, in the trader's time zone as the server tells it, even when it is not in the list", async () => {
    const api = fakeApi({
      // A trader in Tokyo on Monday morning: the server's last ended week, whatever the browser's calendar says.
      [GET_WEEKS]: () => ok(weeksBody([], '2026-W45')),
      [GET_WEEK]: (call) => ok(weekBody(weeklyReview({ week: call.params.week!, readAt: '2026-11-27T00:00:00Z' }))),
    });
    renderWithProviders(<WeeklyReviewsPage />, { path: '/coach/weekly_reviews' });
    expect(await screen.findByText('No weekly reviews yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Open last week' }));
    await waitFor(() => expect(api.to('/api/v1/coach/get_weekly_reviews', 'GET').length).toBeGreaterThan(0));
    const week = '2026-W45';
    expect(await screen.findByRole('heading', { name: `Week ${week}` })).toBeInTheDocument();
    expect(api.to(`/api/v1/coach/get_weekly_review/${week}`, 'GET')).toHaveLength(1);
  });

  it('says when the list cannot be loaded', async () => {
    fakeApi({ [GET_WEEKS]: () => failure(500, 'Database unavailable') });
    renderWithProviders(<WeeklyReviewsPage />, { path: '/coach/weekly_reviews' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable');
  });
});

describe("a week's review", () => {
  it('shows every section and marks the week read once', async () => {
    const api = fakeApi({
      [GET_WEEKS]: () => ok(weeksBody(WEEKS)),
      [GET_WEEK]: () => ok(weekBody()),
      [READ_WEEK]: () => ok(weekBody(weeklyReview({ readAt: '2026-11-27T10:00:00.000Z' }))),
    });
    renderWithProviders(<WeeklyReviewsPage />, { path: '/coach/weekly_reviews?week=2026-W47' });
    const page = await screen.findByRole('article', { name: 'Weekly review 2026-W47' });
    expect(page).toHaveTextContent('(Europe/London) · Written by: built-in analysis');
    expect(within(page).getByRole('region', { name: 'Summary' })).toHaveTextContent('You made 215.40 USD over 14');
    const trades = within(page).getByRole('group', { name: 'Trades' });
    expect(trades).toHaveTextContent('14');
    expect(trades).toHaveTextContent('12-week average: 11.5');
    expect(within(page).getByRole('group', { name: 'Net P/L' })).toHaveTextContent(
      '215.40 USD12-week average: 80.00 USD',
    );
    expect(within(page).getByRole('group', { name: 'Total R' })).toHaveTextContent('+2.50R12-week average: +1.10R');
    expect(within(page).getByRole('group', { name: 'Win rate' })).toHaveTextContent('57.1 %12-week average: 48.2 %');
    const focus = within(page).getByRole('region', { name: 'Focus for next week' });
    expect(focus).toHaveTextContent('Wait 30 minutes after a loss');
    expect(focus).toHaveTextContent('Revenge trading');
    const previous = within(page).getByRole('region', { name: 'Last week’s focus' });
    expect(previous).toHaveTextContent('Trade only the London session. Kept');
    expect(previous).toHaveTextContent('No trade outside London this week');
    const best = within(page).getByRole('region', { name: 'Best trades' });
    expect(best).toHaveTextContent('EUR/USD Long · #21');
    expect(best).toHaveTextContent('+2.10R');
    expect(best).toHaveTextContent('You traded with the H4 trend.');
    expect(best).toHaveTextContent('Written by: gpt-4o-mini');
    expect(within(page).getByRole('region', { name: 'Worst trades' })).toHaveTextContent('Not reviewed.');
    const patterns = within(page).getByRole('region', { name: 'Patterns' });
    expect(patterns).toHaveTextContent('Revenge trading: 2 trades, net -120.50 USD (others 340.25 USD)');
    expect(patterns).not.toHaveTextContent('Overtrading');
    expect(within(page).getByRole('region', { name: 'Rule breaks' })).toHaveTextContent('3 breaks on 2 trades');
    expect(within(page).getByRole('region', { name: 'Playbook follow rate' })).toHaveTextContent(
      '80.0 % of 5 reviewed trades',
    );
    expect(within(page).getByRole('region', { name: 'Mood and results' })).toHaveTextContent(
      '2026-11-18: mood 4/5, 150.00 USD',
    );
    await waitFor(() => expect(api.to('/api/v1/coach/read_weekly_review/2026-W47', 'POST')).toHaveLength(1));
    // The mark is kept: the review is not marked again on a re-render.
    await new Promise((r) => setTimeout(r, 50));
    expect(api.to(/read_weekly_review/)).toHaveLength(1);
  });

  it('leaves out the sections a trader has no data for, and does not mark a read week again', async () => {
    const api = fakeApi({
      [GET_WEEK]: () =>
        ok(
          weekBody(
            weeklyReview({
              ruleBreaks: null,
              playbooks: null,
              mood: null,
              previousFocus: null,
              baseline: null,
              source: 'claude-3-5-haiku',
              readAt: '2026-11-24T00:00:00.000Z',
            }),
          ),
        ),
    });
    renderWithProviders(<WeeklyReviewsPage />, { path: '/coach/weekly_reviews?week=2026-W47' });
    const page = await screen.findByRole('article', { name: 'Weekly review 2026-W47' });
    expect(page).toHaveTextContent('Written by: claude-3-5-haiku');
    expect(page).toHaveTextContent('No earlier weeks to compare with yet.');
    for (const name of ['Rule breaks', 'Playbook follow rate', 'Mood and results', 'Last week’s focus'])
      expect(within(page).queryByRole('region', { name })).not.toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(api.to(/read_weekly_review/)).toHaveLength(0);
  });

  it('names a baseline shorter than 12 weeks by its own length', async () => {
    const short = { trades: 6, netPL: null, totalR: -1.01, winRate: 25, weeks: 2 };
    fakeApi({ [GET_WEEK]: () => ok(weekBody(weeklyReview({ baseline: short, readAt: '2026-11-24T00:00:00.000Z' }))) });
    renderWithProviders(<WeeklyReviewsPage />, { path: '/coach/weekly_reviews?week=2026-W47' });
    const page = await screen.findByRole('article', { name: 'Weekly review 2026-W47' });
    expect(within(page).getByRole('group', { name: 'Trades' })).toHaveTextContent('2-week average: 6.0');
    expect(within(page).getByRole('group', { name: 'Win rate' })).toHaveTextContent('2-week average: 25.0 %');
    expect(within(page).getByRole('region', { name: 'Figures' })).not.toHaveTextContent('12-week average');
    expect(page).toHaveTextContent('Averages of the 2 weeks before.');
  });

  it('shows the server’s 400 for a week that has not ended', async () => {
    fakeApi({ [GET_WEEK]: () => failure(400, 'The week 2026-W48 has not ended yet.') });
    renderWithProviders(<WeeklyReviewsPage />, { path: '/coach/weekly_reviews?week=2026-W48' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your review of 2026-W48 could not be loaded');
    expect(alert).toHaveTextContent('The week 2026-W48 has not ended yet.');
    expect(screen.getByRole('link', { name: '← All weekly reviews' })).toHaveAttribute('href', '/coach/weekly_reviews');
  });
});
