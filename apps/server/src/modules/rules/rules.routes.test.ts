import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DayRecord, RulePresetId, RuleStatus, RuleTradeBreak, StoredRuleSet } from '@pipsense/contract';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { closedAt, importedAccount, importedOperation } from '../../test/imported-book';
import { userIdOf } from '../../test/seed-trades';
import { createTradingService } from '../trading';

/*
 * The rules routes (docs/rules.md, API) on SQLite and PostgreSQL, on an imported MetaTrader account without an
 * equity source (the closed-only basis): presets, a rule set from a preset with its defaults read from the money
 * module, status, days and breaks of trade-level rules, bad inputs and another user's account and rule sets.
 */

const SERVER = 'Rules-Demo';
const LOGIN = '7770001';
const KEY = `metatrader:${SERVER}:${LOGIN}`;
const NOW = '2026-11-20T12:00:00.000Z';

const ACCOUNT = importedAccount({ server: SERVER, login: LOGIN, currency: 'USD' });
const DEPOSIT = importedOperation({ ticket: '5001', amount: '100000.00', serverTime: '2026-11-02T07:00:00' });
/*
 * By hand (USD), from 100,000.00 on 11-02 07:00:
 *   9001 11-02 08:00–10:00  +1,000.00  stop 1.06 on 100,000 units from 1.08: 2,000.00 at risk (2 % of the balance)
 *   9002 11-03 08:00–12:00  +6,000.00
 *   9003 11-03 13:00–14:00  +4,500.00  the day's second trade
 *   9004 11-04 08:00–09:00    +200.00
 * 11,700.00 of profit: FTMO's 10 % target and 3 of its 4 trading days; the equity rules undecided (closed-only).
 */
const TRADES = [
  closedAt('9001', '2026-11-02T08:00:00', '2026-11-02T10:00:00', '1000.00', { stopLossPrice: '1.06000' }),
  closedAt('9002', '2026-11-03T08:00:00', '2026-11-03T12:00:00', '6000.00'),
  closedAt('9003', '2026-11-03T13:00:00', '2026-11-03T14:00:00', '4500.00'),
  closedAt('9004', '2026-11-04T08:00:00', '2026-11-04T09:00:00', '200.00'),
];

let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let alice: { token: string };
let bob: { token: string };

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestApp({}, { db: testDb.db, now: () => new Date(NOW) });
  const a = await t.user('alice');
  alice = a;
  bob = await t.user('bob');
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

const get = (token: string, url: string) => t.call(token, { method: 'GET', url });
const post = (token: string, url: string, payload: object = {}) => t.call(token, { method: 'POST', url, payload });

async function ok<T>(res: Awaited<ReturnType<typeof get>>): Promise<T> {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ success: boolean; data: T }>().data;
}
const create = (token: string, body: object) => post(token, '/api/v1/rules/create_rule_set', body);
const listOf = async (token: string) => ok<StoredRuleSet[]>(await get(token, '/api/v1/rules/get_rule_sets'));

describe('presets', () => {
  it('lists every preset with its rules and a one-line source', async () => {
    const presets = await ok<Array<{ id: RulePresetId; source: string; rules: unknown[] }>>(
      await get(alice.token, '/api/v1/rules/get_presets'),
    );
    expect(presets.map((p) => p.id)).toContain('ftmo-2step-challenge');
    for (const p of presets) {
      expect(p.source.length).toBeGreaterThan(0);
      expect(p.source).not.toContain('\n');
      expect(p.rules.length).toBeGreaterThan(0);
    }
  });
});

describe('an FTMO challenge on an imported account', () => {
  let set: StoredRuleSet;

  beforeAll(async () => {
    set = await ok<StoredRuleSet>(
      await create(alice.token, { accountId: LOGIN, name: 'FTMO 100K', preset: 'ftmo-2step-challenge' }),
    );
  });

  it('starts at the first booking with the balance the money module gives there', () => {
    expect(set).toMatchObject({
      accountId: KEY,
      name: 'FTMO 100K',
      preset: 'ftmo-2step-challenge',
      startTime: DEPOSIT.time,
      initialBalance: '100000.0000',
    });
    expect(set.rules.map((r) => r.kind)).toEqual(['profit_target', 'daily_loss', 'max_loss', 'min_trading_days']);
  });

  it('answers on the closed-only basis and never passes', async () => {
    const status = await ok<RuleStatus>(await get(alice.token, `/api/v1/rules/get_status/${set.id}`));
    expect(status.equityBasis).toBe('closed-only');
    expect(status.state).not.toBe('passed');
    expect(status.passedAt).toBeNull();
    expect(status.tradingDays).toEqual({ done: 3, required: 4 });
    const target = status.rules.find((r) => r.kind === 'profit_target')!;
    expect(target).toMatchObject({ unit: 'money', used: '11700.0000', ok: true });
    // At a time before the last trades.
    const early = await ok<RuleStatus>(
      await get(alice.token, `/api/v1/rules/get_status/${set.id}?at=2026-11-02T12:00:00Z`),
    );
    expect(early.rules.find((r) => r.kind === 'profit_target')!.used).toBe('1000.0000');
    expect(early.state).not.toBe('passed');
  });

  it('gives a record for every calendar day, weekends included', async () => {
    const days = await ok<DayRecord[]>(await get(alice.token, `/api/v1/rules/get_days/${set.id}`));
    // Prague days from 11-02 to 11-20.
    expect(days.map((d) => d.date)).toEqual(
      Array.from({ length: 19 }, (_, i) => `2026-11-${String(i + 2).padStart(2, '0')}`),
    );
    expect(days.filter((d) => d.tradingDay).map((d) => d.date)).toEqual(['2026-11-02', '2026-11-03', '2026-11-04']);
    const some = await ok<DayRecord[]>(
      await get(alice.token, `/api/v1/rules/get_days/${set.id}?from=2026-11-07T00:00:00Z&to=2026-11-08T12:00:00Z`),
    );
    // Prague days: 11-07 starts at 11-06 23:00 UTC, so 11-06 ends before `from`.
    expect(some.map((d) => d.date)).toEqual(['2026-11-07', '2026-11-08']);
  });

  it('is another user’s to nobody: 404 on every route, and nothing changes', async () => {
    for (const url of [`/api/v1/rules/get_status/${set.id}`, `/api/v1/rules/get_days/${set.id}`]) {
      const res = await get(bob.token, url);
      expect(res.statusCode, url).toBe(404);
    }
    expect((await post(bob.token, `/api/v1/rules/edit_rule_set/${set.id}`, { name: 'Mine' })).statusCode).toBe(404);
    expect((await post(bob.token, `/api/v1/rules/delete_rule_set/${set.id}`)).statusCode).toBe(404);
    expect(await listOf(bob.token)).toEqual([]);
    expect((await listOf(alice.token)).find((s) => s.id === set.id)?.name).toBe('FTMO 100K');
    const theirs = await create(bob.token, { accountId: KEY, name: 'Not mine', preset: 'personal' });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json<{ message: string }>().message).toContain('accountId');
    expect(await listOf(bob.token)).toEqual([]);
    const breaks = await get(bob.token, `/api/v1/rules/get_breaks?accountId=${LOGIN}`);
    expect(breaks.statusCode).toBe(404);
  });
});

describe('personal rules', () => {
  it('replaces the preset’s rule of the same kind and lists the trades that broke a rule', async () => {
    const set = await ok<StoredRuleSet>(
      await create(alice.token, {
        accountId: KEY,
        name: 'Mine',
        preset: 'personal',
        startTime: '2026-11-02T07:30:00Z',
        initialBalance: '100000',
        rules: [{ kind: 'max_trades_per_day', effect: 'pause_until_reset', params: { max: 1 } }],
      }),
    );
    const limits = set.rules.filter((r) => r.kind === 'max_trades_per_day');
    expect(limits).toHaveLength(1);
    expect(limits[0]!.params).toMatchObject({ max: 1 });
    const breaks = await ok<RuleTradeBreak[]>(await get(alice.token, `/api/v1/rules/get_breaks?accountId=${LOGIN}`));
    const mine = breaks.filter((b) => b.ruleSetId === set.id).map((b) => [b.tradeKey, b.kind, b.rule.kind]);
    expect(mine).toEqual([
      ['9001', 'max_risk_per_trade', 'max_risk_per_trade'],
      ['9003', 'max_trades_per_day', 'max_trades_per_day'],
    ]);
    const later = await ok<RuleTradeBreak[]>(await get(alice.token, '/api/v1/rules/get_breaks?from=2026-11-03'));
    expect(later.filter((b) => b.ruleSetId === set.id).map((b) => b.tradeKey)).toEqual(['9003']);
  });

  it('edits and deletes a set', async () => {
    const set = await ok<StoredRuleSet>(
      await create(alice.token, {
        accountId: KEY,
        name: 'Draft',
        rules: [{ kind: 'max_trades_per_day', params: { max: 3 } }],
      }),
    );
    const edited = await ok<StoredRuleSet>(
      await post(alice.token, `/api/v1/rules/edit_rule_set/${set.id}`, {
        name: 'Three a day',
        rules: [{ kind: 'max_trades_per_day', params: { max: 2 } }],
      }),
    );
    expect(edited).toMatchObject({ name: 'Three a day', startTime: set.startTime, initialBalance: set.initialBalance });
    expect(edited.rules[0]!.params).toMatchObject({ max: 2 });
    expect((await listOf(alice.token)).find((s) => s.id === set.id)?.name).toBe('Three a day');
    expect((await post(alice.token, `/api/v1/rules/delete_rule_set/${set.id}`)).statusCode).toBe(200);
    expect((await get(alice.token, `/api/v1/rules/get_status/${set.id}`)).statusCode).toBe(404);
    expect((await post(alice.token, `/api/v1/rules/delete_rule_set/${set.id}`)).statusCode).toBe(404);
  });
});

describe('bad input', () => {
  it.each([
    ['an unknown kind', { rules: [{ kind: 'max_lots', params: {} }] }, 'kind'],
    ['a negative percent', { rules: [{ kind: 'daily_loss', params: { pct: -5 } }] }, 'pct'],
    ['an unknown zone', { rules: [{ kind: 'daily_loss', params: { pct: 5, zone: 'Mars/Olympus' } }] }, 'zone'],
    ['an unknown preset', { preset: 'ftmo-9step' }, 'preset'],
    ['a bad start', { startTime: 'yesterday' }, 'startTime'],
    ['a zero balance', { initialBalance: '0' }, 'initialBalance'],
    [
      'two reset zones',
      {
        preset: 'ftmo-2step-challenge',
        rules: [{ kind: 'max_trades_per_day', params: { max: 2, zone: 'America/New_York' } }],
      },
      'zone',
    ],
  ])('refuses %s with a message naming the field, storing nothing', async (_, body, field) => {
    const before = await listOf(alice.token);
    const res = await create(alice.token, { accountId: KEY, name: 'Bad', ...body });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toContain(field);
    expect(await listOf(alice.token)).toEqual(before);
  });

  it('refuses an account that is not the user’s, and a time before the start', async () => {
    const res = await create(alice.token, { accountId: '123', name: 'X', preset: 'personal' });
    expect(res.statusCode).toBe(404);
    const [set] = await listOf(alice.token);
    const early = await get(alice.token, `/api/v1/rules/get_status/${set!.id}?at=2020-01-01`);
    expect(early.statusCode).toBe(400);
    expect(early.json<{ message: string }>().message).toContain('at');
    const edit = await post(alice.token, `/api/v1/rules/edit_rule_set/${set!.id}`, {
      rules: [{ kind: 'max_loss', params: { pct: 120 } }],
    });
    expect(edit.statusCode).toBe(400);
    expect(edit.json<{ message: string }>().message).toContain('pct');
    expect((await listOf(alice.token)).find((s) => s.id === set!.id)).toEqual(set);
  });
});
