import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardMetricsResponse, type DashboardMetrics } from '@pipsense/contract';
import { ratesFromCloses, type DailyRates } from '../../domain/currency-totals';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { importedAccount, importedTrade } from '../../test/imported-book';
import { userIdOf } from '../../test/seed-trades';
import { createTradingService } from '../trading';

/*
 * The Overview's return (docs/money.md, Returns on the Overview), on SQLite and PostgreSQL: time-weighted over the
 * combined balance of each currency's accounts in view, cut at every deposit and withdrawal of any of them, one per
 * currency and never converted; the filters; a balance operation stored later moves the data version and the
 * snapshot's return with it.
 */

const NOW = new Date('2026-11-20T12:00:00Z');
const SERVER = 'Returns-Demo';
const key = (login: string) => `metatrader:${SERVER}:${login}`;

const account = (login: string, currency: string) =>
  importedAccount({ server: SERVER, login, currency, name: 'Jane Trader', broker: 'Returns Broker' });

/** A balance operation at a UTC time (the broker's clock is UTC here). */
const op = (time: string, type: string, amount: string, ticket: string | null = null) => ({
  ticket,
  type,
  amount,
  comment: null,
  serverTime: time.slice(0, 19),
  time: new Date(time).toISOString(),
});

/** A trade closed at `close` (UTC), opened an hour before, with no commission nor swap. */
const closed = (ticket: string, close: string, realizedPL: string) => {
  const open = new Date(Date.parse(close) - 3_600_000).toISOString();
  return importedTrade({ ticket, openTime: open, closeTime: close, serverOpenTime: open.slice(0, 19), realizedPL });
};

/*
 * By hand, the two USD accounts A and B as one balance:
 *   11-01 deposit A 10,000.00                    10,000.00
 *   11-02 A closes +500.00                       10,500.00
 *   11-03 deposit B 5,000.00   (growth 1.05)     15,500.00
 *   11-04 B closes −310.00                       15,190.00
 *   11-05 withdrawal A −2,000  (growth 0.98)     13,190.00
 *   11-06 A closes +659.50     (growth 1.05)     13,849.50
 * TWR: 1.05 × 0.98 × 1.05 = 1.08045 → 8.0450 %. The gain over the money put in (836.50 on 13,000) would say 6.43 %.
 * The EUR account C: deposit 1,000.00 on 11-01, −12.00 on 11-02: 988 / 1,000 → −1.2000 %, listed apart.
 */
const A = { login: '1001', currency: 'USD' };
const B = { login: '1002', currency: 'USD' };
const C = { login: '2001', currency: 'EUR' };
const BOOKS = [
  {
    ...A,
    trades: [closed('11', '2026-11-02T10:00:00Z', '500.00'), closed('12', '2026-11-06T10:00:00Z', '659.50')],
    ops: [
      op('2026-11-01T07:00:00Z', 'balance', '10000.00', '101'),
      op('2026-11-05T07:00:00Z', 'balance', '-2000.00', '102'),
    ],
  },
  {
    ...B,
    trades: [closed('21', '2026-11-04T10:00:00Z', '-310.00')],
    ops: [op('2026-11-03T07:00:00Z', 'balance', '5000.00', '201')],
  },
  {
    ...C,
    trades: [closed('31', '2026-11-02T12:00:00Z', '-12.00')],
    ops: [op('2026-11-01T08:00:00Z', 'balance', '1000.00', '301')],
  },
];

/** No rate at first (listed); a test may swap in EUR_USD closes. */
let rates: DailyRates = ratesFromCloses({ close: () => Promise.resolve(null) });
let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let trading: ReturnType<typeof createTradingService>;

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestApp({}, { db: testDb.db, now: () => NOW, ratesFor: () => rates });
  trading = createTradingService({
    db: testDb.db.kysely,
    oanda: {} as never,
    settings: { oandaCredentials: () => Promise.resolve(undefined) },
    now: () => NOW,
  });
});
afterAll(async () => {
  await t.close();
  await testDb.close();
});

async function trader(): Promise<{ token: string; id: string }> {
  const user = await t.user('returns');
  const id = await userIdOf(testDb.db.kysely, user.username);
  for (const book of BOOKS) await trading.storeImport(id, account(book.login, book.currency), book.trades, book.ops);
  return { token: user.token, id };
}

async function overview(token: string, query = ''): Promise<DashboardMetrics> {
  const res = await t.call(token, { method: 'GET', url: `/api/v1/dashboard/metrics?platform=metatrader${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return dashboardMetricsResponse.parse(res.json()).data;
}

describe('the Overview’s return', () => {
  it('is time-weighted over each currency’s accounts as one balance, listed per currency, from the snapshot', async () => {
    const { token } = await trader();
    const data = await overview(token);
    expect(data.currency?.mode).toBe('listed');
    expect(data.returns).toEqual([
      { currency: 'EUR', total: '-1.2000', accounts: 1 },
      { currency: 'USD', total: '8.0450', accounts: 2 },
    ]);
    // The stored snapshot carries it.
    expect((await overview(token)).returns).toEqual(data.returns);
  });

  it('follows the account and date filters; a slice by instrument has none', async () => {
    const { token } = await trader();
    // A alone: 10,500 / 10,000 × 9,159.50 / 8,500 = 1.1314676… → 13.1468 %.
    expect((await overview(token, `&accountId=${encodeURIComponent(key(A.login))}`)).returns).toEqual([
      { currency: 'USD', total: '13.1468', accounts: 1 },
    ]);
    // From 11-03: what came before only sets the starting value (USD 10,500; EUR 988, with nothing after).
    expect((await overview(token, '&from=2026-11-03T00:00:00Z')).returns).toEqual([
      { currency: 'EUR', total: '0.0000', accounts: 1 },
      { currency: 'USD', total: '2.9000', accounts: 2 },
    ]);
    expect((await overview(token, '&instrument=EUR_USD')).returns).toBeNull();
  });

  it('is empty without bookings', async () => {
    const user = await t.user('empty');
    expect((await overview(user.token)).returns).toEqual([]);
  });

  it('moves with a balance operation stored later: the data version moves and the snapshot follows', async () => {
    const { token, id } = await trader();
    expect((await overview(token)).returns?.find((r) => r.currency === 'USD')?.total).toBe('8.0450');
    // A correction of −100.00 on 11-07 is performance: 13,749.50 / 13,190 in the last sub-period → 7.2649 %.
    const a = BOOKS[0]!;
    await trading.storeImport(id, account(a.login, a.currency), a.trades, [
      ...a.ops,
      op('2026-11-07T07:00:00Z', 'correction', '-100.00', '103'),
    ]);
    expect((await overview(token)).returns).toEqual([
      { currency: 'EUR', total: '-1.2000', accounts: 1 },
      { currency: 'USD', total: '7.2649', accounts: 2 },
    ]);
  });

  it('stays one per currency when the money is converted: an exchange move is not performance', async () => {
    const { token } = await trader();
    rates = ratesFromCloses({ close: (instrument) => Promise.resolve(instrument === 'EUR_USD' ? '1.10000' : null) });
    try {
      const data = await overview(token);
      expect(data.currency?.mode).toBe('converted');
      expect(data.returns).toEqual([
        { currency: 'EUR', total: '-1.2000', accounts: 1 },
        { currency: 'USD', total: '8.0450', accounts: 2 },
      ]);
    } finally {
      rates = ratesFromCloses({ close: () => Promise.resolve(null) });
    }
  });
});
