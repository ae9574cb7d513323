import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardMetricsResponse, type DashboardMetrics } from '@pipsense/contract';
import { createDb, type Db } from '../../db/client';
import { ratesFromCloses } from '../../domain/currency-totals';
import { createTestApp, type TestApp } from '../../test/harness';
import { userIdOf, writeCurrencyBook, USD_JPY_BOOK } from '../../test/currency-book';
import { overviewEngineRuns } from './analytics.service';

/*
 * The Overview of a USD and a JPY account (docs/decisions/024-currencies-never-mixed.md): never one plain sum; with
 * rates, converted into the home currency to the cent; without, listed per currency.
 */

/** USD_JPY daily closes: the close days of the book's trades, and 150 on any other day (the accounts' balances). */
const CLOSES: Record<string, string> = { '2025-03-14': '150.000', '2025-03-17': '149.250' };
const fixedRates = () =>
  ratesFromCloses({
    close: (instrument, day) => Promise.resolve(instrument === 'USD_JPY' ? (CLOSES[day] ?? '150.000') : null),
  });

/** What the old overview showed: 1,200.50 − 45,000 − 337,286.63 added as plain numbers. */
const PLAIN_SUM = '-381,086.13';

/** The rates the app with rates reads (a test may swap them). */
let rates = fixedRates();
let withRates: TestApp;
let without: TestApp;
let db: Db;
beforeAll(async () => {
  without = await createTestApp();
  db = createDb({ dataDir: without.dataDir, databaseUrl: without.env.DATABASE_URL });
  withRates = await createTestApp({}, { db, ratesFor: () => rates });
});
afterAll(async () => {
  await withRates.close();
  await db.close();
  await without.close();
});

async function overview(app: TestApp, token: string, query = ''): Promise<DashboardMetrics> {
  const res = await app.call(token, { method: 'GET', url: `/api/v1/dashboard/metrics${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return dashboardMetricsResponse.parse(res.json()).data;
}

async function traderWith(app: TestApp, book = USD_JPY_BOOK): Promise<string> {
  const user = await app.user('fx');
  await writeCurrencyBook(db.kysely, await userIdOf(db.kysely, user.username), book);
  return user.token;
}

describe('the Overview of a USD and a JPY account', () => {
  it('without rates lists every money figure per currency, never one plain sum', async () => {
    const token = await traderWith(without);
    const data = await overview(without, token);
    expect(data.currency).toMatchObject({
      mode: 'listed',
      home: 'JPY',
      currencies: ['JPY', 'USD'],
      chartsCurrency: 'JPY',
    });
    expect(data.money?.netPL).toEqual({
      mode: 'listed',
      byCurrency: [
        { currency: 'JPY', amount: '-382286.63' },
        { currency: 'USD', amount: '1200.50' },
      ],
    });
    expect(data.performanceMetrics?.['Net P/L']).toBe('-382,286.63 JPY · 1,200.50 USD');
    expect(data.summary).toContain('net P/L -382,286.63 JPY and 1,200.50 USD');
    // Counts span both accounts; only money is kept apart.
    expect(data.tradeCount).toBe(3);
    expect(data.performanceMetrics?.['Closed Trades']).toMatch(/^3 /);
    expect(JSON.stringify(data)).not.toContain(PLAIN_SUM);
    // No value of the run over both currencies reaches the answer: each money value is one per currency, or '-'.
    expect(JSON.stringify(data)).not.toContain('MIXED');
    expect(data.behavioralAnalysis?.['Best Weekday']).toBe('-');
    // The charts are of one currency's accounts, and say which.
    expect(data.charts.equityCurve.at(-1)?.value).toBe(-382286.63);
    expect(data.currency?.note).toMatch(/No exchange rates to convert USD into JPY/);
  });

  it('with rates converts into the home currency at each close day’s rate, to the cent', async () => {
    const token = await traderWith(withRates);
    const set = await withRates.call(token, {
      method: 'POST',
      url: '/api/v1/account/update_home_currency',
      payload: { currency: 'USD' },
    });
    expect(set.statusCode).toBe(200);
    const data = await overview(withRates, token);
    // By hand: 1,200.50 − 45,000 / 150 − 337,286.63 / 149.25 = 1,200.50 − 300.00 − 2,259.8769 = −1,359.3769.
    expect(data.money?.netPL).toEqual({ mode: 'converted', currency: 'USD', amount: '-1359.38', from: ['JPY', 'USD'] });
    expect(data.performanceMetrics?.['Net P/L']).toBe('-1,359.38 USD');
    expect(data.performanceMetrics?.['Largest Loss']).toBe('-2,259.88 USD');
    expect(data.charts.equityCurve.at(-1)?.value).toBe(-1359.38);
    expect(data.currency).toMatchObject({ mode: 'converted', home: 'USD', chartsCurrency: 'USD' });
    expect(JSON.stringify(data)).not.toContain(PLAIN_SUM);

    // A filtered view follows the same rule.
    const march17 = await overview(withRates, token, '?from=2025-03-17&to=2025-03-18');
    // (The view still spans both accounts, so its money is converted: −337,286.63 / 149.25.)
    expect(march17.money?.netPL).toMatchObject({ mode: 'converted', currency: 'USD', amount: '-2259.88' });
  });

  it('with rates but one missing day lists per currency', async () => {
    const token = await traderWith(withRates, [
      ...USD_JPY_BOOK.slice(0, 1),
      {
        ...USD_JPY_BOOK[1]!,
        login: '101-004-7000001-003',
        trades: [{ pl: '-100.0000', close: '2025-03-20T09:00:00.000Z' }],
      },
    ]);
    const noRate = ratesFromCloses({
      close: (instrument, day) => Promise.resolve(instrument === 'USD_JPY' && day !== '2025-03-20' ? '150.000' : null),
    });
    rates = noRate;
    try {
      await withRates.call(token, {
        method: 'POST',
        url: '/api/v1/account/update_home_currency',
        payload: { currency: 'USD' },
      });
      const data = await overview(withRates, token);
      expect(data.money?.netPL).toEqual({
        mode: 'listed',
        byCurrency: [
          { currency: 'JPY', amount: '-100.00' },
          { currency: 'USD', amount: '1200.50' },
        ],
      });
    } finally {
      rates = fixedRates();
    }
  });

  it('a stored listed overview is converted once the rate it lacked is known, with no change of data', async () => {
    const token = await traderWith(withRates);
    rates = ratesFromCloses({ close: () => Promise.resolve(null) });
    try {
      const set = await withRates.call(token, {
        method: 'POST',
        url: '/api/v1/account/update_home_currency',
        payload: { currency: 'USD' },
      });
      expect(set.statusCode).toBe(200);
      const runs = overviewEngineRuns();
      expect((await overview(withRates, token)).currency?.mode).toBe('listed');
      // Still no rate: the stored snapshot is served as it is (one rate asked, no computation).
      expect((await overview(withRates, token)).currency?.mode).toBe('listed');
      expect(overviewEngineRuns()).toBe(runs + 1);

      // The rates arrive (the candle store read them), the trades and accounts stay as they were.
      rates = fixedRates();
      const data = await overview(withRates, token);
      expect(data.money?.netPL).toEqual({
        mode: 'converted',
        currency: 'USD',
        amount: '-1359.38',
        from: ['JPY', 'USD'],
      });
      expect(overviewEngineRuns()).toBe(runs + 2);
      // Converted, it is the snapshot again until the data changes.
      expect(await overview(withRates, token)).toEqual(data);
      expect(overviewEngineRuns()).toBe(runs + 2);
    } finally {
      rates = fixedRates();
    }
  });

  it('a one-currency trader sees the figures with their code, as before', async () => {
    const token = await traderWith(withRates, USD_JPY_BOOK.slice(0, 1));
    const data = await overview(withRates, token);
    expect(data.currency).toMatchObject({ mode: 'single', home: 'USD', currencies: ['USD'] });
    expect(data.money?.netPL).toEqual({ mode: 'single', currency: 'USD', amount: '1200.50' });
    expect(data.performanceMetrics?.['Net P/L']).toBe('1,200.50 USD');
  });
});
