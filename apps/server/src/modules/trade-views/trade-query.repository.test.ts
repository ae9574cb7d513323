import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';
import { createTestDb } from '../../test/harness';
import { insertUser } from '../../test/rows';
import { oandaAccount } from '../trading/account-key';
import type { TradeSelection } from './selection';
import { storedTimeBound } from './selection-sql';
import { createTradeQueryRepository } from './trade-query.repository';

const A = '101-004-1000001-001';
const B = '101-004-1000001-002';
const T = (day: number, hour = 0) =>
  `2025-03-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000000000Z`;

let db: Db;
let cleanup: () => Promise<void>;

interface Seed {
  id: number;
  account?: string;
  mode?: 'demo' | 'live';
  instrument?: string;
  open: string;
  close?: string;
  realized?: string;
  unrealized?: string | null;
  sl?: boolean;
  tp?: boolean;
}

const SEEDS: Seed[] = [
  { id: 1, open: T(1), close: T(2), realized: '10.5000', sl: true },
  { id: 2, open: T(3), close: T(10, 5), realized: '-3.2500', tp: true },
  { id: 3, open: T(4), close: T(10, 6), realized: '250.0000', sl: true, tp: true, instrument: 'GBP_USD' },
  { id: 4, open: T(9), close: T(11), realized: '0.0000' },
  { id: 5, open: T(10, 1), close: T(12), realized: '-120.7500', sl: true },
  // Open: counted by open time; P/L is realized plus unrealized (a partly closed trade).
  { id: 6, open: T(10, 2), realized: '5.0000', unrealized: '-7.5000', sl: true },
  { id: 7, open: T(12), realized: '0.0000', unrealized: '99.1000' },
  { id: 8, account: B, open: T(5), close: T(13), realized: '9.9900', instrument: 'GBP_USD' },
  // Same P/L as trade 1: ties go newest first.
  { id: 9, open: T(6), close: T(8), realized: '10.5000' },
  // Other mode: never in a demo answer.
  { id: 10, mode: 'live', open: T(10), close: T(10, 3), realized: '1000.0000' },
];

async function openDb(): Promise<Db> {
  const test = await createTestDb();
  cleanup = test.close;
  return test.db;
}

async function addUser(id: string) {
  const now = '2025-03-01T00:00:00.000Z';
  await insertUser(db.kysely, id, now);
  for (const [account, mode] of [
    [A, 'demo'],
    [B, 'demo'],
    ['001-1', 'live'],
  ] as const)
    await db.kysely
      .insertInto('broker_accounts')
      .values({
        id: `${id}-${account}`,
        user_id: id,
        ...oandaAccount(mode, account),
        mode,
        synced_at: now,
        version: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
  for (const s of SEEDS)
    await db.kysely
      .insertInto('trades')
      .values({
        user_id: id,
        account_key:
          s.mode === 'live'
            ? oandaAccount('live', '001-1').account_key
            : oandaAccount('demo', s.account ?? A).account_key,
        trade_id: String(s.id),
        trade_num: s.id,
        mode: s.mode ?? 'demo',
        instrument: s.instrument ?? 'EUR_USD',
        price: '1.10000',
        initial_units: '1000',
        current_units: s.close ? '0' : '1000',
        realized_pl: s.realized ?? '0',
        unrealized_pl: s.close ? null : (s.unrealized ?? null),
        financing: '0.0000',
        state: s.close ? 'CLOSED' : 'OPEN',
        open_time: s.open,
        close_time: s.close ?? null,
        average_close_price: null,
        stop_loss_price: s.sl ? '1.09000' : null,
        take_profit_price: s.tp ? '1.12000' : null,
        trailing_stop_distance: null,
        // The first stop the sync kept: on the trades with a stop-loss, the other user's a different one.
        initial_stop_loss_price: s.sl ? (id === 'u1' ? '1.09500' : '1.09000') : null,
        created_at: '2025-03-13T00:00:00.000Z',
        updated_at: s.id === 10 ? '2025-03-15T00:00:00.000Z' : `2025-03-14T00:00:0${s.id % 10}.000Z`,
      })
      .execute();
}

beforeAll(async () => {
  db = await openDb();
  await migrateToLatest(db);
  await addUser('u1');
  await addUser('u2');
});
afterAll(async () => cleanup());

/** The assistant's question of the demo trades: closed trades by close time, open ones by open time, [from, to). */
const demo = (q: Omit<TradeSelection, 'time'> & { from?: string; to?: string } = {}): TradeSelection => {
  const { from, to, ...rest } = q;
  return { mode: 'demo', ...rest, time: from || to ? { basis: 'close', ends: 'from', from, to } : undefined };
};
const ids = (rows: Array<{ tradeId: string }>) => rows.map((r) => r.tradeId);

describe('the trade query repository', () => {
  it('filters by state, instrument, stop-loss and take-profit presence, within the user and mode', async () => {
    const repo = createTradeQueryRepository(db.kysely);
    expect(ids(await repo.top('u1', demo({ state: 'open' }), 'oldest', 50))).toEqual(['6', '7']);
    expect(ids(await repo.top('u1', demo({ state: 'closed', instrument: 'GBP_USD' }), 'oldest', 50))).toEqual([
      '3',
      '8',
    ]);
    expect(ids(await repo.top('u1', demo({ stopLoss: true, takeProfit: false }), 'oldest', 50))).toEqual([
      '1',
      '6',
      '5',
    ]);
    expect(ids(await repo.top('u1', demo({ stopLoss: false, takeProfit: true }), 'oldest', 50))).toEqual(['2']);
    expect(ids(await repo.top('u1', demo(), 'oldest', 50))).toHaveLength(9);
    expect(ids(await repo.top('nobody', demo(), 'oldest', 50))).toEqual([]);
  });

  it('counts closed trades by close time and open ones by open time, bounds from inclusive and to exclusive', async () => {
    const repo = createTradeQueryRepository(db.kysely);
    const march10 = demo({ from: '2025-03-10T00:00:00.000Z', to: '2025-03-11T00:00:00.000Z' });
    // 6 opened on the 10th, 2 and 3 closed then (opened before); 4 opened on the 9th and closed on the 11th.
    // Oldest first by each trade's own time: 6 (02:00), 2 (05:00), 3 (06:00).
    expect(ids(await repo.top('u1', march10, 'oldest', 50))).toEqual(['6', '2', '3']);
    const to = demo({ to: '2025-03-10T05:00:00.000Z', state: 'closed' });
    expect(ids(await repo.top('u1', to, 'oldest', 50))).toEqual(['1', '9']);
    expect(storedTimeBound('2025-03-10T05:00:00.000Z')).toBe('2025-03-10T05:00:00.000000000Z');
  });

  it('sorts by P/L numerically (realized plus unrealized), ties newest first, and keeps the top N', async () => {
    const repo = createTradeQueryRepository(db.kysely);
    expect(ids(await repo.top('u1', demo(), 'pl_desc', 4))).toEqual(['3', '7', '9', '1']);
    expect(ids(await repo.top('u1', demo(), 'pl_asc', 3))).toEqual(['5', '2', '6']);
    expect(ids(await repo.top('u1', demo(), 'newest', 2))).toEqual(['8', '7']);
    expect(ids(await repo.top('u1', demo({ outcome: { of: 'total', is: 'winners' } }), 'pl_asc', 50))).toEqual([
      '8',
      '9',
      '1',
      '7',
      '3',
    ]);
    expect(ids(await repo.top('u1', demo({ outcome: { of: 'total', is: 'losers' } }), 'pl_desc', 50))).toEqual([
      '6',
      '2',
      '5',
    ]);
  });

  it('gives the figures of every match oldest first, and the newest write per mode', async () => {
    const repo = createTradeQueryRepository(db.kysely);
    const figures = await repo.figures('u1', demo({ state: 'closed', outcome: { of: 'total', is: 'winners' } }));
    expect(figures.map((f) => [f.trade_id, f.account_id, f.realized_pl])).toEqual([
      ['1', A, '10.5000'],
      ['3', A, '250.0000'],
      ['8', B, '9.9900'],
      ['9', A, '10.5000'],
    ]);
    expect(await repo.latestWrite('u1', { mode: 'demo' })).toBe('2025-03-14T00:00:09.000Z');
    expect(await repo.latestWrite('u1', { mode: 'demo', state: 'closed' })).toBe('2025-03-14T00:00:09.000Z');
    expect(await repo.latestWrite('u1', { mode: 'live' })).toBe('2025-03-15T00:00:00.000Z');
    expect(await repo.latestWrite('nobody', { mode: 'demo' })).toBeNull();
  });

  it("gives every selected trade oldest first with the user's own first stop", async () => {
    const repo = createTradeQueryRepository(db.kysely);
    const closed = await repo.trades('u1', demo({ state: 'closed', instrument: 'EUR_USD' }));
    expect(closed.map((t) => [t.tradeId, t.initialStopLossPrice])).toEqual([
      ['1', '1.09500'],
      ['2', null],
      ['9', null],
      ['4', null],
      ['5', '1.09500'],
    ]);
    expect((await repo.trades('u2', demo({ stopLoss: true }))).map((t) => t.initialStopLossPrice)).toEqual(
      Array(4).fill('1.09000'),
    );
  });
});
