import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { alertRoutes, READ_ALERTS, ruleAlert } from '../../test/alert-fixtures';
import { alertsQuery } from '../../lib/alerts-query';
import { GET_WEEKS, weekItem, weeksBody } from '../../test/coach-fixtures';
import { fakeApi, failure, ok } from '../../test/fake-api';
import { renderWithProviders } from '../../test/render';
import { useSync } from '../data/use-sync';
import { AlertsBell } from './alerts-bell';

/** A Sync button as the lists have one. */
function SyncButton() {
  const sync = useSync<{ message: string }>('', '/api/v1/trade/sync_trade', ['trade-history']);
  return (
    <button type="button" onClick={() => sync.mutate()}>
      Sync now
    </button>
  );
}

const ALERTS = [
  ruleAlert(),
  ruleAlert({
    id: 'al-2',
    kind: 'max_loss',
    threshold: 50,
    ruleSetName: 'My own rules',
    message: 'My own rules: 51.0 % of the maximum loss used (5,100.00 of 10,000.00 USD).',
    time: '2026-11-26T15:00:00.000Z',
  }),
  ruleAlert({
    id: 'al-3',
    threshold: 50,
    message: 'FTMO challenge: 50.2 % of the daily loss used (2,510.00 of 5,000.00 USD).',
    time: '2026-11-25T10:00:00.000Z',
    readAt: '2026-11-25T11:00:00.000Z',
  }),
];

beforeEach(() => localStorage.setItem('token', JSON.stringify('test-token')));

describe('the alerts bell', () => {
  it('shows the unread count on the bell and the newest alerts in its panel, unread ones marked', async () => {
    const api = fakeApi(alertRoutes(ALERTS));
    renderWithProviders(<AlertsBell />);
    const bell = await screen.findByRole('button', { name: 'Alerts, 2 unread' });
    expect(bell).toHaveTextContent('2');

    const user = userEvent.setup();
    await user.click(bell);
    const panel = screen.getByLabelText('Alerts panel');
    const items = within(panel).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.alert-message')?.textContent)).toEqual(
      ALERTS.map((a) => a.message),
    );
    expect(items[0]).toHaveTextContent('Unread:');
    expect(items[0]).toHaveTextContent('FTMO challenge ·');
    expect(items[1]).toHaveTextContent('My own rules ·');
    expect(items[2]).not.toHaveTextContent('Unread:');
    expect(within(panel).getByRole('link', { name: 'All alerts' })).toHaveAttribute('href', '/rules/my_rules');
    // Opening the panel marks nothing read.
    expect(api.to('/api/v1/rules/read_alerts')).toEqual([]);
  });

  it('marks one alert read when clicked, and all with “Mark all read”, clearing the badge', async () => {
    const api = fakeApi(alertRoutes(ALERTS));
    renderWithProviders(<AlertsBell />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Alerts, 2 unread' }));

    await user.click(screen.getByRole('button', { name: /My own rules: 51\.0 %/ }));
    await screen.findByRole('button', { name: 'Alerts, 1 unread' });
    expect(api.to('/api/v1/rules/read_alerts', 'POST').map((c) => c.body)).toEqual([{ ids: ['al-2'] }]);

    await user.click(screen.getByRole('button', { name: 'Mark all read' }));
    const bell = await screen.findByRole('button', { name: 'Alerts' });
    expect(bell.querySelector('.badge')).toBeNull();
    expect(api.to('/api/v1/rules/read_alerts', 'POST').map((c) => c.body)).toEqual([{ ids: ['al-2'] }, {}]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Mark all read' })).toBeDisabled());
    expect(screen.getByLabelText('Alerts panel').querySelectorAll('.alert-unread')).toHaveLength(0);
  });

  it('shows no badge without unread alerts, and says so in the panel when there are none', async () => {
    fakeApi(alertRoutes([]));
    renderWithProviders(<AlertsBell />);
    const bell = await screen.findByRole('button', { name: 'Alerts' });
    await waitFor(() => expect(screen.queryByText('Loading alerts')).toBeNull());
    expect(bell.querySelector('.badge')).toBeNull();
    await userEvent.setup().click(bell);
    expect(await within(screen.getByLabelText('Alerts panel')).findByText('No alerts yet.')).toBeInTheDocument();
  });

  it('tells when marking read failed', async () => {
    fakeApi({ ...alertRoutes(ALERTS), [READ_ALERTS]: () => failure(503, 'The rules service is unavailable.') });
    renderWithProviders(<AlertsBell />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Alerts, 2 unread' }));
    await user.click(screen.getByRole('button', { name: 'Mark all read' }));
    expect(await screen.findByText('The rules service is unavailable.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Alerts, 2 unread' })).toBeInTheDocument();
  });

  it('is read again every minute and when the window regains focus', () => {
    // The app's default is no refetch on focus: the alerts' query turns it on.
    expect(alertsQuery().refetchInterval).toBe(60_000);
    expect(alertsQuery().refetchOnWindowFocus).toBe(true);
  });

  it('is read again after a sync', async () => {
    const api = fakeApi({
      ...alertRoutes([]),
      'GET /api/v1/trade/sync_trade': () => ok({ success: true, message: 'Synced 3 trades' }),
    });
    renderWithProviders(
      <>
        <AlertsBell />
        <SyncButton />
      </>,
    );
    await screen.findByRole('button', { name: 'Alerts' });
    await waitFor(() => expect(api.to('/api/v1/rules/get_alerts')).toHaveLength(1));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sync now' }));
    await waitFor(() => expect(api.to('/api/v1/rules/get_alerts')).toHaveLength(2));
  });

  it("announces the coach's unread weekly reviews beside the alerts, each linking to its week", async () => {
    fakeApi({
      ...alertRoutes(ALERTS),
      [GET_WEEKS]: () =>
        ok(weeksBody([weekItem(), weekItem({ week: '2026-W46', readAt: '2026-11-16T08:00:00.000Z' })])),
    });
    renderWithProviders(<AlertsBell />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Alerts, 3 unread' }));
    const weeks = within(screen.getByLabelText('Alerts panel')).getByRole('list', { name: 'Weekly reviews' });
    const links = within(weeks).getAllByRole('link');
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveTextContent('Your weekly review of 2026-W47 is ready');
    expect(links[0]).toHaveAttribute('href', '/coach/weekly_reviews?week=2026-W47');
  });

  it('keeps the rule alerts when the weekly reviews cannot be read', async () => {
    fakeApi({ ...alertRoutes(ALERTS), [GET_WEEKS]: () => failure(500, 'Coach unavailable') });
    renderWithProviders(<AlertsBell />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Alerts, 2 unread' }));
    expect(within(screen.getByLabelText('Alerts panel')).queryByRole('list', { name: 'Weekly reviews' })).toBeNull();
  });
});
