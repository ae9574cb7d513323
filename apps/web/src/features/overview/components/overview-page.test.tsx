import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { deferred, errorBody, fakeApi, type Reply } from '../../../test/fake-api';
import { GET_INFO, metaTraderInfoBody, oandaInfoBody } from '../../../test/info-fixtures';
import { charts, resetCharts } from '../../../test/lightweight-charts-fake';
import { renderWithProviders } from '../../../test/render';
import { INSIGHTS_POLL_MS } from '../api/dashboard-metrics-api';
import { emptyMetrics, METRICS, metricsBody, tradedMetrics } from '../test/overview-fixtures';
import { OverviewPage } from './overview-page';

vi.mock('lightweight-charts', () => import('../../../test/lightweight-charts-fake'));

const SPEC_CARDS = [
  'Total Trades',
  'Total Accounts',
  'Win / Loss Ratio',
  'Top Instrument',
  'Avg Holding Time',
  'Weekly Trades',
  'Performance Summary',
  'AI Insights',
  'Behavioral Analysis',
  'Risk Assessment',
  'Quick Wins',
  'Long Term Strategy',
  'Performance Metrics',
  'Trading Profile',
  'Instrument Breakdown',
];

const ACCOUNTS = '/api/v1/account/get_accounts';
const card = (title: string) => screen.getByRole('region', { name: title });
const cardValue = (title: string) => card(title).querySelector('.metric-card-value')!.textContent;

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('test-token'));
  resetCharts();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('OverviewPage', () => {
  it("shows 'Dashboard – OANDA' and every card, asking with the browser's time zone and the bearer token", async () => {
    const api = fakeApi({ [METRICS]: () => ({ body: metricsBody(tradedMetrics()) }) });
    renderWithProviders(<OverviewPage />);

    expect(await screen.findByRole('heading', { name: 'Dashboard – OANDA' })).toBeInTheDocument();
    await screen.findByRole('region', { name: 'Total Trades' });
    for (const title of SPEC_CARDS) expect(card(title)).toBeInTheDocument();

    expect(cardValue('Total Trades')).toBe('7');
    expect(cardValue('Total Accounts')).toBe('2');
    expect(cardValue('Win / Loss Ratio')).toBe('66.7% / 33.3%');
    expect(cardValue('Top Instrument')).toBe('EUR/USD');
    expect(cardValue('Avg Holding Time')).toBe('3h 12m');
    expect(cardValue('Weekly Trades')).toBe('4');
    expect(cardValue('Performance Summary')).toContain('6 closed with a 66.7% win rate');
    expect(within(card('Quick Wins')).getAllByRole('listitem')).toHaveLength(2);
    expect(within(card('Performance Metrics')).getByText('Profit Factor').nextSibling).toHaveTextContent('2.58');
    expect(within(card('Instrument Breakdown')).getByRole('region', { name: 'USD/JPY' })).toHaveTextContent(
      'Net P/L-25.00 USD',
    );
    expect(screen.getByText('Insights by OpenAI (gpt-4o)')).toBeInTheDocument();
    expect(screen.getByText(/^Data as of /)).toBeInTheDocument();
    expect(screen.queryByText('No trades yet')).not.toBeInTheDocument();

    const [call] = api.to(METRICS);
    expect(call!.search.get('timeZone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(call!.search.has('mode')).toBe(false);
    expect(call!.headers.Authorization).toBe('Bearer test-token');
    expect(api.to(METRICS)).toHaveLength(1);
  });

  it('charts the equity curve with its drawdown, the weekdays and hours, and lists P/L by instrument', async () => {
    fakeApi({ [METRICS]: () => ({ body: metricsBody(tradedMetrics()) }) });
    renderWithProviders(<OverviewPage />);
    await screen.findByRole('img', { name: /Equity curve of closed trades, ending at \+95\.00/ });

    const [equity, weekday, hour] = charts.created;
    expect(equity!.series.map((s) => [s.type, s.pane, s.data.length])).toEqual([
      ['Baseline', 0, 4],
      ['Baseline', 1, 4],
    ]);
    expect(weekday!.series.map((s) => [s.type, s.data.length])).toEqual([['Histogram', 7]]);
    expect(hour!.series.map((s) => [s.type, s.data.length])).toEqual([['Histogram', 24]]);
    // The weekday axis prints day names, not the stand-in dates.
    const tickLabel = (weekday!.options.timeScale as { tickMarkFormatter: (time: number) => string }).tickMarkFormatter;
    const times = weekday!.series[0]!.data.map((bar) => bar.time);
    expect(times.map((time) => tickLabel(time))).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);

    expect(screen.getByText('Max drawdown').nextSibling).toHaveTextContent('-60.00');
    const bars = within(screen.getByRole('list', { name: 'Net P/L by instrument' })).getAllByRole('listitem');
    expect(bars.map((bar) => bar.textContent)).toEqual(['EUR/USD5 trades+120.00', 'USD/JPY2 trades-25.00']);
    expect(screen.getByText(/^Best Monday: \+120\.00 over 3 trades/)).toBeInTheDocument();
  });

  it('shows a spinner while the metrics load', async () => {
    const pending = deferred<Reply>();
    fakeApi({ [METRICS]: () => pending.promise });
    renderWithProviders(<OverviewPage />);

    const spinner = screen.getByRole('status', { name: 'Loading metrics' });
    expect(spinner.querySelector('.spinner-border')).not.toBeNull();
    expect(screen.queryByRole('region', { name: 'Total Trades' })).not.toBeInTheDocument();

    pending.resolve({ body: metricsBody(tradedMetrics()) });
    await screen.findByRole('region', { name: 'Total Trades' });
    expect(screen.queryByRole('status', { name: 'Loading metrics' })).not.toBeInTheDocument();
  });

  it("shows '-' for empty values and points to Settings and the Sync buttons when there are no trades", async () => {
    fakeApi({
      [METRICS]: () => ({ body: metricsBody(emptyMetrics()) }),
      [GET_INFO]: () => ({ body: oandaInfoBody('') }),
    });
    renderWithProviders(<OverviewPage />);

    expect(await screen.findByText('No trades yet')).toBeInTheDocument();
    for (const title of SPEC_CARDS.filter((t) => !['Total Trades', 'Total Accounts', 'Weekly Trades'].includes(t)))
      expect(cardValue(title), title).toBe('-');
    expect(cardValue('Total Trades')).toBe('0');
    expect(await screen.findByRole('link', { name: 'Open Trading Platforms' })).toHaveAttribute(
      'href',
      '/settings/trading_platforms',
    );
    expect(screen.getByRole('link', { name: 'Open Trades' })).toHaveAttribute('href', '/trades/all_trades');
    expect(screen.getByRole('link', { name: 'Open Accounts' })).toHaveAttribute('href', '/accounts/my_accounts');
    expect(screen.getByText('No closed trades yet: the curve starts with the first closed trade.')).toBeInTheDocument();
    expect(screen.getByText('Built-in analysis')).toBeInTheDocument();
    expect(screen.getByText('Nothing synced yet')).toBeInTheDocument();
    expect(charts.created).toHaveLength(0);
  });

  it('marks the OANDA step done when a token is saved, leaving the Sync buttons', async () => {
    fakeApi({
      [METRICS]: () => ({ body: metricsBody(emptyMetrics()) }),
      [GET_INFO]: () => ({ body: oandaInfoBody('••••4f2a') }),
    });
    renderWithProviders(<OverviewPage />);
    expect(await screen.findByText('Done')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Open Trading Platforms' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open Trades' })).toBeInTheDocument();
  });

  it('switches to MetaTrader (platform=metatrader, Import when empty), to TradeView without a request, and back to OANDA from a fresh load', async () => {
    const reload = deferred<Reply>();
    let calls = 0;
    const api = fakeApi({
      [METRICS]: ({ search }) =>
        search.get('platform') === 'metatrader'
          ? { body: metricsBody(emptyMetrics()) }
          : ++calls === 1
            ? { body: metricsBody(tradedMetrics()) }
            : reload.promise,
    });
    const user = userEvent.setup();
    renderWithProviders(<OverviewPage />);
    await screen.findByRole('region', { name: 'Total Trades' });
    expect(api.to(METRICS)[0]!.search.has('platform')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Trading platform: OANDA' }));
    await user.click(screen.getByRole('button', { name: /MetaTrader/ }));
    expect(screen.getByRole('heading', { name: 'Dashboard – MetaTrader' })).toBeInTheDocument();
    expect(await screen.findByText('No MetaTrader trades yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Import' })).toHaveAttribute('href', '/trades/import');
    expect(api.to(METRICS)).toHaveLength(2);
    expect(api.to(METRICS)[1]!.search.get('platform')).toBe('metatrader');
    expect(api.to(ACCOUNTS).at(-1)!.search.get('platform')).toBe('metatrader');

    await user.click(screen.getByRole('button', { name: 'Trading platform: MetaTrader' }));
    await user.click(screen.getByRole('button', { name: /TradeView/ }));
    expect(screen.getByText('TradeView is not connected')).toBeInTheDocument();
    expect(api.to(METRICS)).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Show OANDA analytics' }));
    expect(screen.getByRole('heading', { name: 'Dashboard – OANDA' })).toBeInTheDocument();
    // Cleared on the switch: the spinner shows, not the numbers from before.
    expect(screen.getByRole('status', { name: 'Loading metrics' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Total Trades' })).not.toBeInTheDocument();
    reload.resolve({ body: metricsBody(tradedMetrics()) });
    await screen.findByRole('region', { name: 'Total Trades' });
    expect(api.to(METRICS)).toHaveLength(3);
    expect(api.to(METRICS)[2]!.search.has('platform')).toBe(false);
  });

  it("opens on the trader's default platform (MetaTrader) once get_info answers, without OANDA's 'No trades yet'", async () => {
    const info = deferred<Reply>();
    const api = fakeApi({
      [GET_INFO]: () => info.promise,
      [METRICS]: () => ({ body: metricsBody(tradedMetrics()) }),
    });
    renderWithProviders(<OverviewPage />);
    expect(await screen.findByRole('status', { name: 'Loading metrics' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Dashboard – OANDA' })).not.toBeInTheDocument();
    expect(api.to(METRICS)).toHaveLength(0);

    info.resolve({ body: metaTraderInfoBody() });
    expect(await screen.findByRole('heading', { name: 'Dashboard – MetaTrader' })).toBeInTheDocument();
    await screen.findByRole('region', { name: 'Total Trades' });
    expect(api.to(METRICS).map((c) => c.search.get('platform'))).toEqual(['metatrader']);
    expect(screen.queryByText('No trades yet')).not.toBeInTheDocument();
    expect(screen.queryByText('Connect OANDA first')).not.toBeInTheDocument();
  });

  it('asks again while the AI insights are pending and stops once they are ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const pending = tradedMetrics();
    pending.insights = {
      source: 'builtin',
      status: 'pending',
      note: 'OpenAI (gpt-4o) is writing the insights.',
      model: null,
      writtenAt: null,
    };
    const answers = [pending, pending, tradedMetrics()];
    const api = fakeApi({ [METRICS]: () => ({ body: metricsBody(answers.shift() ?? tradedMetrics()) }) });
    renderWithProviders(<OverviewPage />);

    expect(await screen.findByText('OpenAI (gpt-4o) is writing the insights.')).toBeInTheDocument();
    expect(screen.getByText('Built-in analysis')).toBeInTheDocument();
    expect(api.to(METRICS)).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(INSIGHTS_POLL_MS));
    await waitFor(() => expect(api.to(METRICS)).toHaveLength(2));
    await act(() => vi.advanceTimersByTimeAsync(INSIGHTS_POLL_MS));
    expect(await screen.findByText('Insights by OpenAI (gpt-4o)')).toBeInTheDocument();
    expect(api.to(METRICS)).toHaveLength(3);
    expect(screen.queryByText('OpenAI (gpt-4o) is writing the insights.')).not.toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(INSIGHTS_POLL_MS * 3));
    expect(api.to(METRICS)).toHaveLength(3);
  });

  it("says the built-in analysis stands in, with the provider's note, after a provider failure", async () => {
    const fallback = tradedMetrics();
    fallback.insights = {
      source: 'builtin',
      status: 'fallback',
      note: 'OpenAI did not answer in time; the built-in analysis is shown.',
      model: null,
      writtenAt: null,
    };
    const api = fakeApi({ [METRICS]: () => ({ body: metricsBody(fallback) }) });
    renderWithProviders(<OverviewPage />);
    expect(
      await screen.findByText('OpenAI did not answer in time; the built-in analysis is shown.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Built-in analysis')).toBeInTheDocument();
    expect(api.to(METRICS)).toHaveLength(1);
  });

  it('toasts a failed fetch, shows it in place and loads on Try again', async () => {
    let fail = true;
    const message = 'The metrics could not be computed right now. Try again in a minute.';
    const api = fakeApi({
      [METRICS]: () =>
        fail ? { status: 500, body: errorBody(message, 'INTERNAL') } : { body: metricsBody(tradedMetrics()) },
    });
    const user = userEvent.setup();
    renderWithProviders(<OverviewPage />);

    expect(await screen.findByText('Your overview could not be loaded')).toBeInTheDocument();
    // docs/PRODUCT.md, Messages: an error toast with the failure message, and the same message in place.
    await waitFor(() => expect(screen.getAllByText(message)).toHaveLength(2));
    expect(document.querySelector('.Toastify__toast--error')).toHaveTextContent(message);

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('region', { name: 'Total Trades' });
    expect(api.to(METRICS)).toHaveLength(2);
  });

  it('points to Settings → Trading Platforms when the server says OANDA is not configured', async () => {
    const message = 'Connect your OANDA account in Settings → Trading Platforms first.';
    fakeApi({ [METRICS]: () => ({ status: 400, body: errorBody(message, 'OANDA_NOT_CONFIGURED') }) });
    renderWithProviders(<OverviewPage />);
    expect(await screen.findByText('Connect OANDA first')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Settings → Trading Platforms' })).toHaveAttribute(
      'href',
      '/settings/trading_platforms',
    );
  });
});
