// The selection's two readings agree: the SQL (selection-sql.ts) picks exactly the trades the in-memory matcher
// (selection.ts) picks, on generated trades and selections, on the suite's database (SQLite, or PostgreSQL).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { migrateToLatest } from '../../db/migrate';
import { createTestDb } from '../../test/harness';
import { insertUser } from '../../test/rows';
import { accountKeysOf, selectTrades } from './selection-sql';
import { selectionMatcher, type ReviewFact, type SelectableTrade, type TradeSelection } from './selection';

const USER = 'user-selection';
const OTHER = 'user-selection-other';
const AT = '2025-01-01T00:00:00.000Z';
const BASE = Date.parse('2025-03-01T00:00:00.000Z');
const MINUTE = 60_000;

/** Accounts: two OANDA logins and a MetaTrader account sharing the first login. */
const ACCOUNTS = [
  { key: 'oanda:fxpractice:L1', platform: 'oanda', server: 'fxpractice', login: 'L1' },
  { key: 'oanda:fxpractice:L2', platform: 'oanda', server: 'fxpractice', login: 'L2' },
  { key: 'metatrader:Broker-Live:L1', platform: 'metatrader', server: 'Broker-Live', login: 'L1' },
] as const;
const KEYS = ACCOUNTS.map((a) => a.key);
const TAGS = ['tag-a', 'tag-b', 'tag-c'];
const NOTES = ['', 'Breakout on NEWS', 'fomo 100%', 'moved_stop', 'calm'];
const PLAYBOOKS = ['pb-a', 'pb-b'];

interface GeneratedTrade {
  key: number;
  mode: 'demo' | 'live';
  instrument: string;
  short: boolean;
  state: 'OPEN' | 'CLOSED' | 'CLOSE_WHEN_TRADEABLE';
  openMinute: number;
  openNanos: boolean;
  closeAfter: number | null;
  closeNanos: boolean;
  realized: string;
  unrealized: string | null;
  stopLoss: boolean;
  takeProfit: boolean;
  note: string | null;
  tags: string[];
  review: ReviewFact | null;
}

const decimal = fc
  .tuple(fc.integer({ min: -400, max: 400 }), fc.integer({ min: 0, max: 4 }))
  .map(([n, places]) => (n / 10 ** places).toFixed(places));
const money = fc.oneof(decimal, fc.constantFrom('0', '0.0000', '-0.0000', '12.5', '-12.5'));

const trade: fc.Arbitrary<GeneratedTrade> = fc.record({
  key: fc.integer({ min: 0, max: KEYS.length - 1 }),
  mode: fc.constantFrom('demo' as const, 'live' as const),
  instrument: fc.constantFrom('EUR_USD', 'USD_JPY', 'XAU_USD'),
  short: fc.boolean(),
  state: fc.constantFrom('OPEN' as const, 'CLOSED' as const, 'CLOSE_WHEN_TRADEABLE' as const),
  openMinute: fc.integer({ min: 0, max: 8 }),
  openNanos: fc.boolean(),
  closeAfter: fc.option(fc.integer({ min: 0, max: 6 })),
  closeNanos: fc.boolean(),
  realized: money,
  unrealized: fc.option(money),
  stopLoss: fc.boolean(),
  takeProfit: fc.boolean(),
  note: fc.option(fc.constantFrom(...NOTES)),
  tags: fc.subarray(TAGS),
  review: fc.option(
    fc
      .tuple(fc.constantFrom(...PLAYBOOKS), fc.constantFrom(null, true, false))
      .map(([playbookId, followedAll]) => ({ playbookId, reviewed: followedAll !== null, followedAll })),
  ),
});

/** A bound on the trades' minute grid, or a millisecond beside one. */
const bound = fc
  .tuple(fc.integer({ min: 0, max: 9 }), fc.constantFrom(-1, 0, 0, 1))
  .map(([m, ms]) => new Date(BASE + m * MINUTE + ms).toISOString());

/** Every field a selection may set, each on its own: a selection sets one to three of them. */
const FIELDS: { [K in keyof TradeSelection]-?: fc.Arbitrary<TradeSelection[K]> } = {
  platform: fc.constantFrom('oanda' as const, 'metatrader' as const),
  mode: fc.constantFrom('demo' as const, 'live' as const),
  account: fc.constantFrom('L1', 'L2', 'L9', ...KEYS),
  instrument: fc.constantFrom('EUR_USD', 'USD_JPY'),
  side: fc.constantFrom('long' as const, 'short' as const),
  state: fc.constantFrom('open' as const, 'closed' as const),
  time: fc.record(
    {
      basis: fc.constantFrom('open' as const, 'close' as const),
      ends: fc.constantFrom('both' as const, 'from' as const),
      from: bound,
      to: bound,
    },
    { requiredKeys: ['basis', 'ends'] },
  ),
  outcome: fc.oneof(
    fc.record({
      of: fc.constant('realized' as const),
      is: fc.constantFrom('win' as const, 'loss' as const, 'breakeven' as const),
    }),
    fc.record({ of: fc.constant('total' as const), is: fc.constantFrom('winners' as const, 'losers' as const) }),
  ),
  tags: fc.subarray(TAGS, { minLength: 1 }),
  noteText: fc.constantFrom('news', 'NEWS', 'o', '100%', '_', 'calm'),
  hasNote: fc.boolean(),
  stopLoss: fc.boolean(),
  takeProfit: fc.boolean(),
  // Keys of stored trades (`<account key> <trade id>`, ids from 100) and of none; an empty set too.
  ruleBreak: fc.record({
    broke: fc.boolean(),
    keys: fc
      .array(fc.tuple(fc.constantFrom(...KEYS), fc.integer({ min: 100, max: 116 })), { maxLength: 8 })
      .map((pairs) => new Set(pairs.map(([key, id]) => `${key} ${id}`))),
  }),
  // The flagged trades of a behaviour pattern: keys as ruleBreak's.
  pattern: fc.record({
    keys: fc
      .array(fc.tuple(fc.constantFrom(...KEYS), fc.integer({ min: 100, max: 116 })), { maxLength: 8 })
      .map((pairs) => new Set(pairs.map(([key, id]) => `${key} ${id}`))),
  }),
  playbookId: fc.constantFrom(...PLAYBOOKS, 'pb-none'),
  playbookReview: fc.constantFrom('followed' as const, 'broke' as const, 'unreviewed' as const),
};
const selection: fc.Arbitrary<TradeSelection> = fc
  .subarray(Object.keys(FIELDS) as Array<keyof TradeSelection>, { minLength: 1, maxLength: 3 })
  .chain((names) => fc.record(Object.fromEntries(names.map((n) => [n, FIELDS[n]]))) as fc.Arbitrary<TradeSelection>);

/** A stored time: the millisecond's text, then nanoseconds (a broker's time, or an import's whole seconds). */
const storedTime = (ms: number, nanos: boolean) =>
  `${new Date(ms).toISOString().slice(0, 23)}${nanos ? '500001' : '000000'}Z`;

let testDb: Awaited<ReturnType<typeof createTestDb>>;
let db: Kysely<Database>;

beforeAll(async () => {
  testDb = await createTestDb();
  await migrateToLatest(testDb.db);
  db = testDb.db.kysely;
  for (const user of [USER, OTHER]) await insertUser(db, user, AT);
  for (const user of [USER, OTHER])
    for (const a of ACCOUNTS)
      await db
        .insertInto('broker_accounts')
        .values({
          id: `${user}-${a.key}`,
          user_id: user,
          account_key: a.key,
          platform: a.platform,
          server: a.server,
          login: a.login,
          mode: 'demo',
          synced_at: AT,
          version: 0,
          created_at: AT,
          updated_at: AT,
        })
        .execute();
  for (const id of TAGS)
    await db
      .insertInto('journal_tags')
      .values({ id, user_id: USER, kind: 'setup', name: id, name_key: id, created_at: AT, updated_at: AT })
      .execute();
  for (const id of PLAYBOOKS)
    await db
      .insertInto('playbooks')
      .values({
        id,
        user_id: USER,
        name: id,
        description: '',
        instruments: '[]',
        sessions: '[]',
        default_risk_pct: null,
        created_at: AT,
        updated_at: AT,
      })
      .execute();
});
afterAll(async () => {
  await testDb.close();
});

/** Replaces the stored trades, notes and tags with these; the other user gets a copy of each trade. */
async function store(trades: readonly GeneratedTrade[]): Promise<SelectableTrade[]> {
  await db.deleteFrom('trade_tags').execute();
  await db.deleteFrom('trade_reviews').execute();
  await db.deleteFrom('trade_notes').execute();
  await db.deleteFrom('trades').execute();
  const out: SelectableTrade[] = [];
  for (const [i, t] of trades.entries()) {
    const key = KEYS[t.key]!;
    const openMs = BASE + t.openMinute * MINUTE;
    const closeMs = t.closeAfter === null ? null : openMs + t.closeAfter * MINUTE;
    const units = t.short ? '-1000' : '1000';
    const row = {
      account_key: key,
      trade_id: String(100 + i),
      trade_num: 100 + i,
      mode: t.mode,
      instrument: t.instrument,
      price: '1.10000',
      initial_units: units,
      current_units: t.state === 'CLOSED' ? '0' : units,
      realized_pl: t.realized,
      unrealized_pl: t.unrealized,
      financing: '0.0000',
      state: t.state,
      open_time: storedTime(openMs, t.openNanos),
      close_time: closeMs === null ? null : storedTime(closeMs, t.closeNanos),
      average_close_price: null,
      stop_loss_price: t.stopLoss ? '1.09000' : null,
      take_profit_price: t.takeProfit ? '1.12000' : null,
      trailing_stop_distance: null,
      initial_stop_loss_price: null,
      mae_price: null,
      mfe_price: null,
      excursion_status: null,
      platform: key.split(':')[0]!,
      created_at: AT,
      updated_at: AT,
    };
    await db
      .insertInto('trades')
      .values([
        { ...row, user_id: USER },
        { ...row, user_id: OTHER },
      ])
      .execute();
    if (t.note !== null)
      await db
        .insertInto('trade_notes')
        .values({
          user_id: USER,
          account_key: key,
          trade_id: row.trade_id,
          note: t.note,
          rating: null,
          created_at: AT,
          updated_at: AT,
        })
        .execute();
    for (const tag of t.tags)
      await db
        .insertInto('trade_tags')
        .values({ user_id: USER, account_key: key, trade_id: row.trade_id, tag_id: tag, created_at: AT })
        .execute();
    if (t.review !== null)
      await db
        .insertInto('trade_reviews')
        .values({
          user_id: USER,
          account_key: key,
          trade_id: row.trade_id,
          playbook_id: t.review.playbookId,
          reviewed: t.review.reviewed ? 1 : 0,
          rule_ids: '[]',
          followed_rule_ids: '[]',
          followed_all: t.review.followedAll === null ? null : t.review.followedAll ? 1 : 0,
          updated_at: AT,
        })
        .execute();
    out.push({
      accountKey: key,
      platform: row.platform,
      mode: row.mode,
      instrument: row.instrument,
      initialUnits: units,
      state: row.state,
      openTime: openMs,
      closeTime: closeMs,
      realizedPL: row.realized_pl,
      unrealizedPL: row.unrealized_pl,
      stopLossPrice: row.stop_loss_price,
      takeProfitPrice: row.take_profit_price,
    });
  }
  return out;
}

const idOf = (t: { accountKey: string }, i: number) => `${t.accountKey} ${100 + i}`;

describe('a trade selection', () => {
  it('picks the same trades in SQL as in memory', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(trade, { maxLength: 14 }),
        fc.array(selection, { minLength: 8, maxLength: 12 }),
        async (trades, selections) => {
          const stored = await store(trades);
          for (const s of selections) {
            const rows = await selectTrades(db, USER, s).select(['trades.account_key', 'trades.trade_id']).execute();
            const bySql = rows.map((r) => `${r.account_key} ${r.trade_id}`).sort();
            const matches = selectionMatcher(s, {
              accountKeys: s.account ? await accountKeysOf(db, USER, s.account) : undefined,
              tagIds: (t) => trades[stored.indexOf(t)]!.tags,
              note: (t) => trades[stored.indexOf(t)]!.note,
              tradeKey: (t) => idOf(t, stored.indexOf(t)),
              review: (t) => trades[stored.indexOf(t)]!.review ?? undefined,
            });
            const inMemory = stored.flatMap((t, i) => (matches(t) ? [idOf(t, i)] : [])).sort();
            expect(bySql, JSON.stringify(s)).toEqual(inMemory);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("selects by flagged keys beyond both engines' limits on parameters (SQLite 32,766, PostgreSQL 65,535)", async () => {
    await db.deleteFrom('trade_tags').execute();
    await db.deleteFrom('trade_reviews').execute();
    await db.deleteFrom('trade_notes').execute();
    await db.deleteFrom('trades').execute();
    const TRADES = 72_000;
    const key = KEYS[0]!;
    const rows = Array.from({ length: TRADES }, (_, i) => ({
      user_id: USER,
      account_key: key,
      trade_id: String(100 + i),
      trade_num: 100 + i,
      mode: 'demo',
      instrument: 'EUR_USD',
      price: '1.10000',
      initial_units: '1000',
      current_units: '0',
      realized_pl: '1.0000',
      unrealized_pl: null,
      financing: '0.0000',
      state: 'CLOSED',
      open_time: storedTime(BASE + i * MINUTE, false),
      close_time: storedTime(BASE + i * MINUTE + 1, false),
      average_close_price: null,
      stop_loss_price: null,
      take_profit_price: null,
      trailing_stop_distance: null,
      initial_stop_loss_price: null,
      mae_price: null,
      mfe_price: null,
      excursion_status: null,
      platform: 'oanda',
      created_at: AT,
      updated_at: AT,
    }));
    for (let at = 0; at < rows.length; at += 1_000)
      await db
        .insertInto('trades')
        .values(rows.slice(at, at + 1_000))
        .execute();
    // Every trade but each 36th: 70,000 keys, with keys of trades not stored (another account, an unknown id).
    const flagged = rows.filter((_, i) => i % 36 !== 0).map((r) => `${r.account_key} ${r.trade_id}`);
    expect(flagged.length).toBe(70_000);
    const keys = new Set([...flagged, `${KEYS[1]!} 100`, `${key} 999999`]);
    const count = async (s: TradeSelection) =>
      Number(
        (
          await selectTrades(db, USER, s)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count({ pattern: { keys } })).toBe(70_000);
    expect(await count({ ruleBreak: { broke: true, keys } })).toBe(70_000);
    expect(await count({ ruleBreak: { broke: false, keys } })).toBe(TRADES - 70_000);
    const page = await selectTrades(db, USER, { pattern: { keys } })
      .select('trades.trade_id')
      .orderBy('trades.trade_num')
      .limit(3)
      .execute();
    expect(page.map((r) => r.trade_id)).toEqual(['101', '102', '103']);
    await db.deleteFrom('trades').execute();
  }, 120_000);
});
