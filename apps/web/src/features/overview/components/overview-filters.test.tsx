import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { accountItem, type AccountItem, type TagFacts } from '@pipsense/contract';
import { fakeApi, ok } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { GET_PLAYBOOKS, playbook, playbooksBody } from '../../../test/playbook-fixtures';
import { METRICS, metricsBody, tradedMetrics } from '../test/overview-fixtures';
import { OverviewPage } from './overview-page';

vi.mock('lightweight-charts', () => import('../../../test/lightweight-charts-fake'));

const TAGS = [
  { id: 't-breakout', name: 'Breakout', kind: 'setup', trades: 6 },
  { id: 't-range', name: 'Range fade', kind: 'setup', trades: 3 },
  { id: 't-fomo', name: 'FOMO', kind: 'mistake', trades: 2 },
].map((t) => ({ ...t, createdAt: '2025-10-01T00:00:00.000Z', updatedAt: '2025-10-01T00:00:00.000Z' }));

const account = (oandaAccountId: string, alias: string | null): AccountItem =>
  accountItem.parse({
    ...Object.fromEntries(Object.keys(accountItem.shape).map((k) => [k, null])),
    id: `acc-${oandaAccountId}`,
    userId: 'u1',
    version: 1,
    oandaAccountId,
    platform: 'oanda',
    login: oandaAccountId,
    server: 'fxpractice',
    mode: 'demo',
    alias,
    syncedAt: '2025-10-01T00:00:00.000Z',
    createdAt: '2025-10-01T00:00:00.000Z',
    updatedAt: '2025-10-01T00:00:00.000Z',
  });

const BY_TAG: TagFacts[] = [
  {
    tagId: 't-fomo',
    name: 'FOMO',
    kind: 'mistake',
    trades: 2,
    winRate: 0,
    netPL: -85.5,
    expectancy: -42.75,
    averageR: -1.2,
    withInitialStop: 1,
  },
  {
    tagId: 't-breakout',
    name: 'Breakout',
    kind: 'setup',
    trades: 6,
    winRate: 66.7,
    netPL: 140,
    expectancy: 23.33,
    averageR: 0.85,
    withInitialStop: 6,
  },
  {
    tagId: 't-range',
    name: 'Range fade',
    kind: 'setup',
    trades: 3,
    winRate: 33.3,
    netPL: -12,
    expectancy: -4,
    averageR: null,
    withInitialStop: 0,
  },
];

function Where() {
  return <output data-testid="where">{useLocation().search}</output>;
}

function setup(path = '/overview') {
  const metrics = tradedMetrics();
  metrics.byTag = BY_TAG;
  const api = fakeApi({
    [METRICS]: () => ok(metricsBody(metrics)),
    'GET /api/v1/journal/get_tags': () => ok({ success: true, message: 'Tags', data: TAGS }),
    [GET_PLAYBOOKS]: () => ok(playbooksBody([playbook()])),
    'GET /api/v1/account/get_accounts': () =>
      ok({
        success: true,
        message: 'Accounts',
        data: [account('101-001', 'Swing'), account('101-002', null)],
        pages: 1,
        total: 2,
      }),
  });
  renderWithProviders(
    <Routes>
      <Route
        path="/overview"
        element={
          <>
            <OverviewPage />
            <Where />
          </>
        }
      />
    </Routes>,
    { path },
  );
  return api;
}

const lastMetrics = (api: ReturnType<typeof setup>) => api.to(METRICS).at(-1)!.search;
const monthStart = () => {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), 1).toISOString();
};

beforeEach(() => localStorage.setItem('token', JSON.stringify('test-token')));

describe('Overview filters', () => {
  it('sends the filters of a bookmarked URL as the metrics query', async () => {
    const api = setup('/overview?range=this-month&account=101-002&instrument=EUR_USD&tag=t-breakout&tag=t-fomo');
    await screen.findByRole('region', { name: 'Total Trades' });
    const search = lastMetrics(api);
    expect(search.get('from')).toBe(monthStart());
    expect(search.has('to')).toBe(false);
    expect(search.get('accountId')).toBe('101-002');
    expect(search.get('instrument')).toBe('EUR_USD');
    expect(search.getAll('tag')).toEqual(['t-breakout', 't-fomo']);
    expect(search.get('timeZone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);

    expect(screen.getByLabelText('Date range')).toHaveValue('this-month');
    await waitFor(() => expect(screen.getByLabelText('Account')).toHaveValue('101-002'));
    expect(screen.getByLabelText('Instrument')).toHaveValue('EUR_USD');
    const chips = within(await screen.findByRole('list', { name: 'Tag filters (any of them)' }));
    expect(chips.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Breakout', 'FOMO']);
  });

  it('asks again on each change, keeps the choice in the URL, and clears it all', async () => {
    const api = setup();
    const user = userEvent.setup();
    await screen.findByRole('region', { name: 'Total Trades' });
    expect([...lastMetrics(api).keys()]).toEqual(['timeZone']);

    await user.selectOptions(screen.getByLabelText('Date range'), 'year-to-date');
    await waitFor(() =>
      expect(lastMetrics(api).get('from')).toBe(new Date(new Date().getFullYear(), 0, 1).toISOString()),
    );
    expect(screen.getByTestId('where')).toHaveTextContent('?range=year-to-date');

    await screen.findByRole('option', { name: 'Swing · 101-001 (demo)' });
    await user.selectOptions(screen.getByLabelText('Account'), '101-001');
    await waitFor(() => expect(lastMetrics(api).get('accountId')).toBe('101-001'));
    await user.selectOptions(screen.getByLabelText('Instrument'), 'USD_JPY');
    await waitFor(() => expect(lastMetrics(api).get('instrument')).toBe('USD_JPY'));
    await user.selectOptions(screen.getByLabelText('Add a tag filter'), 'Range fade');
    await waitFor(() => expect(lastMetrics(api).getAll('tag')).toEqual(['t-range']));
    expect(screen.getByTestId('where')).toHaveTextContent(
      '?range=year-to-date&account=101-001&instrument=USD_JPY&tag=t-range',
    );

    await user.click(screen.getByRole('button', { name: 'Remove the tag filter Range fade' }));
    await waitFor(() => expect(lastMetrics(api).has('tag')).toBe(false));
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect([...lastMetrics(api).keys()]).toEqual(['timeZone']));
    expect(screen.getByTestId('where')).toHaveTextContent(/^$/);
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
  });

  it('slices by rule breaks from the select and from a bookmarked URL', async () => {
    const api = setup('/overview?ruleBreak=false');
    const user = userEvent.setup();
    await screen.findByRole('region', { name: 'Total Trades' });
    expect(lastMetrics(api).get('ruleBreak')).toBe('false');
    const select = screen.getByLabelText('Rule breaks');
    expect(select).toHaveValue('false');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Rule breaks: all', 'Broke a rule', 'Kept the rules']);
    await user.selectOptions(select, 'Broke a rule');
    await waitFor(() => expect(lastMetrics(api).get('ruleBreak')).toBe('true'));
    expect(screen.getByTestId('where')).toHaveTextContent('?ruleBreak=true');
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(lastMetrics(api).has('ruleBreak')).toBe(false));
    expect(screen.getByLabelText('Rule breaks')).toHaveValue('');
  });

  it('slices by playbook and by its review, apart from the rule breaks, kept in the URL', async () => {
    const api = setup('/overview?review=broke');
    const user = userEvent.setup();
    await screen.findByRole('region', { name: 'Total Trades' });
    expect(lastMetrics(api).get('playbookReview')).toBe('broke');
    expect(screen.getByLabelText('Playbook review')).toHaveValue('broke');
    const playbooks = screen.getByLabelText('Playbook');
    await waitFor(() => expect(within(playbooks).getByRole('option', { name: 'London breakout' })).toBeInTheDocument());
    await user.selectOptions(playbooks, 'London breakout');
    await waitFor(() => expect(lastMetrics(api).get('playbookId')).toBe('pb-1'));
    expect(lastMetrics(api).has('ruleBreak')).toBe(false);
    expect(screen.getByTestId('where')).toHaveTextContent('?playbook=pb-1&review=broke');
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(lastMetrics(api).has('playbookId')).toBe(false));
    expect(lastMetrics(api).has('playbookReview')).toBe(false);
  });

  it('sends a custom range as whole days and refuses an inverted one without asking', async () => {
    const api = setup('/overview?from=2025-10-01&to=2025-10-31');
    await screen.findByRole('region', { name: 'Total Trades' });
    expect(lastMetrics(api).get('from')).toBe(new Date(2025, 9, 1).toISOString());
    expect(lastMetrics(api).get('to')).toBe(new Date(2025, 9, 31, 23, 59, 59, 999).toISOString());
    expect(screen.getByLabelText('Date range')).toHaveValue('custom');

    const calls = api.to(METRICS).length;
    fireEvent.change(screen.getByLabelText('From date'), { target: { value: '2025-11-15' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('The start date must not be after the end date.');
    expect(api.to(METRICS)).toHaveLength(calls);
    expect(screen.getByTestId('where')).toHaveTextContent('?from=2025-11-15&to=2025-10-31');
    // The last good slice stays on screen.
    expect(screen.getByRole('region', { name: 'Total Trades' })).toBeInTheDocument();
  });

  it('breaks results down by tag, setups best first and mistakes apart, and slices by a tag on click', async () => {
    const api = setup();
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Results by tag' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Setups · Best paying first'],
      ['Breakout', '6', '66.7%', '+140.00', '+23.33', '+0.85 R'],
      ['Range fade', '3', '33.3%', '-12.00', '-4.00', '-0 of 3 with a stop'],
      ['Mistakes · Costliest first'],
      ['FOMO', '2', '0.0%', '-85.50', '-42.75', '-1.20 R1 of 2 with a stop'],
    ]);

    await user.click(within(table).getByRole('button', { name: 'FOMO' }));
    await waitFor(() => expect(lastMetrics(api).getAll('tag')).toEqual(['t-fomo']));
    expect(screen.getByTestId('where')).toHaveTextContent('?tag=t-fomo');
  });

  it('says how to fill the breakdown when no trade is tagged', async () => {
    fakeApi({ [METRICS]: () => ok(metricsBody(tradedMetrics())) });
    renderWithProviders(<OverviewPage />);
    expect(await screen.findByText(/No tagged trades here yet/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'manage your tags' })).toHaveAttribute('href', '/journal/tags');
  });
});
