import { describe, expect, it, vi, beforeEach } from 'vitest';
import { screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { candlesResponse, tradeSyncResponse } from '@pipsense/contract';
import { deferred, errorBody, fakeApi, type Reply } from '../../../test/fake-api';
import { GET_INFO, metaTraderInfoBody, oandaInfoBody } from '../../../test/info-fixtures';
import { SYNC_NOW, SYNC_STATUS, syncAt, syncStatus, syncStatusBody } from '../../../test/sync-status';
import { renderWithProviders } from '../../../test/render';
import { charts, resetCharts } from '../../../test/lightweight-charts-fake';
import { trade, tradePage } from '../test-fixtures';
import { TradesPage } from './trades-page';

vi.mock('lightweight-charts', () => import('../../../test/lightweight-charts-fake'));

const HISTORY = '/api/v1/trade/get_trade_history';
const SYNC = '/api/v1/trade/sync_trade';
const CANDLES = '/api/v1/trade/candles';

const table = () => screen.getByRole('table', { name: 'Trades' });
const bodyRows = () => within(table()).getAllByRole('row').slice(1);
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('test-token'));
  resetCharts();
});

describe('TradesPage', () => {
  it('lists trades with the spec columns, 5-decimal prices, 4-decimal P/L and coloured P/L', async () => {
    const api = fakeApi({
      [HISTORY]: () => ({
        body: tradePage([
          trade({
            tradeId: '5316',
            instrument: 'USD_JPY',
            price: '147.566',
            initialUnits: '-12000',
            currentUnits: '-12000',
            realizedPL: '0.0000',
            unrealizedPL: '-8.37055',
            state: 'OPEN',
            closeTime: null,
            averageClosePrice: null,
          }),
          trade({ price: '1.175505', realizedPL: '12.34', unrealizedPL: null }),
        ]),
      }),
    });
    renderWithProviders(<TradesPage />);

    expect(await screen.findByRole('heading', { name: 'OANDA Trades' })).toBeInTheDocument();
    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('5316'));
    const headers = within(table())
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    // The columns of docs/PRODUCT.md, Trade list, in order: the journal columns stay behind their switch.
    expect(headers).toEqual([
      'Trade ID',
      'Instrument',
      'Price',
      'Initial Units',
      'Current Units',
      'Realized P/L',
      'Unrealized P/L',
      'State',
      'Actions',
    ]);
    const [open, closed] = bodyRows();
    // Rounded half away from zero on the digits: -8.37055 → -8.3706, where Number#toFixed gives -8.3705.
    expect(cells(open!)).toEqual([
      '5316',
      'USD/JPY',
      '147.56600',
      '-12000',
      '-12000',
      '0.0000',
      '-8.3706',
      'Open',
      'View Trade',
    ]);
    expect(cells(closed!)).toEqual([
      '5253',
      'EUR/USD',
      '1.17551',
      '10000',
      '0',
      '12.3400',
      '-',
      'Closed',
      'View Trade',
    ]);
    expect(within(open!).getByText('-8.3706')).toHaveClass('text-danger');
    expect(within(closed!).getByText('12.3400')).toHaveClass('text-success');

    const [call] = api.to(HISTORY);
    expect(call!.search.get('page')).toBe('1');
    expect(call!.search.get('limit')).toBe('10');
    expect(call!.headers.Authorization).toBe('Bearer test-token');
  });

  it('shows placeholder rows and a loading status while the first page loads', async () => {
    const pending = deferred<Reply>();
    fakeApi({ [HISTORY]: () => pending.promise });
    renderWithProviders(<TradesPage />);

    expect(await screen.findByText('Loading trades')).toBeInTheDocument();
    expect(table()).toHaveAttribute('aria-busy', 'true');
    expect(within(table()).getAllByRole('row', { hidden: true })).toHaveLength(11);

    pending.resolve({ body: tradePage([trade()]) });
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(screen.queryByText('Loading trades')).not.toBeInTheDocument();
  });

  it('says No trades found for an empty history when OANDA is connected', async () => {
    fakeApi({
      [HISTORY]: () => ({ body: tradePage([], 1, 0) }),
      [GET_INFO]: () => ({ body: oandaInfoBody('••••4f2a') }),
    });
    renderWithProviders(<TradesPage />);
    expect(await screen.findByText('No trades found')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByText('Connect OANDA first')).not.toBeInTheDocument();
  });

  it('says to connect OANDA when the history is empty and no token is saved', async () => {
    fakeApi({ [HISTORY]: () => ({ body: tradePage([], 1, 0) }), [GET_INFO]: () => ({ body: oandaInfoBody('') }) });
    renderWithProviders(<TradesPage />);
    expect(await screen.findByText('Connect OANDA first')).toBeInTheDocument();
    expect(screen.getByText('Connect your OANDA account in Settings → Trading Platforms first.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Settings → Trading Platforms' })).toHaveAttribute(
      'href',
      '/settings/trading_platforms',
    );
    expect(screen.queryByText('No trades found')).not.toBeInTheDocument();
  });

  it('disables Prev on page 1 and Next on the last page, and asks for the page clicked', async () => {
    const api = fakeApi({
      [HISTORY]: ({ search }) => {
        const page = Number(search.get('page'));
        return { body: tradePage([trade({ tradeId: String(6000 - page) })], 3, 21) };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<TradesPage />);

    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('5999'));
    expect(screen.getByText('Prev')).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByText('Next')).not.toHaveAttribute('aria-disabled');
    expect(screen.getByText('Showing 1–1 of 21 trades')).toBeInTheDocument();

    await user.click(screen.getByText('Next'));
    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('5998'));
    expect(api.to(HISTORY).at(-1)!.search.get('page')).toBe('2');
    expect(screen.getByText('Prev')).not.toHaveAttribute('aria-disabled');

    await user.click(screen.getByRole('link', { name: 'Page 3' }));
    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('5997'));
    expect(api.to(HISTORY).at(-1)!.search.get('page')).toBe('3');
    expect(screen.getByText('Next')).toHaveAttribute('aria-disabled', 'true');

    // A click on the disabled Next asks for nothing.
    const before = api.to(HISTORY).length;
    await user.click(screen.getByText('Next'));
    expect(api.to(HISTORY)).toHaveLength(before);
  });

  it('shows not connected for TradeView without a request, and starts again at page 1 on OANDA', async () => {
    const api = fakeApi({
      [HISTORY]: ({ search }) => ({ body: tradePage([trade({ tradeId: `t${search.get('page')}` })], 2, 12) }),
    });
    const user = userEvent.setup();
    renderWithProviders(<TradesPage />);
    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('t1'));
    await user.click(screen.getByText('Next'));
    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('t2'));
    const requests = api.to(HISTORY).length;

    await user.click(screen.getByRole('button', { name: 'Trading platform: OANDA' }));
    await user.click(screen.getByRole('button', { name: /TradeView/ }));

    expect(screen.getByRole('heading', { name: 'TradeView Trades' })).toBeInTheDocument();
    expect(screen.getByText('TradeView is not connected')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sync trades' })).toBeDisabled();
    expect(api.to(HISTORY)).toHaveLength(requests);

    await user.click(screen.getByRole('button', { name: 'Trading platform: TradeView' }));
    await user.click(screen.getByRole('button', { name: 'OANDA' }));
    expect(screen.getByRole('heading', { name: 'OANDA Trades' })).toBeInTheDocument();
    // The list starts empty (placeholder rows), not with the rows shown before the switch.
    expect(screen.queryByText('t2')).not.toBeInTheDocument();
    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('t1'));
    expect(api.to(HISTORY).at(-1)!.search.get('page')).toBe('1');
  });

  it('reads MetaTrader trades with platform=metatrader, offers Import instead of Sync, and shows lots, commission and swap', async () => {
    const api = fakeApi({
      [HISTORY]: ({ search }) => ({
        body: tradePage(
          search.get('platform') === 'metatrader'
            ? [
                trade({
                  tradeId: '50123456',
                  accountId: 'metatrader:ICMarketsSC-Demo:51234567',
                  platform: 'metatrader',
                  symbol: 'EURUSD.m',
                  lots: '0.10',
                  initialUnits: '-10000',
                  commission: '-0.70',
                  swap: '-0.35',
                  financing: '-1.05',
                }),
              ]
            : [trade({ tradeId: 'oanda-1' })],
        ),
      }),
    });
    const user = userEvent.setup();
    renderWithProviders(<TradesPage />);
    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('oanda-1'));
    expect(api.to(HISTORY)[0]!.search.has('platform')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Trading platform: OANDA' }));
    await user.click(screen.getByRole('button', { name: /MetaTrader/ }));
    expect(screen.getByRole('heading', { name: 'MetaTrader Trades' })).toBeInTheDocument();
    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('50123456'));
    expect(api.to(HISTORY).at(-1)!.search.get('platform')).toBe('metatrader');
    expect(screen.queryByRole('button', { name: /Sync trades/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Import' })).toHaveAttribute('href', '/trades/import');

    await user.click(within(bodyRows()[0]!).getByRole('button', { name: /View/ }));
    const dialog = await screen.findByRole('dialog');
    const detail = (label: string) => within(dialog).getByText(label, { selector: 'dt' }).nextElementSibling;
    expect(detail('Symbol')).toHaveTextContent('EURUSD.m');
    expect(detail('Lots')).toHaveTextContent('0.10');
    expect(detail('Commission')).toHaveTextContent('-0.7000');
    expect(detail('Swap')).toHaveTextContent('-0.3500');
    expect(detail('Direction')).toHaveTextContent('Short');
  });

  it("opens on the trader's default platform (MetaTrader) once get_info answers, never on OANDA first", async () => {
    const info = deferred<Reply>();
    const api = fakeApi({
      [GET_INFO]: () => info.promise,
      [HISTORY]: () => ({ body: tradePage([trade({ tradeId: '50123456', platform: 'metatrader' })]) }),
    });
    renderWithProviders(<TradesPage />);
    // Until the default is known: a loading state, no platform's list and no 'Connect OANDA first'.
    expect(await screen.findByRole('status', { name: 'Loading trades' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'OANDA Trades' })).not.toBeInTheDocument();
    expect(api.to(HISTORY)).toHaveLength(0);

    info.resolve({ body: metaTraderInfoBody() });
    expect(await screen.findByRole('heading', { name: 'MetaTrader Trades' })).toBeInTheDocument();
    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('50123456'));
    expect(api.to(HISTORY).map((c) => c.search.get('platform'))).toEqual(['metatrader']);
    expect(screen.getByRole('button', { name: 'Trading platform: MetaTrader' })).toBeInTheDocument();
    expect(screen.queryByText('Connect OANDA first')).not.toBeInTheDocument();
  });

  it('opens on the platform a link names even when the default is another', async () => {
    const api = fakeApi({
      [GET_INFO]: () => ({ body: metaTraderInfoBody() }),
      [HISTORY]: () => ({ body: tradePage([trade()]) }),
    });
    renderWithProviders(<TradesPage />, { path: '/trades/all_trades', state: { platform: 'OANDA' } });
    expect(screen.getByRole('heading', { name: 'OANDA Trades' })).toBeInTheDocument();
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(api.to(HISTORY).map((c) => c.search.has('platform'))).toEqual([false]);
  });

  it('opens on MetaTrader when the link that led here says so (after an import)', async () => {
    const api = fakeApi({
      [HISTORY]: () => ({ body: tradePage([trade({ tradeId: '50123456', platform: 'metatrader' })]) }),
    });
    renderWithProviders(<TradesPage />, { path: '/trades/all_trades', state: { platform: 'MetaTrader' } });
    expect(screen.getByRole('heading', { name: 'MetaTrader Trades' })).toBeInTheDocument();
    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('50123456'));
    expect(api.to(HISTORY).map((c) => c.search.get('platform'))).toEqual(['metatrader']);
  });

  it("says 'No MetaTrader trades yet' with an Import button, not 'Connect OANDA first'", async () => {
    const api = fakeApi({ [HISTORY]: () => ({ body: tradePage([]) }) });
    const user = userEvent.setup();
    renderWithProviders(<TradesPage />);
    await user.click(await screen.findByRole('button', { name: 'Trading platform: OANDA' }));
    await user.click(screen.getByRole('button', { name: /MetaTrader/ }));
    await screen.findByText('No MetaTrader trades yet');
    expect(screen.getByText('Import a MetaTrader 4/5 report.')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Import' })).toHaveLength(2);
    expect(api.to(HISTORY).at(-1)!.search.get('platform')).toBe('metatrader');
    expect(screen.queryByText('Connect OANDA first')).not.toBeInTheDocument();
  });

  it('disables Sync with a spinner while syncing, toasts the server message and refetches the list', async () => {
    const sync = deferred<Reply>();
    let synced = false;
    const api = fakeApi({
      [HISTORY]: () => ({ body: tradePage(synced ? [trade({ tradeId: '7001' })] : []) }),
      [GET_INFO]: () => ({ body: oandaInfoBody('••••4f2a') }),
      [SYNC]: () => sync.promise,
    });
    const user = userEvent.setup();
    renderWithProviders(<TradesPage />);
    await screen.findByText('No trades found');

    await user.click(screen.getByRole('button', { name: 'Sync trades' }));
    const busy = screen.getByRole('button', { name: 'Syncing trades' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveTextContent('Syncing…');
    expect(busy.querySelector('.spinner-border')).not.toBeNull();

    synced = true;
    const message = 'Synced 1,240 trades from 2 accounts: 12 new, 3 updated';
    sync.resolve({
      body: tradeSyncResponse.parse({
        success: true,
        message,
        data: { accounts: 2, trades: 1240, created: 12, updated: 3, removed: 0, full: false },
      }),
    });
    expect(await screen.findByText(message)).toBeInTheDocument();
    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('7001'));
    expect(api.to(HISTORY)).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Sync trades' })).toBeEnabled();
  });

  it('shows a sync running on the server (the background sync, another tab) on the Sync button, polled until it ends', async () => {
    let running = true;
    const api = fakeApi({
      [HISTORY]: () => ({ body: tradePage([trade()]) }),
      [SYNC_STATUS]: () => ({
        body: syncStatusBody(
          syncStatus(
            running ? { running: { startedAt: syncAt(-1), pages: 3, trades: 250 } } : { lastSyncedAt: SYNC_NOW },
          ),
        ),
      }),
    });
    renderWithProviders(<TradesPage />);
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    const busy = await screen.findByRole('button', { name: 'Syncing trades' });
    expect(busy).toBeDisabled();
    expect(busy.querySelector('.spinner-border')).not.toBeNull();
    expect(screen.getByRole('status', { name: 'Background sync' })).toHaveTextContent('3 pages, 250 trades so far');
    expect(api.to(SYNC)).toHaveLength(0);

    // The status is polled while the sync runs; once it has ended the button is free again.
    running = false;
    expect(await screen.findByRole('button', { name: 'Sync trades' }, { timeout: 8000 })).toBeEnabled();
    expect(api.to(SYNC_STATUS).length).toBeGreaterThanOrEqual(2);
  });

  it('shows the running sync, not an error toast, when the press races a background sync (409)', async () => {
    let running = false;
    fakeApi({
      [HISTORY]: () => ({ body: tradePage([trade()]) }),
      [SYNC_STATUS]: () => ({
        body: syncStatusBody(syncStatus(running ? { running: { startedAt: syncAt(0), pages: 1, trades: 40 } } : {})),
      }),
      [SYNC]: () => {
        // The scheduler took the lease a moment before the press.
        running = true;
        return {
          status: 409,
          body: errorBody('A sync is already running for your account. Wait for it to finish.', 'SYNC_IN_PROGRESS'),
        };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<TradesPage />);
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    await user.click(await screen.findByRole('button', { name: 'Sync trades' }));
    const busy = await screen.findByRole('button', { name: 'Syncing trades' });
    expect(busy).toBeDisabled();
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Background sync' })).toHaveTextContent('1 page, 40 trades so far'),
    );
    expect(screen.getByRole('button', { name: 'Syncing trades' })).toBeDisabled();
    expect(screen.queryByText(/already running/)).not.toBeInTheDocument();
    expect(bodyRows()).toHaveLength(1);
  });

  it('points to Settings → Trading Platforms when a sync is refused for want of OANDA', async () => {
    let saved = '••••4f2a';
    const message = 'Connect your OANDA account in Settings → Trading Platforms first.';
    fakeApi({
      [HISTORY]: () => ({ body: tradePage([], 1, 0) }),
      [GET_INFO]: () => ({ body: oandaInfoBody(saved) }),
      [SYNC]: () => ({ status: 400, body: errorBody(message, 'OANDA_NOT_CONFIGURED') }),
    });
    const user = userEvent.setup();
    renderWithProviders(<TradesPage />);
    await screen.findByText('No trades found');
    // The configuration was removed elsewhere since the screen loaded.
    saved = '';
    await user.click(screen.getByRole('button', { name: 'Sync trades' }));
    expect(await screen.findByText('Connect OANDA first')).toBeInTheDocument();
    expect(screen.getAllByText(message).length).toBeGreaterThanOrEqual(2);
  });

  it('points to Settings → Trading Platforms when the list answers OANDA_NOT_CONFIGURED', async () => {
    const message = 'Connect your OANDA account in Settings → Trading Platforms first.';
    fakeApi({ [HISTORY]: () => ({ status: 400, body: errorBody(message, 'OANDA_NOT_CONFIGURED') }) });
    renderWithProviders(<TradesPage />);
    expect(await screen.findByText('Connect OANDA first')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Settings → Trading Platforms' })).toHaveAttribute(
      'href',
      '/settings/trading_platforms',
    );
    // The message shows in place and in a toast (docs/PRODUCT.md, Messages).
    await waitFor(() => expect(screen.getAllByText(message)).toHaveLength(2));
  });

  it("shows and toasts OANDA's rejection, and retries on demand", async () => {
    let fail = true;
    const message = 'OANDA rejected the access token for demo mode: check it in Settings → Trading Platforms.';
    const api = fakeApi({
      [HISTORY]: () =>
        fail ? { status: 502, body: errorBody(message, 'OANDA_REJECTED') } : { body: tradePage([trade()]) },
    });
    const user = userEvent.setup();
    renderWithProviders(<TradesPage />);
    expect(await screen.findByText('Your trades could not be loaded')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText(message)).toHaveLength(2));

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(api.to(HISTORY)).toHaveLength(2);
  });

  it('opens Trade Details with the local times and a chart of candles around the trade', async () => {
    const shown = trade();
    const api = fakeApi({
      [HISTORY]: () => ({ body: tradePage([shown]) }),
      [CANDLES]: ({ search }) => ({
        body: candlesResponse.parse({
          success: true,
          message: 'Candles fetched',
          data: {
            instrument: search.get('instrument'),
            granularity: search.get('granularity'),
            candles: [
              {
                time: '2025-10-02T08:00:00.000000000Z',
                volume: 10,
                complete: true,
                mid: { o: '1.17200', h: '1.17300', l: '1.17100', c: '1.17250' },
              },
              {
                time: '2025-10-02T09:00:00.000000000Z',
                volume: 12,
                complete: true,
                mid: { o: '1.17250', h: '1.17400', l: '1.17200', c: '1.17380' },
              },
              {
                time: '2025-10-02T11:00:00.000000000Z',
                volume: 9,
                complete: true,
                mid: { o: '1.17380', h: '1.17450', l: '1.17300', c: '1.17370' },
              },
            ],
          },
        }),
      }),
    });
    // The edge labels' rows as a phone lays them out: the bottom one wrapped onto two rows, 60 px from the pane's
    // bottom (the chart's element at 0, its pane 260 px high).
    const rows = { 'chart-edge-top': [0, 26], 'chart-edge-bottom': [200, 256] } as const;
    const layout = vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      const edge = Object.entries(rows).find(([name]) => this.classList.contains(name))?.[1] ?? [0, 0];
      return { top: edge[0], bottom: edge[1], height: edge[1] - edge[0] } as DOMRect;
    });
    const user = userEvent.setup();
    renderWithProviders(<TradesPage />);
    await user.click(await screen.findByRole('button', { name: 'View Trade' }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Trade Details')).toBeInTheDocument();
    const local = (iso: string) =>
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(Date.parse(iso));
    const value = (label: string) =>
      within(dialog).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(value('Opened')).toBe(local(shown.openTime));
    expect(value('Last Updated')).toBe(local(shown.updatedAt));
    expect(value('Created At')).toBe(local(shown.createdAt));
    expect(value('Closed')).toBe(local(shown.closeTime!));
    expect(value('Price')).toBe('1.17254');
    expect(value('Close Price')).toBe('1.17377');
    expect(value('Stop Loss')).toBe('1.17000');
    expect(value('Financing')).toBe('-0.1523');
    expect(value('Account')).toBe('101-004-27183640-001');

    // The trade lasted about 3.5 hours: one-minute candles from before the entry to after the exit.
    await waitFor(() => expect(charts.series).toHaveLength(1));
    const [candleSeries] = charts.series;
    const [candles] = api.to(CANDLES);
    expect(candles!.search.get('instrument')).toBe('EUR_USD');
    expect(candles!.search.get('granularity')).toBe('M1');
    expect(Date.parse(candles!.search.get('from')!)).toBeLessThan(Date.parse(shown.openTime));
    expect(Date.parse(candles!.search.get('to')!)).toBeGreaterThan(Date.parse(shown.closeTime!));
    expect(candleSeries!.data).toHaveLength(3);
    const markers = candleSeries!.markers;
    expect(markers.map((m) => [m.text, m.shape])).toEqual([
      ['Buy 1.17254', 'arrowUp'],
      ['Close 1.17377', 'arrowDown'],
    ]);
    // The scale fits the candles (1.17100–1.17450): entry and exit are drawn as lines, the stop loss below and the
    // take profit above the candles are named at the chart's edges.
    expect(candleSeries!.priceLines.map((l) => l.title)).toEqual(['Entry', 'Exit']);
    expect(within(dialog).getByText('SL 1.17000 ↓')).toBeInTheDocument();
    expect(within(dialog).getByText('TP 1.17500 ↑')).toBeInTheDocument();
    expect(within(dialog).getByRole('img', { name: /EUR\/USD · 1 Minute candles/ })).toBeInTheDocument();
    // The price scale keeps the replay's margins (components/charts/price-margins.ts): the bottom the labels' two rows
    // and a gap (64 px) and the entry's marker text below its candle (18 px); the top the chart's own 20 %.
    const margins = candleSeries!.scaleMargins;
    expect(margins!.top).toBe(0.2);
    expect(margins!.bottom).toBeCloseTo(82 / 260, 6);
    layout.mockRestore();
  });

  it('shows the chart error in place with the server message', async () => {
    fakeApi({
      [HISTORY]: () => ({ body: tradePage([trade()]) }),
      [CANDLES]: () => ({ status: 502, body: errorBody('OANDA is not answering right now.', 'OANDA_UNAVAILABLE') }),
    });
    const user = userEvent.setup();
    renderWithProviders(<TradesPage />);
    await user.click(await screen.findByRole('button', { name: 'View Trade' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('The chart could not be loaded.')).toBeInTheDocument();
    expect(within(dialog).getByText('OANDA is not answering right now.')).toBeInTheDocument();
    expect(charts.series).toHaveLength(0);
  });
});
