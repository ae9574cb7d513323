import { describe, expect, it } from 'vitest';
import type { Mode, TradeTag } from '@pipsense/contract';
import { tradeRef } from '../../journal/journal-facts.service';
import { AppError } from '../../../lib/errors';
import { DEMO_ACCOUNTS, DEMO_TRADES, FIXTURE_NOW, fixtureCandles } from '../../../test/chat-fixture-data';
import { resolvePeriod } from './periods';
import type { TradeSelection } from '../../trade-views';
import { sortTrades, type TradeQuestion } from './trade-query';
import { createTradingChatData, type TradingChatDataDeps } from './trading-chat-data';

const ALL: TradeQuestion = {
  state: 'all',
  period: resolvePeriod({ kind: 'all' }, FIXTURE_NOW, 'UTC'),
  outcome: 'any',
  stopLoss: 'any',
  takeProfit: 'any',
  sort: 'newest',
  limit: 50,
};
const TAGS: TradeTag[] = [{ id: 'g1', name: 'Breakout', kind: 'setup' }];
/** Breakout on the first two closed trades and on the open trade 501. */
const breakout = [
  ...DEMO_TRADES.filter((t) => t.state === 'CLOSED').slice(0, 2),
  DEMO_TRADES.find((t) => t.tradeId === '501')!,
];
const TAGGED = new Map(breakout.map((t) => [tradeRef(t.accountId, t.tradeId), ['g1']]));
/** The fixture's trades a selection's state and tags pick (the rest of the selection: selection.db.test.ts). */
const picked = (s: TradeSelection) =>
  DEMO_TRADES.filter(
    (t) =>
      (s.state === undefined || (t.state === 'CLOSED') === (s.state === 'closed')) &&
      (!s.tags || s.tags.some((id) => TAGGED.get(tradeRef(t.accountId, t.tradeId))?.includes(id))),
  );

type Trading = TradingChatDataDeps['trading'];
type Views = TradingChatDataDeps['views'];

function setup(
  options: { credentials?: Mode | null; live?: () => Promise<unknown>; refresh?: () => Promise<unknown> } = {},
) {
  const calls: string[] = [];
  const liveOpen = DEMO_TRADES.filter((t) => t.tradeId === '501').map(({ createdAt: _c, updatedAt: _u, ...t }) => ({
    ...t,
    unrealizedPL: '99.9900',
  }));
  const views: Views = {
    // The database's part is covered by trade-query.repository.test.ts; here only the state split matters.
    queryTrades: async (_u, s, sort, limit) => (
      calls.push(`queryTrades:${s.mode}:${s.state ?? 'all'}`),
      sortTrades(picked(s), sort).slice(0, limit)
    ),
    tradeFigures: async (_u, s) =>
      picked(s).map((t) => ({
        account_id: t.accountId,
        trade_id: t.tradeId,
        instrument: t.instrument,
        realized_pl: t.realizedPL,
        unrealized_pl: t.unrealizedPL,
        financing: t.financing,
        close_time: t.closeTime,
      })),
    lastTradeWrite: async () => '2025-03-14T14:30:00.000Z',
    trades: async (_u, s) => (
      calls.push(`trades:${s.mode}:${s.state ?? 'all'}`),
      picked(s).map((t) => ({ ...t, initialStopLossPrice: null }))
    ),
  };
  const trading: Trading = {
    accounts: async (_u, mode) => (calls.push(`accounts:${mode}`), DEMO_ACCOUNTS),
    openTradesLive: async (_u, mode) => {
      calls.push(`openTradesLive:${mode}`);
      if (options.live) await options.live();
      return liveOpen;
    },
    syncAccounts: async () => {
      calls.push('syncAccounts');
      if (options.refresh) await options.refresh();
      return { accounts: 1, created: 0, updated: 1 };
    },
    candles: async (_u, r) => (
      calls.push(`candles:${r.instrument}:${r.granularity}:${r.count}`),
      fixtureCandles(r.instrument, r.granularity, r.count ?? 1)
    ),
  };
  const mode = options.credentials === undefined ? 'demo' : options.credentials;
  const data = createTradingChatData({
    trading,
    views,
    settings: { oandaCredentials: async () => (mode ? { accessToken: 't', accountId: '', mode } : undefined) },
    journal: {
      tags: async () => TAGS,
      tagsByTrade: async () => TAGGED,
      notesByTrade: async () => new Map(),
    },
    now: () => FIXTURE_NOW,
  });
  return { data, calls };
}

describe('the assistant data over the trading service', () => {
  it('takes open trades from OANDA when the credentials are for the mode, closed ones from the sync', async () => {
    const { data, calls } = setup();
    const answer = await data.queryTrades('u1', 'demo', ALL, { liveOpen: true });
    expect(calls).toContain('openTradesLive:demo');
    expect(calls).toContain('queryTrades:demo:closed');
    expect(answer.openOrigin).toEqual({ kind: 'oanda', at: FIXTURE_NOW.toISOString() });
    const open = answer.result.trades.filter((t) => t.state === 'OPEN');
    expect(open.map((t) => [t.tradeId, t.unrealizedPL, t.currency])).toEqual([['501', '99.9900', 'USD']]);
    const closed = DEMO_TRADES.filter((t) => t.state === 'CLOSED').length;
    expect(answer.result.trades.filter((t) => t.state === 'CLOSED')).toHaveLength(closed);
    expect(answer.result.matched).toBe(closed + 1);
  });

  it('does not ask OANDA for another mode, nor when only the history is needed', async () => {
    const other = setup({ credentials: 'live' });
    const a = await other.data.queryTrades('u1', 'demo', ALL, { liveOpen: true });
    expect(other.calls).not.toContain('openTradesLive:demo');
    expect(a.openOrigin).toMatchObject({ kind: 'sync', reason: 'other_mode' });

    const history = setup();
    const b = await history.data.queryTrades('u1', 'demo', ALL, { liveOpen: false });
    expect(history.calls).not.toContain('openTradesLive:demo');
    expect(b.openOrigin).toMatchObject({ kind: 'sync', reason: 'not_asked' });

    const none = setup({ credentials: null });
    expect((await none.data.accounts('u1', 'demo')).origin).toMatchObject({ kind: 'sync', reason: 'not_connected' });
    expect(none.calls).not.toContain('syncAccounts');
  });

  it('reads tagged trades from the stored history (open ones as synced) and compares tags over closed trades', async () => {
    const { data, calls } = setup();
    const journal = await data.journal('u1');
    const answer = await data.queryTrades('u1', 'demo', { ...ALL, tagIds: ['g1'] }, { liveOpen: true });
    expect(calls).not.toContain('openTradesLive:demo');
    expect(answer.openOrigin).toMatchObject({ kind: 'sync', reason: 'not_asked' });
    expect(answer.result.trades.map((t) => t.tradeId).sort()).toEqual(breakout.map((t) => t.tradeId).sort());
    // The stored open trade keeps its synced P/L (not OANDA's live 99.99).
    expect(answer.result.trades.find((t) => t.tradeId === '501')?.unrealizedPL).not.toBe('99.9900');

    const compared = await data.compareTags('u1', 'demo', { period: ALL.period }, journal);
    expect(calls).toContain('trades:demo:closed');
    expect(compared.result).toHaveLength(1);
    expect(compared.result[0]).toMatchObject({ tagId: 'g1', name: 'Breakout', trades: 2 });
  });

  it('falls back to the last sync when OANDA is down, and says why', async () => {
    const down = () =>
      Promise.reject(new AppError(502, 'OANDA_UNAVAILABLE', 'OANDA is not answering properly right now (HTTP 503).'));
    const { data } = setup({ live: down, refresh: down });
    const trades = await data.queryTrades('u1', 'demo', ALL, { liveOpen: true });
    expect(trades.openOrigin).toMatchObject({
      kind: 'sync',
      reason: 'oanda_failed',
      detail: 'OANDA is not answering properly right now (HTTP 503).',
    });
    expect(trades.result.matched).toBe(DEMO_TRADES.length);
    const accounts = await data.accounts('u1', 'demo');
    expect(accounts.origin).toMatchObject({ kind: 'sync', at: DEMO_ACCOUNTS[0]!.syncedAt, reason: 'oanda_failed' });
  });

  it('lets a refused token end the answer instead of hiding it behind old data', async () => {
    const refused = () =>
      Promise.reject(new AppError(502, 'OANDA_AUTH', 'OANDA rejected the access token for demo mode.'));
    const { data } = setup({ live: refused, refresh: refused });
    await expect(data.queryTrades('u1', 'demo', ALL, { liveOpen: true })).rejects.toMatchObject({ code: 'OANDA_AUTH' });
    await expect(data.accounts('u1', 'demo')).rejects.toMatchObject({ code: 'OANDA_AUTH' });
  });

  it('refreshes account summaries from OANDA for the connected mode', async () => {
    const { data, calls } = setup();
    const snapshot = await data.accounts('u1', 'demo');
    expect(calls).toEqual(['syncAccounts', 'accounts:demo']);
    expect(snapshot.origin).toEqual({ kind: 'oanda', at: FIXTURE_NOW.toISOString() });
  });

  it('passes candle requests through', async () => {
    const { data, calls } = setup();
    const result = await data.candles('u1', { instrument: 'EUR_USD', granularity: 'H1', count: 3 });
    expect(calls).toEqual(['candles:EUR_USD:H1:3']);
    expect(result.candles).toHaveLength(3);
  });
});
