import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalendarResponse } from '@pipsense/contract';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { noDailyRates, ratesFromCloses, type DailyRates } from '../../domain/currency-totals';
import { userIdOf, writeCurrencyBook, USD_JPY_BOOK } from '../../test/currency-book';

/* The P/L calendar of a USD and a JPY account (docs/decisions/024-currencies-never-mixed.md). */

let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let rates: DailyRates = noDailyRates;
const usdJpy = ratesFromCloses({
  close: (instrument, day) =>
    Promise.resolve(
      instrument === 'USD_JPY' ? ({ '2025-03-14': '150.000', '2025-03-17': '149.250' }[day] ?? null) : null,
    ),
});

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestApp({}, { db: testDb.db, ratesFor: () => rates });
});
afterAll(async () => {
  await t.close();
  await testDb.close();
});

async function march(token: string) {
  const res = await t.call(token, { method: 'GET', url: '/api/v1/journal/get_calendar?month=2025-03' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CalendarResponse>().data;
}

async function trader(home: string) {
  const user = await t.user('cal');
  await writeCurrencyBook(testDb.db.kysely, await userIdOf(testDb.db.kysely, user.username), USD_JPY_BOOK);
  await t.call(user.token, {
    method: 'POST',
    url: '/api/v1/account/update_home_currency',
    payload: { currency: home },
  });
  return user.token;
}

describe('the P/L calendar of two currencies', () => {
  it('without rates lists each day per currency and never adds them', async () => {
    rates = noDailyRates;
    const data = await march(await trader('USD'));
    expect(data.currency).toEqual({ mode: 'listed', home: 'USD', currencies: ['JPY', 'USD'] });
    expect(data.days.map((d) => [d.date, d.netPL, d.byCurrency])).toEqual([
      [
        '2025-03-14',
        null,
        [
          { currency: 'JPY', amount: '-45000.0000' },
          { currency: 'USD', amount: '1200.5000' },
        ],
      ],
      ['2025-03-17', null, [{ currency: 'JPY', amount: '-337286.6300' }]],
    ]);
  });

  it('with rates converts each day into the home currency at its close day rate', async () => {
    rates = usdJpy;
    try {
      const data = await march(await trader('USD'));
      expect(data.currency).toMatchObject({ mode: 'converted', home: 'USD' });
      // 14 March: 1,200.50 − 45,000 / 150 = 900.50; 17 March: −337,286.63 / 149.25 = −2,259.8769.
      expect(data.days.map((d) => [d.date, d.netPL, d.currency])).toEqual([
        ['2025-03-14', '900.5000', 'USD'],
        ['2025-03-17', '-2259.8769', 'USD'],
      ]);
    } finally {
      rates = noDailyRates;
    }
  });
});
