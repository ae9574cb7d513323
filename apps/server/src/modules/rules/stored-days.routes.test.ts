import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DayRecord, RuleStatus, StoredRuleSet } from '@pipsense/contract';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { closedAt, importedAccount, importedOperation } from '../../test/imported-book';
import { userIdOf } from '../../test/seed-trades';
import { createTradingService } from '../trading';

/*
 * Stored day records (docs/rules.md, Status) on SQLite and PostgreSQL: the status and days now come from the stored
 * records, which never answer for data that changed: a trade added on a past day, a day gone by, the set edited or
 * deleted. Each answer is checked against the whole pass (`?at=`, never stored).
 */

const SERVER = 'Stored-Demo';
const LOGIN = '7770009';
const ACCOUNT = importedAccount({ server: SERVER, login: LOGIN, currency: 'USD' });
const DEPOSIT = importedOperation({ ticket: '5001', amount: '100000.00', serverTime: '2026-11-02T07:00:00' });
const TRADES = [
  closedAt('9001', '2026-11-02T08:00:00', '2026-11-02T10:00:00', '1000.00'),
  closedAt('9002', '2026-11-03T08:00:00', '2026-11-03T12:00:00', '-600.00'),
  closedAt('9003', '2026-11-04T08:00:00', '2026-11-04T09:00:00', '-700.00'),
  closedAt('9004', '2026-11-09T08:00:00', '2026-11-09T09:00:00', '300.00'),
];

let now = '2026-11-10T12:00:00.000Z';
let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let alice: { token: string; username: string };
let store: (trades: ReturnType<typeof closedAt>[]) => Promise<void>;

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestApp({}, { db: testDb.db, now: () => new Date(now) });
  alice = await t.user('alice');
  const trading = createTradingService({
    db: testDb.db.kysely,
    oanda: {} as never,
    settings: { oandaCredentials: () => Promise.resolve(undefined) },
    now: () => new Date(now),
  });
  const userId = await userIdOf(testDb.db.kysely, alice.username);
  store = async (trades) => {
    await trading.storeImport(userId, ACCOUNT, trades, [DEPOSIT]);
  };
  await store(TRADES);
});
afterAll(async () => {
  await t.close();
  await testDb.close();
});

async function ok<T>(res: Awaited<ReturnType<TestApp['call']>>): Promise<T> {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: T }>().data;
}
const get = <T>(url: string) => t.call(alice.token, { method: 'GET', url }).then((res) => ok<T>(res));
const post = <T>(url: string, payload: object = {}) =>
  t.call(alice.token, { method: 'POST', url, payload }).then((res) => ok<T>(res));

const storedRows = async (id: string) => ({
  days: await testDb.db.kysely
    .selectFrom('rule_days')
    .select(['day', 'date', 'digest'])
    .where('rule_set_id', '=', id)
    .orderBy('day')
    .execute(),
  state: await testDb.db.kysely
    .selectFrom('rule_set_states')
    .selectAll()
    .where('rule_set_id', '=', id)
    .executeTakeFirst(),
});

/** The status and days now (stored) and the whole pass's status at the same instant. */
async function answers(id: string) {
  const status = await get<RuleStatus>(`/api/v1/rules/get_status/${id}`);
  const days = await get<DayRecord[]>(`/api/v1/rules/get_days/${id}`);
  const whole = await get<RuleStatus>(`/api/v1/rules/get_status/${id}?at=${now}`);
  return { status, days, whole };
}

describe('stored day records', () => {
  let set: StoredRuleSet;

  beforeAll(async () => {
    set = await post<StoredRuleSet>('/api/v1/rules/create_rule_set', {
      accountId: LOGIN,
      name: 'Mine',
      preset: 'personal',
      rules: [
        { kind: 'profit_target', effect: 'fail', params: { pct: 10 } },
        { kind: 'max_consecutive_losses', effect: 'fail', params: { max: 2 } },
      ],
    });
  });

  it('stores the completed days and answers as the whole pass', async () => {
    const { status, days, whole } = await answers(set.id);
    expect(status).toEqual(whole);
    const rows = await storedRows(set.id);
    expect(rows.days.map((d) => d.date)).toEqual(days.slice(0, -1).map((d) => d.date));
    expect(rows.state?.through_day).toBe(rows.days.at(-1)!.day);
    expect(days.at(-1)!.date).toBe('2026-11-10');
  });

  it('answers from the stored status while nothing changed (no recomputation)', async () => {
    const before = (await storedRows(set.id)).state!;
    now = '2026-11-10T13:00:00.000Z';
    const { status, whole } = await answers(set.id);
    expect(status).toEqual(whole);
    expect((await storedRows(set.id)).state!.computed_at).toBe(before.computed_at);
  });

  it('a trade added on a past day changes the status and that day, from that day on', async () => {
    const before = await answers(set.id);
    const digests = (await storedRows(set.id)).days;
    // A third loss in a row on 11-05: the streak rule breaks there.
    await store([...TRADES, closedAt('9010', '2026-11-05T08:00:00', '2026-11-05T09:00:00', '-400.00')]);
    const after = await answers(set.id);
    expect(after.status).toEqual(after.whole);
    expect(after.status).not.toEqual(before.status);
    expect(after.status.state).toBe('breached');
    expect(after.status.breach?.rule).toBe('max_consecutive_losses');
    const day = after.days.find((d) => d.date === '2026-11-05')!;
    expect(day.closedPL).toBe('-400.0000');
    expect(day.breaks).toContain('max_consecutive_losses');
    // The days before it kept their digests; 11-05 has a new one.
    const rows = (await storedRows(set.id)).days;
    const at = rows.findIndex((r) => r.date === '2026-11-05');
    expect(rows.slice(0, at)).toEqual(digests.slice(0, at));
    expect(rows[at]!.digest).not.toBe(digests[at]!.digest);
    const breaks = await get<Array<{ tradeKey: string }>>(`/api/v1/rules/get_breaks`);
    expect(breaks.map((b) => b.tradeKey)).toContain('9010');
  });

  it('a trade closed today and days gone by are recomputed', async () => {
    now = '2026-11-12T15:00:00.000Z';
    await store([
      ...TRADES,
      closedAt('9010', '2026-11-05T08:00:00', '2026-11-05T09:00:00', '-400.00'),
      closedAt('9011', '2026-11-12T08:00:00', '2026-11-12T09:00:00', '900.00'),
    ]);
    const { status, days, whole } = await answers(set.id);
    expect(status).toEqual(whole);
    expect(days.at(-1)).toMatchObject({ date: '2026-11-12', closedPL: '900.0000' });
    expect((await storedRows(set.id)).days.at(-1)!.date).toBe('2026-11-11');
  });

  it('an edit drops the stored rows, and the next answer follows the edited rules', async () => {
    const before = await get<RuleStatus>(`/api/v1/rules/get_status/${set.id}`);
    await post(`/api/v1/rules/edit_rule_set/${set.id}`, {
      rules: [{ kind: 'max_consecutive_losses', effect: 'fail', params: { max: 5 } }],
    });
    const rows = await storedRows(set.id);
    expect(rows.days).toEqual([]);
    expect(rows.state).toBeUndefined();
    const { status, whole } = await answers(set.id);
    expect(status).toEqual(whole);
    expect(status).not.toEqual(before);
    expect(status.state).toBe('on_track');
  });

  it('a deletion removes the stored rows', async () => {
    await post(`/api/v1/rules/delete_rule_set/${set.id}`, { id: set.id });
    const rows = await storedRows(set.id);
    expect(rows.days).toEqual([]);
    expect(rows.state).toBeUndefined();
  });
});
