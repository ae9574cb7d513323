import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { charts, resetCharts } from '../../../test/lightweight-charts-fake';
import { errorBody, fakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { trade, tradePage } from '../test-fixtures';
import { replayFixture } from '../model/replay-fixture';
import { TradeChartPanel } from './trade-replay';

vi.mock('lightweight-charts', () => import('../../../test/lightweight-charts-fake'));

const REPLAY = '/api/v1/trade/get_replay/:accountId/:tradeId';
const CANDLES = '/api/v1/trade/candles';
const shown = tradePage([trade({ accountId: '101-004-27183640-001', tradeId: '5316' })]).data[0]!;
const candleSeries = () => charts.series.at(-1)!;
const figure = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling?.textContent;

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('test-token'));
  resetCharts();
});

async function openReplay(routes: Parameters<typeof fakeApi>[0]) {
  const api = fakeApi({
    [CANDLES]: () => ({
      body: { success: true, message: '', data: { instrument: 'EUR_USD', granularity: 'M1', candles: [] } },
    }),
    ...routes,
  });
  const user = userEvent.setup();
  renderWithProviders(<TradeChartPanel base="" trade={shown} />);
  await user.click(screen.getByRole('button', { name: 'Replay' }));
  return { api, user };
}

describe('TradeReplay', () => {
  it('replays the trade candle by candle: the stop moves when it moved, P/L and excursions so far', async () => {
    const { api, user } = await openReplay({
      [REPLAY]: () => ({ body: { success: true, message: '10 candles', data: replayFixture() } }),
    });
    expect(screen.getByRole('status')).toHaveTextContent("Loading the replay's candles…");
    await screen.findByText('Candle 2 of 10', { exact: false });
    const [call] = api.to(/get_replay/);
    expect(call!.params).toEqual({ accountId: '101-004-27183640-001', tradeId: '5316' });
    expect(call!.search.get('before')).toBe('50');
    expect(call!.search.get('granularity')).toBeNull();
    expect(screen.getByLabelText('Candles')).toHaveValue('M1');
    await waitFor(() => expect(candleSeries().data).toHaveLength(2));
    expect(figure('Open P/L')).toBe('Not entered yet');

    // The replay has the focus: the right arrow steps to the entry's candle.
    const panel = screen.getByRole('region', { name: 'Replay' });
    expect(panel).toHaveFocus();
    fireEvent.keyDown(panel, { key: 'ArrowRight' });
    await waitFor(() => expect(candleSeries().data).toHaveLength(3));
    // The scale fits the candles: the entry is drawn, the stop below and the target above are named at the edges.
    expect(candleSeries().priceLines.map((l) => l.title)).toEqual(['Entry']);
    expect(screen.getByText('SL 1.09900 ↓')).toBeInTheDocument();
    expect(screen.getByText('TP 1.10300 ↑')).toBeInTheDocument();
    expect(figure('Open P/L')).toBe('+1.0 pips · +1.00 USD · +0.10 R');

    // Scrub to the sixth candle: the stop stands at break-even now.
    fireEvent.change(screen.getByLabelText('Replay position'), { target: { value: '5' } });
    await waitFor(() => expect(candleSeries().priceLines.find((l) => l.title === 'SL')?.price).toBe(1.1));
    expect(candleSeries().markers.map((m) => m.text)).toEqual(['Buy 1.10000', 'SL → 1.10000']);
    expect(
      within(screen.getByRole('list', { name: 'Events so far' })).getByText('Stop loss moved'),
    ).toBeInTheDocument();
    fireEvent.keyDown(panel, { key: 'ArrowLeft' });
    await screen.findByText('Candle 5 of 10', { exact: false });

    // Space plays to the end at 20×; the result is the exit's.
    await user.selectOptions(screen.getByLabelText('Speed'), '20');
    panel.focus();
    fireEvent.keyDown(panel, { key: ' ' });
    await screen.findByText('Candle 10 of 10', { exact: false }, { timeout: 3000 });
    expect(await screen.findByRole('button', { name: 'Play' })).toBeInTheDocument();
    expect(figure('Result')).toBe('+20.0 pips · +20.00 USD · +2.00 R');
    expect(figure('MFE so far')).toBe('+22.0 pips · +22.00 USD · +2.20 R');
    expect(candleSeries().priceLines.map((l) => l.title)).toEqual(['Entry', 'Exit']);
  });

  it('after a partial close shows the open P/L on the units left and what was realized, with a marker', async () => {
    const events = replayFixture().events.map((e) => (e.kind === 'exit' ? { ...e, units: '6000' } : e));
    events.splice(4, 0, {
      time: '2026-11-24T09:06:20.000000000Z',
      kind: 'partial_close',
      price: '1.10150',
      units: '4000',
    });
    // A phone's narrow chart: 150 px of candles.
    charts.plotWidth = 150;
    await openReplay({
      [REPLAY]: () => ({ body: { success: true, message: '', data: replayFixture({ events }) } }),
    });
    await screen.findByText('Candle 2 of 10', { exact: false });
    // From the first frame, room for the markers to come: 'Part −4,000 @ 1.10150' (73.5 px each side) on the seventh
    // of 10 candles asks on the right for its half and the lines' titles (120.5 px), more than the replay's own
    // width of 10 candles, where the room stops; on the left it needs 6 + 7 candles of 150 ÷ 26 = 5.77 px (75 px).
    await waitFor(() => expect(charts.ranges.at(-1)).toEqual({ from: -7, to: 19 }));
    fireEvent.change(screen.getByLabelText('Replay position'), { target: { value: '6' } });
    await waitFor(() => expect(candleSeries().markers.map((m) => m.text)).toContain('Part −4,000 @ 1.10150'));
    expect(figure('Open P/L')).toBe('+15.0 pips · +9.00 USD · +0.90 R on 6,000 units open');
    expect(figure('Realized so far')).toBe('+15.0 pips · +6.00 USD · +0.60 R on 4,000 units');
    expect(
      within(screen.getByRole('list', { name: 'Events so far' })).getByText('Partial close').parentElement,
    ).toHaveTextContent('Partial close 1.10150, 4,000 units ·');
    fireEvent.change(screen.getByLabelText('Replay position'), { target: { value: '9' } });
    await waitFor(() => expect(figure('Result')).toBe('+18.0 pips · +18.00 USD · +1.80 R'));
    expect(new Set(charts.ranges.map((r) => `${r.from}..${r.to}`))).toEqual(new Set(['-7..19']));
    expect(figure('Partial closes')).toBe('+15.0 pips · +6.00 USD · +0.60 R on 4,000 units');
  });

  it('asks again for another granularity and another start', async () => {
    const { api, user } = await openReplay({
      [REPLAY]: ({ search }) => ({
        body: {
          success: true,
          message: '',
          data: replayFixture({ granularity: (search.get('granularity') as 'M5' | null) ?? 'M1' }),
        },
      }),
    });
    await screen.findByText('Candle 2 of 10', { exact: false });
    await user.selectOptions(screen.getByLabelText('Candles'), 'M5');
    await waitFor(() =>
      expect(
        api
          .to(/get_replay/)
          .at(-1)!
          .search.get('granularity'),
      ).toBe('M5'),
    );
    const before = screen.getByLabelText('Candles before entry');
    await user.clear(before);
    await user.type(before, '20{Enter}');
    await waitFor(() =>
      expect(
        api
          .to(/get_replay/)
          .at(-1)!
          .search.get('before'),
      ).toBe('20'),
    );
  });

  it('says why a trade cannot be replayed (409), and shows other failures with a retry', async () => {
    await openReplay({
      [REPLAY]: () => ({
        status: 409,
        body: errorBody(
          'Replay needs candles: connect an OANDA account in Settings → Trading Platforms.',
          'REPLAY_NO_CANDLE_SOURCE',
        ),
      }),
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This trade cannot be replayed.');
    expect(alert).toHaveTextContent('Replay needs candles: connect an OANDA account');
    expect(within(alert).queryByRole('button')).toBeNull();
  });

  it('offers a retry after an upstream failure', async () => {
    await openReplay({
      [REPLAY]: () => ({ status: 502, body: errorBody('OANDA is not answering right now.', 'OANDA_UNAVAILABLE') }),
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The replay could not be loaded.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
