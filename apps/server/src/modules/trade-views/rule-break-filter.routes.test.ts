import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CalendarResponse,
  DashboardMetrics,
  StoredRuleSet,
  TradeListItem,
  TradeListResponse,
} from '@pipsense/contract';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { closedAt, importedAccount, importedOperation } from '../../test/imported-book';
import { userIdOf } from '../../test/seed-trades';
import { createTradingService } from '../trading';

/*
 * Where rule breaks are shown (docs/rules.md), on SQLite and PostgreSQL: a personal-rules set of at most 3 trades a
 * day on an imported MetaTrader account, whose 4th and 5th trades of 11-03 both break it. The trade list and the
 * Overview filtered by ruleBreak, each trade's rules broken, the Overview's rule-break line, the calendar's marks,
 * and no stale answer from a cache after the rule set changes.
 */

const SERVER = 'Breaks-Demo';
const LOGIN = '7780001';
const KEY = `metatrader:${SERVER}:${LOGIN}`;
const NOW = '2026-11-20T12:00:00.000Z';

const ACCOUNT = importedAccount({ server: SERVER, login: LOGIN, currency: 'USD' });
const DEPOSIT = importedOperation({ ticket: '5001', amount: '10000.00', serverTime: '2026-11-02T07:00:00' });
/*
 * 11-02: one trade. 11-03: five trades opened 08:00, 09:00, 10:00, 11:00, 12:00; with 3 a day, 9005 and 9006 break
 * the rule. Their net P/L by hand: -1,000.10 + 2,000.20 = 1,000.10 USD.
 */
const TRADES = [
  closedAt('9001', '2026-11-02T08:00:00', '2026-11-02T09:00:00', '50.00'),
  closedAt('9002', '2026-11-03T08:00:00', '2026-11-03T08:30:00', '10.00'),
  closedAt('9003', '2026-11-03T09:00:00', '2026-11-03T09:30:00', '-20.00'),
  closedAt('9004', '2026-11-03T10:00:00', '2026-11-03T10:30:00', '30.00'),
  closedAt('9005', '2026-11-03T11:00:00', '2026-11-03T11:30:00', '-1000.10'),
  closedAt('9006', '2026-11-03T12:00:00', '2026-11-03T12:30:00', '2000.20'),
];

let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let alice: { token: string };
let set: StoredRuleSet;

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestApp({}, { db: testDb.db, now: () => new Date(NOW) });
  const a = await t.user('alice');
  alice = a;
  const trading = createTradingService({
    db: testDb.db.kysely,
    oanda: {} as never,
    settings: { oandaCredentials: () => Promise.resolve(undefined) },
    now: () => new Date(NOW),
  });
  await trading.storeImport(await userIdOf(testDb.db.kysely, a.username), ACCOUNT, TRADES, [DEPOSIT]);
});
afterAll(async () => {
  await t.close();
  await testDb.close();
});

const get = (url: string) => t.call(alice.token, { method: 'GET', url });
const post = (url: string, payload: object = {}) => t.call(alice.token, { method: 'POST', url, payload });
async function ok<T>(res: Awaited<ReturnType<typeof get>>): Promise<T> {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: T }>().data;
}
const list = async (query = '') =>
  await ok<TradeListResponse['data']>(
    await get(`/api/v1/trade/get_trade_history?platform=metatrader&limit=50${query}`),
  );
const ids = (trades: readonly TradeListItem[]) => trades.map((x) => x.tradeId).sort();
const overview = async (query = '') =>
  ok<DashboardMetrics>(await get(`/api/v1/dashboard/metrics?platform=metatrader${query}`));

describe('without a rule set', () => {
  it('lists no breaks, filters every trade as kept, and shows no rule-break line', async () => {
    const all = await list();
    expect(all).toHaveLength(6);
    expect(all.every((x) => x.ruleBreaks.length === 0)).toBe(true);
    expect(await list('&ruleBreak=true')).toEqual([]);
    expect(ids(await list('&ruleBreak=false'))).toEqual(ids(all));
    expect((await overview()).ruleBreaks).toBeNull();
  });
});

describe('a personal-rules set of at most 3 trades a day', () => {
  beforeAll(async () => {
    set = await ok<StoredRuleSet>(
      await post('/api/v1/rules/create_rule_set', {
        accountId: KEY,
        name: 'Personal rules',
        startTime: DEPOSIT.time,
        initialBalance: '10000.00',
        rules: [{ kind: 'max_trades_per_day', params: { max: 3 } }],
      }),
    );
  });

  it('lists the 4th and 5th trades of the day with ruleBreak=true, each with the rule it broke', async () => {
    const broke = await list('&ruleBreak=true');
    expect(ids(broke)).toEqual(['9005', '9006']);
    for (const trade of broke)
      expect(trade.ruleBreaks).toEqual([
        {
          ruleSetId: set.id,
          ruleSetName: 'Personal rules',
          kind: 'max_trades_per_day',
          time: trade.openTime.replace(/\.\d+Z$/, '.000Z'),
          rule: expect.objectContaining({ kind: 'max_trades_per_day', params: expect.objectContaining({ max: 3 }) }),
        },
      ]);
  });

  it('lists the others with ruleBreak=false, without breaks, and both lists make the whole list', async () => {
    const kept = await list('&ruleBreak=false');
    expect(ids(kept)).toEqual(['9001', '9002', '9003', '9004']);
    expect(kept.every((x) => x.ruleBreaks.length === 0)).toBe(true);
    const all = await list();
    expect(
      all
        .filter((x) => x.ruleBreaks.length > 0)
        .map((x) => x.tradeId)
        .sort(),
    ).toEqual(['9005', '9006']);
  });

  it('refuses ruleBreak=maybe with a message naming ruleBreak, on the list and the Overview', async () => {
    for (const url of [
      '/api/v1/trade/get_trade_history?ruleBreak=maybe',
      '/api/v1/dashboard/metrics?platform=metatrader&ruleBreak=maybe',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('ruleBreak');
    }
  });

  it('shows the Overview rule-break line: 2 trades and their net P/L exactly, in USD', async () => {
    const whole = await overview();
    expect(whole.tradeCount).toBe(6);
    expect(whole.ruleBreaks).toEqual({ trades: 2, netPL: [{ currency: 'USD', amount: '1000.1000' }] });
  });

  it('slices the Overview by ruleBreak', async () => {
    const broke = await overview('&ruleBreak=true');
    expect(broke.tradeCount).toBe(2);
    expect(broke.ruleBreaks).toEqual({ trades: 2, netPL: [{ currency: 'USD', amount: '1000.1000' }] });
    const kept = await overview('&ruleBreak=false');
    expect(kept.tradeCount).toBe(4);
    expect(kept.ruleBreaks).toEqual({ trades: 0, netPL: [] });
    // Another slice keeps the line to its own trades: 11-02 had no break.
    const day = await overview('&from=2026-11-02T00:00:00Z&to=2026-11-02T23:59:59Z');
    expect(day.ruleBreaks).toEqual({ trades: 0, netPL: [] });
  });

  it('marks the calendar day the breaking trades closed on', async () => {
    const month = await ok<CalendarResponse['data']>(await get('/api/v1/journal/get_calendar?month=2026-11'));
    const byDate = Object.fromEntries(month.days.map((d) => [d.date, d.ruleBreaks]));
    expect(byDate).toMatchObject({ '2026-11-02': 0, '2026-11-03': 2 });
  });

  it('serves no stale breaks from the caches after the rule set is edited, then deleted', async () => {
    // Read first, so the list's page and the Overview are cached with the 3-a-day breaks.
    expect(ids(await list('&ruleBreak=true'))).toEqual(['9005', '9006']);
    expect((await overview()).ruleBreaks?.trades).toBe(2);
    await ok(
      await post(`/api/v1/rules/edit_rule_set/${set.id}`, {
        rules: [{ kind: 'max_trades_per_day', params: { max: 4 } }],
      }),
    );
    expect(ids(await list('&ruleBreak=true'))).toEqual(['9006']);
    expect((await list()).find((x) => x.tradeId === '9005')?.ruleBreaks).toEqual([]);
    expect((await overview()).ruleBreaks).toEqual({ trades: 1, netPL: [{ currency: 'USD', amount: '2000.2000' }] });
    expect((await overview('&ruleBreak=true')).tradeCount).toBe(1);
    await ok(await post(`/api/v1/rules/delete_rule_set/${set.id}`));
    expect(await list('&ruleBreak=true')).toEqual([]);
    expect((await overview()).ruleBreaks).toBeNull();
    const month = await ok<CalendarResponse['data']>(await get('/api/v1/journal/get_calendar?month=2026-11'));
    expect(month.days.every((d) => d.ruleBreaks === 0)).toBe(true);
  });
});
