import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';
import { createTestDb } from '../../test/harness';
import { insertUser } from '../../test/rows';
import { oandaAccount } from '../trading/account-key';
import { generateSyntheticTrades } from '../../test/synthetic-trades';
import { engineTradeFromItem, type EngineTrade } from './engine';
import { createBookRows } from '../trade-views';
import { createOverviewTrades, overviewSelection, sliceBook } from './overview-trades';
import { createBookCache } from './book-cache';

/*
 * The Overview's read of the trades on the suite's database (SQLite: raw rows; PostgreSQL with PIPSENSE_TEST_PG:
 * Kysely's): one platform's book mapped as engine/from-records.ts maps a trade, and every slice filtered in memory
 * the same as with the filters in SQL (the path of a book too large to keep).
 */
let db: Db;
let close: () => Promise<void>;
const AT = '2025-10-03T14:30:00.000Z';
const DEMO = ['101-004-1-001', '101-004-1-002'];
const LIVE = '001-004-9-001';

/** OANDA's stored form of a time: nine fractional digits. */
const stored = (ms: number) => `${new Date(ms).toISOString().slice(0, 23)}123456Z`;
const text = (v: number | null) => (v === null ? null : String(v));

async function account(userId: string, mode: 'demo' | 'live', login: string) {
  const identity = oandaAccount(mode, login);
  await db.kysely
    .insertInto('broker_accounts')
    .values({
      id: randomUUID(),
      user_id: userId,
      account_key: identity.account_key,
      platform: 'oanda',
      server: identity.server,
      login,
      mode,
      currency: 'USD',
      hedging_enabled: 0,
      synced_at: AT,
      version: 1,
      created_at: AT,
      updated_at: AT,
    })
    .execute();
  return identity.account_key;
}

async function insertTrades(userId: string, mode: 'demo' | 'live', trades: readonly EngineTrade[]) {
  const rows = trades.map((t) => ({
    user_id: userId,
    account_key: oandaAccount(mode, t.accountId).account_key,
    trade_id: t.tradeId,
    trade_num: Number(t.tradeId),
    mode,
    instrument: t.instrument,
    price: String(t.openPrice),
    initial_units: String(t.units),
    current_units: String(t.currentUnits),
    realized_pl: t.realizedPL.toFixed(4),
    unrealized_pl: t.state === 'CLOSED' ? null : t.unrealizedPL.toFixed(4),
    financing: t.financing.toFixed(4),
    state: t.state,
    open_time: stored(t.openTime),
    close_time: t.closeTime === null ? null : stored(t.closeTime),
    average_close_price: text(t.closePrice),
    stop_loss_price: text(t.stopLossPrice),
    take_profit_price: text(t.takeProfitPrice),
    trailing_stop_distance: text(t.trailingStopDistance),
    initial_stop_loss_price: text(t.stopLossPrice),
    created_at: AT,
    updated_at: AT,
  }));
  for (let i = 0; i < rows.length; i += 100)
    await db.kysely
      .insertInto('trades')
      .values(rows.slice(i, i + 100))
      .execute();
  return rows;
}

let demoRows: Awaited<ReturnType<typeof insertTrades>>;
let liveKey: string;

beforeEach(async () => {
  const test = await createTestDb();
  db = test.db;
  close = test.close;
  await migrateToLatest(db);
  for (const id of ['u1', 'u2']) await insertUser(db.kysely, id, AT);
  for (const login of DEMO) await account('u1', 'demo', login);
  liveKey = await account('u1', 'live', LIVE);
  await account('u2', 'demo', DEMO[0]!);
  const demo = generateSyntheticTrades(400, 5).map((t, i) => ({ ...t, accountId: DEMO[i % 2]! }));
  demoRows = await insertTrades('u1', 'demo', demo);
  const live = generateSyntheticTrades(60, 6).map((t) => ({ ...t, accountId: LIVE, tradeId: `9${t.tradeId}` }));
  await insertTrades('u1', 'live', live);
  await insertTrades(
    'u2',
    'demo',
    generateSyntheticTrades(50, 7).map((t) => ({ ...t, accountId: DEMO[0]! })),
  );
  await db.kysely
    .insertInto('journal_tags')
    .values(
      ['t1', 't2'].map((id) => ({
        id,
        user_id: 'u1',
        kind: 'setup',
        name: id,
        name_key: id,
        created_at: AT,
        updated_at: AT,
      })),
    )
    .execute();
  await db.kysely
    .insertInto('trade_tags')
    .values(
      demoRows
        .filter((_, i) => i % 7 === 0)
        .map((r, i) => ({
          user_id: 'u1',
          account_key: r.account_key,
          trade_id: r.trade_id,
          tag_id: i % 2 === 0 ? 't1' : 't2',
          created_at: AT,
        })),
    )
    .execute();
});
afterEach(() => close());

const ids = (trades: readonly EngineTrade[]) => trades.map((t) => `${t.accountId}|${t.tradeId}`);

describe('the Overview book', () => {
  it('maps every trade of the platform as engineTradeFromItem does, oldest first, and no other user’s', async () => {
    const source = createOverviewTrades(createBookRows(db.kysely));
    const book = await source.book('u1', 'oanda');
    expect(book.trades).toHaveLength(460);
    expect(await source.count('u1', 'oanda')).toBe(460);
    expect(await source.count('u1', 'metatrader')).toBe(0);
    for (let i = 1; i < book.trades.length; i++)
      expect(book.trades[i]!.openTime).toBeGreaterThanOrEqual(book.trades[i - 1]!.openTime);
    expect(book.modes.filter((m) => m === 'live')).toHaveLength(60);
    expect(book.accountKeys.filter((k) => k === liveKey)).toHaveLength(60);
    const byId = new Map(book.trades.map((t) => [`${t.accountId}|${t.tradeId}`, t]));
    for (const r of demoRows) {
      const accountId = r.account_key.split(':').at(-1)!;
      const expected = engineTradeFromItem(
        {
          accountId,
          tradeId: r.trade_id,
          instrument: r.instrument,
          price: r.price,
          initialUnits: r.initial_units,
          currentUnits: r.current_units,
          realizedPL: r.realized_pl,
          unrealizedPL: r.unrealized_pl,
          financing: r.financing,
          state: r.state,
          openTime: r.open_time,
          closeTime: r.close_time,
          averageClosePrice: r.average_close_price,
          stopLossPrice: r.stop_loss_price,
          takeProfitPrice: r.take_profit_price,
          trailingStopDistance: r.trailing_stop_distance,
        },
        r.initial_stop_loss_price,
      );
      expect(byId.get(`${accountId}|${r.trade_id}`)).toEqual(expected);
    }
  });

  it('slices in memory exactly as the filters in SQL do', async () => {
    const source = createOverviewTrades(createBookRows(db.kysely));
    const book = await source.book('u1', 'oanda');
    const tagRows = await db.kysely.selectFrom('trade_tags').selectAll().where('user_id', '=', 'u1').execute();
    const tagsByTrade = new Map<string, string[]>();
    for (const r of tagRows) {
      const key = `${r.account_key.split(':').at(-1)!}|${r.trade_id}`;
      tagsByTrade.set(key, [...(tagsByTrade.get(key) ?? []), r.tag_id]);
    }
    const middle = book.trades[200]!.openTime;
    const slices: Array<Parameters<typeof overviewSelection>[0]> = [
      { platform: 'oanda', mode: 'demo' },
      { platform: 'oanda', mode: 'live' },
      { platform: 'oanda', accountId: DEMO[1] },
      { platform: 'oanda', accountId: liveKey },
      { platform: 'oanda', accountId: 'nobody' },
      { platform: 'oanda', instrument: book.trades[0]!.instrument },
      { platform: 'oanda', from: new Date(middle).toISOString() },
      { platform: 'oanda', to: new Date(middle).toISOString(), mode: 'demo' },
      { platform: 'oanda', tag: ['t2'] },
      { platform: 'oanda', tag: ['t1', 't2'], accountId: DEMO[0] },
      { platform: 'metatrader' },
    ];
    for (const slice of slices) {
      const selection = overviewSelection(slice);
      const facts = {
        accountKeys: slice.accountId ? await source.accountKeysNamed('u1', slice.accountId) : undefined,
        tagsByTrade,
      };
      const inMemory = slice.platform === 'oanda' ? sliceBook(book, selection, facts) : [];
      const inSql = await source.slice('u1', selection);
      expect(ids(inMemory), JSON.stringify(slice)).toEqual(ids(inSql));
      if (slice.platform === 'oanda' && slice.accountId !== 'nobody') expect(inMemory.length).toBeGreaterThan(0);
    }
    // The bounds are inclusive to the millisecond (stored times carry nanoseconds past it).
    const instant = new Date(middle).toISOString();
    const at = sliceBook(book, overviewSelection({ platform: 'oanda', from: instant, to: instant }));
    expect(at.map((t) => t.openTime)).toContain(middle);
    // A book out of open-time order is tested trade by trade instead of cut by binary search: the same trades.
    const reversed = {
      trades: [...book.trades].reverse(),
      accountKeys: [...book.accountKeys].reverse(),
      modes: [...book.modes].reverse(),
    };
    for (const bounds of [{ from: instant }, { to: instant }, { from: instant, to: instant }]) {
      const selection = overviewSelection({ platform: 'oanda', ...bounds });
      expect(ids(sliceBook(reversed, selection)).reverse()).toEqual(ids(sliceBook(book, selection)));
    }
  });
});

describe('the book cache', () => {
  const bookOf = (n: number) => ({
    trades: generateSyntheticTrades(n, n),
    accountKeys: Array.from({ length: n }, () => 'k'),
    modes: Array.from({ length: n }, () => 'demo' as const),
  });

  it('holds one book per key and version, reads it once however many ask, and drops the least recently used', async () => {
    const cache = createBookCache(100);
    let reads = 0;
    const read = (n: number) => () => {
      reads += 1;
      return Promise.resolve(bookOf(n));
    };
    const [a, b] = await Promise.all([cache.get('u1', 1, read(40)), cache.get('u1', 1, read(40))]);
    expect(a).toBe(b);
    expect(reads).toBe(1);
    expect(cache.held('u1', 1)).toBe(a);
    expect(cache.held('u1', 2)).toBeUndefined(); // another version is never served

    await cache.get('u2', 1, read(40));
    expect(cache.held('u1', 1)).toBe(a); // u1 is now the most recently used
    await cache.get('u3', 1, read(40)); // 120 > 100: u2 goes
    expect(cache.held('u2', 1)).toBeUndefined();
    expect(cache.held('u1', 1)).toBe(a);
    expect(cache.size()).toBe(80);

    const newer = await cache.get('u1', 2, read(10));
    expect(cache.held('u1', 1)).toBeUndefined();
    expect(cache.held('u1', 2)).toBe(newer);
    expect(cache.size()).toBe(50);

    // Too large to keep: served, not held.
    expect(cache.fits(101)).toBe(false);
    const huge = await cache.get('u4', 1, read(101));
    expect(huge.trades).toHaveLength(101);
    expect(cache.held('u4', 1)).toBeUndefined();
    expect(cache.size()).toBe(50);
  });
});
