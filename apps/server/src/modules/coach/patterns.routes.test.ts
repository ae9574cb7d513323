import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COACH_PATTERNS, type PatternResult, type TradeListResponse } from '@pipsense/contract';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { closedAt, importedAccount } from '../../test/imported-book';
import { userIdOf } from '../../test/seed-trades';
import { createTradingService } from '../trading';

/*
 * GET /api/v1/coach/get_patterns and the trade list's `pattern` filter (docs/coach.md, Patterns), on SQLite and
 * PostgreSQL. Alice's imported account: a loss on 11-03 closed at 08:30 and, ten minutes later, a trade of twice her
 * usual size: revenge trading. Nothing else is flagged (three active days, no stops, no excursions). Bob has his own
 * trades and must never see hers.
 */

const NOW = '2026-11-20T12:00:00.000Z';
const ALICE_KEY = 'metatrader:Coach-Demo:5550001';
const BOB_KEY = 'metatrader:Coach-Demo:5550002';

const ALICE_TRADES = [
  closedAt('9001', '2026-11-02T08:00:00', '2026-11-02T09:00:00', '50.00'),
  closedAt('9002', '2026-11-03T08:00:00', '2026-11-03T08:30:00', '-20.00'),
  closedAt('9003', '2026-11-03T08:40:00', '2026-11-03T09:00:00', '30.00', { units: '200000', lots: '2.00' }),
  closedAt('9004', '2026-11-04T08:00:00', '2026-11-04T09:00:00', '40.00'),
];
const BOB_TRADES = [
  closedAt('7001', '2026-11-03T08:00:00', '2026-11-03T08:30:00', '-10.00'),
  closedAt('7002', '2026-11-03T08:35:00', '2026-11-03T09:00:00', '15.00', { units: '300000', lots: '3.00' }),
  closedAt('7003', '2026-11-05T08:00:00', '2026-11-05T09:00:00', '5.00'),
];

let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let alice: { token: string };
let bob: { token: string };

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestApp({}, { db: testDb.db, now: () => new Date(NOW) });
  const a = await t.user('alice');
  const b = await t.user('bob');
  alice = a;
  bob = b;
  const trading = createTradingService({
    db: testDb.db.kysely,
    oanda: {} as never,
    settings: { oandaCredentials: () => Promise.resolve(undefined) },
    now: () => new Date(NOW),
  });
  await trading.storeImport(
    await userIdOf(testDb.db.kysely, a.username),
    importedAccount({ server: 'Coach-Demo', login: '5550001', currency: 'USD' }),
    ALICE_TRADES,
    [],
  );
  await trading.storeImport(
    await userIdOf(testDb.db.kysely, b.username),
    importedAccount({ server: 'Coach-Demo', login: '5550002', currency: 'USD' }),
    BOB_TRADES,
    [],
  );
});
afterAll(async () => {
  await t.close();
  await testDb.close();
});

const get = (token: string, url: string) => t.call(token, { method: 'GET', url });
async function patterns(token: string, query = ''): Promise<Map<string, PatternResult>> {
  const res = await get(token, `/api/v1/coach/get_patterns?platform=metatrader${query}`);
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json<{ data: PatternResult[] }>().data;
  expect(data.map((p) => p.pattern)).toEqual([...COACH_PATTERNS]);
  return new Map(data.map((p) => [p.pattern, p]));
}
const single = (amount: string) => ({ mode: 'single', currency: 'USD', amount });

describe('GET /api/v1/coach/get_patterns', () => {
  it('lists every pattern, the revenge trade with its cost against the other closed trades', async () => {
    const found = await patterns(alice.token);
    const revenge = found.get('revenge_trading')!;
    expect(revenge.trades).toEqual([{ accountId: ALICE_KEY, tradeId: '9003' }]);
    expect(revenge.count).toBe(1);
    expect(revenge.netPL).toEqual(single('30.00'));
    // 50 − 20 + 40
    expect(revenge.othersNetPL).toEqual(single('70.00'));
    expect(revenge.averageR).toBeNull();
    expect(revenge.definition).toContain('30 minutes');
    for (const [pattern, result] of found)
      if (pattern !== 'revenge_trading') {
        expect(result.count, pattern).toBe(0);
        expect(result.netPL).toBeNull();
        expect(result.othersNetPL).toEqual(single('100.00'));
      }
  });

  it('keeps flags of the whole history and costs only the range', async () => {
    // The loss before the range still makes 9003 a revenge trade.
    const from = await patterns(alice.token, '&from=2026-11-03T08:35:00Z&to=2026-11-30T00:00:00Z');
    expect(from.get('revenge_trading')!.trades.map((x) => x.tradeId)).toEqual(['9003']);
    expect(from.get('revenge_trading')!.othersNetPL).toEqual(single('40.00'));
    const later = await patterns(alice.token, '&from=2026-11-04T00:00:00Z');
    expect(later.get('revenge_trading')!.count).toBe(0);
    expect(later.get('revenge_trading')!.netPL).toBeNull();
    expect(later.get('revenge_trading')!.othersNetPL).toEqual(single('40.00'));
  });

  it('filters by account and platform', async () => {
    const own = await patterns(alice.token, `&accountId=${encodeURIComponent(ALICE_KEY)}`);
    expect(own.get('revenge_trading')!.count).toBe(1);
    const oanda = await get(alice.token, '/api/v1/coach/get_patterns?platform=oanda');
    expect(oanda.statusCode).toBe(200);
    expect(oanda.json<{ data: PatternResult[] }>().data.every((p) => p.count === 0 && p.othersNetPL === null)).toBe(
      true,
    );
  });

  it('applies the trader’s thresholds', async () => {
    const saved = await t.call(alice.token, {
      method: 'POST',
      url: '/api/v1/coach/update_settings',
      payload: { thresholds: { revengeMinutes: 5 } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await patterns(alice.token)).get('revenge_trading')!.count).toBe(0);
    const list = await get(alice.token, '/api/v1/trade/get_trade_history?platform=metatrader&pattern=revenge_trading');
    expect(list.json<TradeListResponse>().data).toEqual([]);
    await t.call(alice.token, {
      method: 'POST',
      url: '/api/v1/coach/update_settings',
      payload: { thresholds: { revengeMinutes: 30 } },
    });
    expect((await patterns(alice.token)).get('revenge_trading')!.count).toBe(1);
  });

  it('refuses bad inputs', async () => {
    for (const query of [
      'from=yesterday',
      'to=2026-13-40',
      'from=2026-11-05T00:00:00Z&to=2026-11-01T00:00:00Z',
      'platform=ctrader',
    ]) {
      const res = await get(alice.token, `/api/v1/coach/get_patterns?${query}`);
      expect(res.statusCode, query).toBe(400);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/coach/get_patterns' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('never shows another user’s trades', async () => {
    const own = await patterns(bob.token);
    expect(own.get('revenge_trading')!.trades).toEqual([{ accountId: BOB_KEY, tradeId: '7002' }]);
    for (const result of own.values())
      expect(result.trades.every((x) => x.accountId === BOB_KEY && x.tradeId.startsWith('7'))).toBe(true);
    // Alice's account named by Bob: as the trade list, nothing of it.
    const theirs = await patterns(bob.token, `&accountId=${encodeURIComponent(ALICE_KEY)}`);
    for (const result of theirs.values()) {
      expect(result.count).toBe(0);
      expect(result.othersNetPL).toBeNull();
    }
  });
});

describe('the trade list filtered by pattern', () => {
  const list = async (token: string, query: string) => {
    const res = await get(token, `/api/v1/trade/get_trade_history?platform=metatrader&limit=50${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res
      .json<TradeListResponse>()
      .data.map((x) => x.tradeId)
      .sort();
  };

  it('lists the flagged trades only, per user', async () => {
    expect(await list(alice.token, '&pattern=revenge_trading')).toEqual(['9003']);
    expect(await list(alice.token, '&pattern=overtrading')).toEqual([]);
    expect(await list(alice.token, '&pattern=revenge_trading&from=2026-11-04T00:00:00Z')).toEqual([]);
    expect(await list(bob.token, '&pattern=revenge_trading')).toEqual(['7002']);
    const csv = await get(alice.token, '/api/v1/trade/export_trades?platform=metatrader&pattern=revenge_trading');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('9003');
    expect(csv.body).not.toContain('9001');
  });

  it('refuses an unknown pattern', async () => {
    const res = await get(alice.token, '/api/v1/trade/get_trade_history?platform=metatrader&pattern=gambling');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('pattern must be one of');
  });
});
