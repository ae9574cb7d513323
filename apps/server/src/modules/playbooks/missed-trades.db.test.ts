// Missed trades' outcomes through the service with a counting candle source, on the suite's database: one read per
// instrument and span of overlapping windows, settled outcomes kept (no read the second time), an edit reads again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Candle } from '../candles';
import { migrateToLatest } from '../../db/migrate';
import { createTestDb } from '../../test/harness';
import { insertUser } from '../../test/rows';
import { createPlaybooksRepository } from './playbooks.repository';
import { createPlaybooksService, NO_CANDLE_SOURCE } from './playbooks.service';

const USER = 'user-missed';
const NOW = Date.parse('2025-03-06T00:00:00Z');
const LATER = Date.parse('2025-03-20T00:00:00Z');
let testDb: Awaited<ReturnType<typeof createTestDb>>;

beforeAll(async () => {
  testDb = await createTestDb();
  await migrateToLatest(testDb.db);
  await insertUser(testDb.db.kysely, USER, '2025-01-01T00:00:00.000Z');
});
afterAll(async () => {
  await testDb.close();
});

/** Five-minute EUR/USD candles from 3 March 10:00: flat at 1.1000 but for a high of 1.1050 at 10:15. */
function eurUsd(from: string, to: string): Candle[] {
  const out: Candle[] = [];
  for (let ms = Math.max(Date.parse(from), Date.UTC(2025, 2, 3, 10)); ms < Date.parse(to); ms += 300_000) {
    const spike = ms === Date.UTC(2025, 2, 3, 10, 15);
    const time = new Date(ms).toISOString();
    out.push({
      time,
      o: '1.1000',
      h: spike ? '1.1050' : '1.1005',
      l: '1.0995',
      c: '1.1000',
      volume: 1,
      complete: true,
    });
    if (out.length > 3000) break;
  }
  return out;
}

function serviceWith(candles: Parameters<typeof createPlaybooksService>[0]['candles'], now = NOW) {
  return createPlaybooksService({
    repository: createPlaybooksRepository(testDb.db.kysely),
    trading: { ownedTrades: () => Promise.resolve([]) },
    views: {
      tradeBatches: () => Promise.reject(new Error('unused')),
      accountCurrencies: () => Promise.resolve(new Map()),
    },
    candles,
    homeCurrencyOf: () => Promise.resolve('USD'),
    now: () => new Date(now),
  });
}

const LONG = { instrument: 'EUR_USD', side: 'long' as const, entry: '1.1000', stop: '1.0980', note: '' };

describe('missed trades’ outcomes', () => {
  it('reads each instrument’s overlapping windows once, keeps settled outcomes, reads again after an edit', async () => {
    const reads: string[] = [];
    const service = serviceWith((_user, request) => {
      reads.push(`${request.instrument} ${request.from} ${request.to}`);
      return Promise.resolve(request.instrument === 'EUR_USD' ? eurUsd(request.from, request.to) : []);
    });
    // Two EUR/USD setups a few minutes apart (one span), one on GBP/USD.
    const hit = await service.createMissed(USER, { ...LONG, time: '2025-03-03T10:00:00.000Z', target: '1.1040' });
    expect(hit).toMatchObject({ outcome: 'target', wouldBeR: 2, outcomeTime: '2025-03-03T10:15:00.000Z' });
    await service.createMissed(USER, { ...LONG, time: '2025-03-03T10:20:00.000Z', target: '1.1040' });
    await service.createMissed(USER, {
      ...LONG,
      instrument: 'GBP_USD',
      time: '2025-03-04T10:00:00.000Z',
      target: null,
    });
    reads.length = 0;

    const list = await service.missedTrades(USER, {});
    expect(list.map((m) => [m.instrument, m.outcome, m.wouldBeR])).toEqual([
      ['GBP_USD', 'open', null],
      ['EUR_USD', 'open', 0],
      ['EUR_USD', 'target', 2],
    ]);
    // The first was settled on creation (target reached); the others are read, one span per instrument.
    const spans = [
      'GBP_USD 2025-03-04T10:00:00.000Z 2025-03-06T00:00:00.000Z',
      'EUR_USD 2025-03-03T10:20:00.000Z 2025-03-06T00:00:00.000Z',
    ].sort();
    expect(reads.sort()).toEqual(spans);
    expect(list[0]!.outcomeNote).toBe('No candle after this time yet.');
    reads.length = 0;
    await service.missedTrades(USER, {});
    expect(reads.sort()).toEqual(spans);

    // Once their 7 days are over they settle: read once more, then never again.
    const later = serviceWith((_user, request) => {
      reads.push(`${request.instrument} ${request.from} ${request.to}`);
      return Promise.resolve(request.instrument === 'EUR_USD' ? eurUsd(request.from, request.to) : []);
    }, LATER);
    reads.length = 0;
    const settled = await later.missedTrades(USER, {});
    expect(settled[1]!.outcomeNote).toMatch(/within 7 days/);
    expect(reads).toHaveLength(2);
    reads.length = 0;
    await later.missedTrades(USER, {});
    expect(reads).toEqual([]);

    // An edit is a new outcome.
    reads.length = 0;
    const edited = await service.editMissed(USER, hit.id, {
      ...LONG,
      time: '2025-03-03T10:00:00.000Z',
      target: '1.1100',
    });
    expect(edited).toMatchObject({ outcome: 'open', wouldBeR: 0 });
    expect(reads).toHaveLength(1);
  });

  it('says why an outcome is unavailable: no candle source, or a failed read', async () => {
    const none = await serviceWith(() => Promise.resolve(null)).createMissed(USER, {
      ...LONG,
      time: '2025-03-05T10:00:00.000Z',
      target: null,
    });
    expect(none).toMatchObject({ outcome: 'unavailable', wouldBeR: null, outcomeNote: NO_CANDLE_SOURCE });
    const failed = await serviceWith(() => Promise.reject(new Error('upstream down'))).createMissed(USER, {
      ...LONG,
      time: '2025-03-05T10:00:00.000Z',
      target: null,
    });
    expect(failed).toMatchObject({ outcome: 'unavailable', outcomeNote: /could not be read/ });
    const without = await serviceWith(undefined).createMissed(USER, { ...LONG, time: '2025-03-05T10:00:00.000Z' });
    expect(without.outcomeNote).toBe(NO_CANDLE_SOURCE);
  });
});
