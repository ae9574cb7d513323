import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InfoRecord, TradeListResponse } from '@pipsense/contract';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { oandaInfoRecord } from '../../test/oanda-user';
import { userIdOf } from '../../test/seed-trades';
import { importedAccount, importedTrade } from '../../test/imported-book';
import { createExcursionJob } from './excursions-job';
import { createTradingService } from './trading.service';

/*
 * Saving the OANDA settings as the trader does (POST /api/v1/account/update_info) queues the excursions of imported
 * trades again when it connects OANDA or changes the token, not when it saves the same token
 * (docs/decisions/012-metatrader-import.md, Excursions). On SQLite and PostgreSQL.
 */

const NOW = '2026-11-20T12:00:00.000Z';

let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let user: { token: string; username: string };
let userId: string;

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestApp({}, { db: testDb.db });
  user = await t.user('importer');
  userId = await userIdOf(testDb.db.kysely, user.username);
  const trading = createTradingService({
    db: testDb.db.kysely,
    oanda: {} as never,
    settings: { oandaCredentials: () => Promise.resolve(undefined) },
    now: () => new Date(NOW),
  });
  await trading.storeImport(userId, importedAccount(), [
    importedTrade({ ticket: '1' }),
    importedTrade({ ticket: '2', symbol: 'US30', instrument: 'US30' }),
  ]);
});
afterAll(async () => {
  await t.close();
  await testDb.close();
});

/** One run of the MAE/MFE job as it runs for a user without OANDA: every closed trade becomes unavailable. */
async function evaluateWithoutConnection(): Promise<void> {
  await createExcursionJob({
    db: testDb.db.kysely,
    candles: { read: () => Promise.reject(new Error('no candle source: not asked')) },
    credentials: () => Promise.resolve(undefined),
    now: () => new Date(NOW),
  }).runOnce();
}

/** The imported trades' excursion states as the trade list shows them, by ticket. */
async function states(): Promise<Record<string, string | null>> {
  const res = await t.call(user.token, { method: 'GET', url: '/api/v1/trade/get_trade_history?platform=metatrader' });
  expect(res.statusCode, res.body).toBe(200);
  return Object.fromEntries(res.json<TradeListResponse>().data.map((x) => [x.tradeId, x.excursion]));
}

async function save(record: InfoRecord): Promise<void> {
  const res = await t.call(user.token, { method: 'POST', url: '/api/v1/account/update_info', payload: record });
  expect(res.statusCode, res.body).toBe(200);
}

describe('connecting OANDA after an import', () => {
  it('queues the trades on OANDA instruments again on connect and on a new token, not on a save of the same one', async () => {
    await evaluateWithoutConnection();
    expect(await states()).toEqual({ '1': 'unavailable', '2': 'unavailable' });

    await save(oandaInfoRecord({ oanda: { accessToken: 'first-token' } }));
    // The list (its cached page too) shows the OANDA instrument's trade pending; the broker symbol stays unavailable.
    expect(await states()).toEqual({ '1': 'pending', '2': 'unavailable' });

    // Settled again (as if the token had not worked: no candles), then the settings saved with the masked token.
    await evaluateWithoutConnection();
    expect(await states()).toEqual({ '1': 'unavailable', '2': 'unavailable' });
    const info = await t.call(user.token, { method: 'GET', url: '/api/v1/account/get_info' });
    await save(info.json<{ data: InfoRecord }>().data);
    expect(await states()).toEqual({ '1': 'unavailable', '2': 'unavailable' });

    // A new token: looked at again.
    await save(oandaInfoRecord({ oanda: { accessToken: 'second-token' } }));
    expect(await states()).toEqual({ '1': 'pending', '2': 'unavailable' });
  });
});
