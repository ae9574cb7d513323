import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { accountMoneyPath, paths } from '../../../config/paths';
import { deferred, failure, fakeApi, type Reply } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import {
  account,
  accountPage,
  CASH_FLOWS,
  cashFlow,
  cashFlowsBody,
  dailyPoints,
  HISTORY,
  historyBody,
  point,
  RETURNS,
  returnsBody,
} from '../test-fixtures';
import { AccountMoneyPage } from './account-money-page';
import { charts, resetCharts } from '../../../test/lightweight-charts-fake';

vi.mock('lightweight-charts', () => import('../../../test/lightweight-charts-fake'));

const ACCOUNTS = '/api/v1/account/get_accounts';
const OANDA_ID = '101-004-27183640-001';
const MT_KEY = 'metatrader:ICMarketsSC-Demo:51234567';

const region = (name: string) => screen.getByRole('region', { name });
const rows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
/** A cash flow's time: the local date over the local time. */
const local = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(Date.parse(iso)) +
  new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(Date.parse(iso));
const lastSeries = (title: string) => charts.series.findLast((s) => s.title === title)!;

function renderPage(accountId = OANDA_ID) {
  return renderWithProviders(
    <Routes>
      <Route path={paths.accountMoney} element={<AccountMoneyPage />} />
      <Route path={paths.accounts} element={<p>Accounts screen</p>} />
    </Routes>,
    { path: accountMoneyPath(accountId) },
  );
}

/** A January of deposits and trades (docs/money.md's worked example) and its history. */
const JANUARY = {
  flows: [
    cashFlow({ time: '2025-01-02T09:00:00.000000000Z', amount: '10000.0000', comment: 'Initial funding' }),
    cashFlow({ time: '2025-01-10T09:00:00.000000000Z', amount: '5000.0000' }),
    cashFlow({ time: '2025-01-20T09:00:00.000000000Z', type: 'withdrawal', amount: '-2000.0000' }),
  ],
  points: [
    point('2025-01-02T09:00:00.000Z', '10000.0000'),
    point('2025-01-05T12:00:00.000Z', '10500.0000', '10480.1200'),
    point('2025-01-10T09:00:00.000Z', '15500.0000', null),
    point('2025-01-15T16:00:00.000Z', '15190.0000', '15190.0000'),
  ],
};

function januaryApi(overrides: Record<string, (call: { search: URLSearchParams }) => Reply | Promise<Reply>> = {}) {
  return fakeApi({
    [ACCOUNTS]: () => ({ body: accountPage([account()]) }),
    [CASH_FLOWS]: () => ({ body: cashFlowsBody(JANUARY.flows) }),
    [HISTORY]: () => ({ body: historyBody(JANUARY.points) }),
    [RETURNS]: ({ search }) => ({
      body:
        search.get('period') === 'day'
          ? returnsBody('8.0450', [
              ['2025-01-02T00:00:00.000Z', '0.0000'],
              ['2025-01-05T00:00:00.000Z', '5.0000'],
            ])
          : returnsBody('8.0450', [
              ['2024-12-01T00:00:00.000Z', '-1.2000'],
              ['2025-01-01T00:00:00.000Z', '8.0450'],
            ]),
    }),
    ...overrides,
  });
}

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('test-token'));
  resetCharts();
});

describe('AccountMoneyPage', () => {
  it('titles the page with the account and shows its returns, balance and equity, and cash flows', async () => {
    const api = januaryApi();
    renderPage();

    expect(await screen.findByRole('heading', { name: `Primary · ${OANDA_ID} · USD` })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to accounts' })).toHaveAttribute('href', paths.accounts);

    const returns = region('Returns');
    const total = await within(returns).findByText('Time-weighted return since the first deposit or trade');
    expect(total.nextElementSibling).toHaveTextContent('+8.05 %');
    expect(total.nextElementSibling).toHaveClass('text-success');
    expect(returns).toHaveTextContent('Deposits and withdrawals are not counted as performance');
    const monthly = within(returns).getByRole('table', { name: 'Returns by month' });
    const monthName = (iso: string) =>
      new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.parse(iso));
    // Newest first; each period named in UTC, where it starts.
    expect(rows(monthly)).toEqual([
      [monthName('2025-01-01T00:00:00.000Z'), '+8.05 %'],
      [monthName('2024-12-01T00:00:00.000Z'), '-1.20 %'],
    ]);
    expect(within(monthly).getByText('-1.20 %')).toHaveClass('text-danger');
    expect(api.to(RETURNS)[0]!.search.get('accountId')).toBe(OANDA_ID);

    const flows = region('Deposits and withdrawals');
    const table = await within(flows).findByRole('table', { name: 'Cash flows' });
    expect(rows(table)).toEqual([
      [local('2025-01-20T09:00:00.000000000Z'), 'Withdrawal', '-2,000.00 USD', '-'],
      [local('2025-01-10T09:00:00.000000000Z'), 'Deposit', '+5,000.00 USD', '-'],
      [local('2025-01-02T09:00:00.000000000Z'), 'Deposit', '+10,000.00 USD', 'Initial funding'],
    ]);
    const sum = (label: string) => within(flows).getByText(label, { selector: 'dt' }).nextElementSibling;
    expect(sum('Deposits')).toHaveTextContent('+15,000.00 USD');
    expect(sum('Withdrawals')).toHaveTextContent('-2,000.00 USD');
    expect(api.to(CASH_FLOWS)[0]!.search.get('accountId')).toBe(OANDA_ID);

    const chart = await within(region('Balance and equity')).findByRole('img', {
      name: /^Balance and equity over time/,
    });
    expect(chart.getAttribute('aria-label')).toContain('balance ending at 15,190.00 USD');
    expect(lastSeries('Balance').data).toHaveLength(4);
    expect(api.to(/get_balance_history/)[0]!.path).toBe(`/api/v1/money/get_balance_history/${OANDA_ID}`);
  });

  it('leaves a gap in the equity line where equity is not known, and says it is being rebuilt', async () => {
    januaryApi();
    renderPage();
    const balance = region('Balance and equity');
    expect(
      await within(balance).findByText(
        'Equity is still being rebuilt from candles; the chart fills in as it completes.',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(lastSeries('Equity').data).toHaveLength(4));
    const equity = lastSeries('Equity').data as { time: number; value?: number; color?: string }[];
    expect(equity.map((p) => p.value)).toEqual([10000, 10480.12, undefined, 15190]);
    // The gap is a time without a value (lightweight-charts' whitespace), never a value made up in between, and the
    // segment the library would draw across it, from the last known point, is transparent.
    expect(equity[2]).not.toHaveProperty('value');
    expect(equity.map((p) => p.color)).toEqual([undefined, 'transparent', undefined, undefined]);
    expect((lastSeries('Balance').data as { value: number }[]).map((p) => p.value)).toEqual([
      10000, 10500, 15500, 15190,
    ]);
  });

  it('says equity is unknown for an account without a candle source (a MetaTrader import)', async () => {
    const mt = account({
      platform: 'metatrader',
      oandaAccountId: MT_KEY,
      login: '51234567',
      server: 'ICMarketsSC-Demo',
      alias: null,
      currency: 'EUR',
    });
    const api = januaryApi({
      [ACCOUNTS]: () => ({ body: accountPage([mt]) }),
      [HISTORY]: () => ({
        body: historyBody(
          [
            point('2025-01-02T09:00:00.000Z', '10000.0000', null),
            point('2025-01-05T12:00:00.000Z', '10500.0000', null),
          ],
          'EUR',
        ),
      }),
    });
    renderPage(MT_KEY);

    expect(await screen.findByRole('heading', { name: '51234567 · EUR' })).toBeInTheDocument();
    expect(api.to(ACCOUNTS)[0]!.search.get('platform')).toBe('metatrader');
    const balance = region('Balance and equity');
    expect(
      await within(balance).findByText('Equity between closes is unknown for this account: it has no candle source.'),
    ).toBeInTheDocument();
    expect(within(balance).getByText('Equity', { selector: 'dt' }).nextElementSibling).toHaveTextContent('-');
    expect(api.to(/get_balance_history/)[0]!.path).toBe(
      `/api/v1/money/get_balance_history/${encodeURIComponent(MT_KEY)}`,
    );
    expect(api.to(CASH_FLOWS)[0]!.search.get('accountId')).toBe(MT_KEY);
  });

  it('draws a short history at each booking and a long one a point a day, and lets the trader choose', async () => {
    let days = 30;
    const api = januaryApi({
      [HISTORY]: ({ search }) => ({
        body: historyBody(search.get('resolution') === 'day' ? dailyPoints(days) : JANUARY.points),
      }),
    });
    const user = userEvent.setup();
    const { unmount } = renderPage();
    const pressed = () =>
      within(region('Balance and equity'))
        .getAllByRole('button', { pressed: true })
        .map((b) => b.textContent);
    await waitFor(() => expect(pressed()).toEqual(['Each booking']));
    await waitFor(() => expect(lastSeries('Balance').data).toHaveLength(4));
    expect(api.to(/get_balance_history/).map((c) => c.search.get('resolution'))).toEqual(['day', 'trade']);

    await user.click(within(region('Balance and equity')).getByRole('button', { name: 'Hourly' }));
    await waitFor(() =>
      expect(
        api
          .to(/get_balance_history/)
          .at(-1)!
          .search.get('resolution'),
      ).toBe('hour'),
    );
    expect(pressed()).toEqual(['Hourly']);
    unmount();

    days = 400;
    api.calls.length = 0;
    renderPage();
    await waitFor(() => expect(lastSeries('Balance').data).toHaveLength(400));
    expect(pressed()).toEqual(['Daily']);
    expect(api.to(/get_balance_history/).map((c) => c.search.get('resolution'))).toEqual(['day']);
  });

  it('switches the return period between day, month and year', async () => {
    const api = januaryApi();
    const user = userEvent.setup();
    renderPage();
    const returns = region('Returns');
    await within(returns).findByRole('table', { name: 'Returns by month' });
    expect(within(returns).getByRole('button', { name: 'Month' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(within(returns).getByRole('button', { name: 'Day' }));
    const daily = await within(returns).findByRole('table', { name: 'Returns by day' });
    const day = (iso: string) =>
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.parse(iso));
    expect(rows(daily)).toEqual([
      [day('2025-01-05T00:00:00.000Z'), '+5.00 %'],
      [day('2025-01-02T00:00:00.000Z'), '0.00 %'],
    ]);
    expect(within(returns).getByRole('button', { name: 'Day' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.to(RETURNS).map((c) => c.search.get('period'))).toEqual(['month', 'day']);
  });

  it('says when no deposits or withdrawals are recorded', async () => {
    januaryApi({ [CASH_FLOWS]: () => ({ body: cashFlowsBody([]) }) });
    renderPage();
    expect(
      await within(region('Deposits and withdrawals')).findByText(
        'No deposits or withdrawals recorded for this account.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Cash flows' })).not.toBeInTheDocument();
  });

  it('lists daily financing only when asked, with its own total', async () => {
    januaryApi({
      [CASH_FLOWS]: () => ({
        // Oldest first, as the server sends them.
        body: cashFlowsBody([
          JANUARY.flows[0]!,
          cashFlow({ time: '2025-01-03T21:00:00.000000000Z', type: 'financing', amount: '-1.2345' }),
          cashFlow({ time: '2025-01-04T21:00:00.000000000Z', type: 'financing', amount: '-0.7655' }),
          ...JANUARY.flows.slice(1),
        ]),
      }),
    });
    const user = userEvent.setup();
    renderPage();
    const flows = region('Deposits and withdrawals');
    const table = await within(flows).findByRole('table', { name: 'Cash flows' });
    expect(rows(table)).toHaveLength(3);
    expect(within(flows).getByText('Financing', { selector: 'dt' }).nextElementSibling).toHaveTextContent('-2.00 USD');

    await user.click(within(flows).getByRole('checkbox', { name: 'Show daily financing (2)' }));
    expect(rows(within(flows).getByRole('table', { name: 'Cash flows' })).map((r) => r[1])).toEqual([
      'Withdrawal',
      'Deposit',
      'Financing',
      'Financing',
      'Deposit',
    ]);
  });

  it("shows spinners while loading and the server's message when a call fails", async () => {
    const history = deferred<Reply>();
    januaryApi({
      [RETURNS]: () => failure(404, 'No account 101-004-27183640-001 of yours'),
      [HISTORY]: () => history.promise,
    });
    renderPage();
    expect(await screen.findByRole('status', { name: 'Loading balance history' })).toBeInTheDocument();

    const returns = region('Returns');
    expect(await within(returns).findByRole('alert')).toHaveTextContent('Your returns could not be loaded');
    expect(within(returns).getByRole('alert')).toHaveTextContent('No account 101-004-27183640-001 of yours');
    expect(within(returns).getByRole('button', { name: 'Try again' })).toBeInTheDocument();

    history.resolve({ body: historyBody(JANUARY.points) });
    expect(await within(region('Balance and equity')).findByRole('img')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading balance history' })).not.toBeInTheDocument();
  });

  it('titles the page from the link without looking the account up', async () => {
    const api = januaryApi();
    renderWithProviders(
      <Routes>
        <Route path={paths.accountMoney} element={<AccountMoneyPage />} />
      </Routes>,
      { path: accountMoneyPath(OANDA_ID), state: { account: account({ alias: 'From the table' }) } },
    );
    expect(await screen.findByRole('heading', { name: `From the table · ${OANDA_ID} · USD` })).toBeInTheDocument();
    expect(api.to(ACCOUNTS)).toHaveLength(0);
  });
});
