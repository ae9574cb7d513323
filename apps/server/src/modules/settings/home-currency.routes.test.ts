import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../db/client';
import { createTestApp, type TestApp } from '../../test/harness';
import { userIdOf, writeCurrencyBook, USD_JPY_BOOK } from '../../test/currency-book';
import { currencyOfMostTrades } from './settings.service';

let t: TestApp;
let db: Db;
beforeAll(async () => {
  t = await createTestApp();
  db = createDb({ dataDir: t.dataDir, databaseUrl: t.env.DATABASE_URL });
});
afterAll(async () => {
  await db.close();
  await t.close();
});

const getHome = (token: string | undefined) =>
  t.call(token, { method: 'GET', url: '/api/v1/account/get_home_currency' });
const setHome = (token: string | undefined, payload: unknown) =>
  t.call(token, { method: 'POST', url: '/api/v1/account/update_home_currency', payload: payload as object });

describe('the home currency', () => {
  it('is USD by default for a user without trades', async () => {
    const u = await t.user('home');
    const res = await getHome(u.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { currency: 'USD', isDefault: true } });
  });

  it('defaults to the currency of the most trades, then keeps the one saved', async () => {
    const u = await t.user('home');
    // JPY has 2 trades, USD 1.
    await writeCurrencyBook(db.kysely, await userIdOf(db.kysely, u.username), USD_JPY_BOOK);
    expect((await getHome(u.token)).json()).toMatchObject({ data: { currency: 'JPY', isDefault: true } });

    const saved = await setHome(u.token, { currency: 'EUR' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      success: true,
      message: 'Home currency set to EUR.',
      data: { currency: 'EUR', isDefault: false },
    });
    expect((await getHome(u.token)).json()).toMatchObject({ data: { currency: 'EUR', isDefault: false } });
  });

  it('refuses what is not an ISO 4217 code with a message that says what to send, changing nothing', async () => {
    const u = await t.user('home');
    await setHome(u.token, { currency: 'GBP' });
    for (const body of [
      { currency: 'usd' },
      { currency: 'US' },
      { currency: 'DOLLARS' },
      { currency: 'ZZZ' },
      { currency: 12 },
      { currency: '' },
      {},
      { currency: "USD'; DROP TABLE user_info; --" },
    ]) {
      const res = await setHome(u.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ success: boolean; message: string }>().message).toMatch(
        /currency must be an ISO 4217 code of three capital letters, such as USD/,
      );
    }
    expect((await setHome(u.token, { currency: 'ZZZ' })).json<{ message: string }>().message).toMatch(
      /not an ISO 4217 currency/,
    );
    expect((await getHome(u.token)).json()).toMatchObject({ data: { currency: 'GBP', isDefault: false } });
  });

  it('is each user’s own: one user’s choice and trades do not move another’s', async () => {
    const a = await t.user('home');
    const b = await t.user('home');
    await writeCurrencyBook(db.kysely, await userIdOf(db.kysely, a.username), USD_JPY_BOOK);
    await setHome(a.token, { currency: 'CHF' });
    expect((await getHome(b.token)).json()).toMatchObject({ data: { currency: 'USD', isDefault: true } });
    await setHome(b.token, { currency: 'AUD' });
    expect((await getHome(a.token)).json()).toMatchObject({ data: { currency: 'CHF' } });
    // A body naming another user changes nothing: the route only ever writes the signed-in user's row.
    await setHome(b.token, { currency: 'NZD', userId: await userIdOf(db.kysely, a.username) });
    expect((await getHome(a.token)).json()).toMatchObject({ data: { currency: 'CHF' } });
    expect((await getHome(b.token)).json()).toMatchObject({ data: { currency: 'NZD' } });
  });

  it('needs a signed-in user', async () => {
    expect((await getHome(undefined)).statusCode).toBe(401);
    expect((await setHome(undefined, { currency: 'USD' })).statusCode).toBe(401);
    expect((await setHome('not-a-token', { currency: 'USD' })).statusCode).toBe(401);
  });
});

describe('currencyOfMostTrades', () => {
  it('takes the most trades, ties to the alphabetically first, and skips unknown currencies', () => {
    expect(
      currencyOfMostTrades([
        { currency: 'USD', trades: 3 },
        { currency: 'JPY', trades: 5 },
        { currency: '', trades: 9 },
      ]),
    ).toBe('JPY');
    expect(
      currencyOfMostTrades([
        { currency: 'USD', trades: 4 },
        { currency: 'EUR', trades: 4 },
      ]),
    ).toBe('EUR');
    expect(currencyOfMostTrades([])).toBeNull();
  });
});
