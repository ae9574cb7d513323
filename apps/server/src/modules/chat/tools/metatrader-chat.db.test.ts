import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../../db/migrate';
import { createTestDb } from '../../../test/harness';
import { seedAccount, seedTrades } from '../../../test/seed-trades';
import { importedAccount, importedTrade } from '../../../test/imported-book';
import { createJournalFactsService } from '../../journal/journal-facts.service';
import { listVersionReader } from '../../../db/data-versions';
import { createTradeViews } from '../../trade-views';
import { createTradingService, type ImportedTradeInput, type TradingService } from '../../trading';
import { createChatTools, type ToolContext } from './chat-tools';
import { createTradingChatData } from './trading-chat-data';

/*
 * The assistant's tools on a user whose default trading platform is MetaTrader: answers come from the stored
 * import alone (no OANDA call: there is no OANDA connection, and any live call would fail), say so in their source,
 * and never mix in the OANDA rows stored beside it. With OANDA as the default the same user's answers are OANDA's.
 */

const USER = 'u-mt';
const NOW = new Date('2026-11-20T12:00:00.000Z');
const KEY = 'metatrader:Broker-Live:7001';

const mt = (ticket: string, day: number, realizedPL: string, extra: Partial<ImportedTradeInput> = {}) => {
  const date = `2026-11-${String(day).padStart(2, '0')}`;
  return importedTrade({
    ticket,
    units: '10000',
    lots: '0.10',
    averageClosePrice: '1.08100',
    openTime: `${date}T08:00:00Z`,
    closeTime: `${date}T10:00:00Z`,
    serverOpenTime: `${date}T10:00:00`,
    realizedPL,
    commission: '-0.70',
    ...extra,
  });
};

let testDb: Awaited<ReturnType<typeof createTestDb>>;
let trading: TradingService;
let platform: 'OANDA' | 'MetaTrader';

beforeEach(async () => {
  testDb = await createTestDb();
  await migrateToLatest(testDb.db);
  const db = testDb.db.kysely;
  const at = '2026-01-01T00:00:00.000Z';
  await db
    .insertInto('users')
    .values({
      id: USER,
      username: USER,
      username_key: USER,
      email: 'mt@x.io',
      password_hash: 'x',
      created_at: at,
      updated_at: at,
    })
    .execute();
  const oandaKey = await seedAccount(db, USER, '101-004-3000001-001');
  await seedTrades(db, USER, oandaKey, [
    { id: '1', open: '2026-11-10T08:00:00Z', close: '2026-11-10T09:00:00Z', pl: '500.0000' },
    { id: '2', open: '2026-11-11T08:00:00Z', close: '2026-11-11T09:00:00Z', pl: '-100.0000' },
  ]);
  trading = createTradingService({
    db,
    oanda: {} as never,
    settings: { oandaCredentials: () => Promise.resolve(undefined) },
    now: () => NOW,
  });
  await trading.storeImport(
    USER,
    importedAccount({
      server: 'Broker-Live',
      login: '7001',
      name: 'MT book',
      currency: 'EUR',
      balance: '1012.30',
      equity: '1012.30',
      floatingPL: '0.00',
      closedPL: '12.30',
      margin: '0.00',
      freeMargin: '1012.30',
      broker: 'Broker Ltd',
      leverage: '1:100',
      utcOffset: '+02:00',
      commission: '-2.10',
      swap: '0.00',
    }),
    [
      mt('1', 16, '10.00'),
      mt('2', 17, '-4.20'),
      mt('3', 18, '8.60', { symbol: 'US30', instrument: 'US30', units: '-1', lots: '1.00', price: '43850.5' }),
    ],
  );
  platform = 'MetaTrader';
});
afterEach(() => testDb.close());

function tools() {
  const kysely = testDb.db.kysely;
  const data = createTradingChatData({
    trading,
    views: createTradeViews({ db: kysely, listVersionOf: listVersionReader(kysely), now: () => NOW }),
    settings: {
      oandaCredentials: () => Promise.resolve(undefined),
      defaultTradingPlatform: () => Promise.resolve(platform),
    },
    journal: createJournalFactsService(testDb.db.kysely),
    now: () => NOW,
  });
  return createChatTools(data);
}

const ctx: ToolContext = {
  userId: USER,
  mode: 'demo',
  instrument: 'EUR_USD',
  granularity: 'M5',
  timeZone: 'UTC',
  now: NOW,
};

describe('chat tools on MetaTrader data', () => {
  it('lists and totals the imported trades only, citing the import', async () => {
    const { result } = await tools().trades(ctx, {});
    expect(result.matched).toBe(3);
    expect(result.trades.map((t) => [t.tradeId, t.accountId, t.instrument])).toEqual([
      ['3', KEY, 'US30'],
      ['2', KEY, 'EUR_USD'],
      ['1', KEY, 'EUR_USD'],
    ]);
    expect(result.totals).toMatchObject({ winners: 2, losers: 1, pl: [{ currency: 'EUR', amount: '14.4000' }] });
    expect(result.source).toBe(
      'open trades from your MetaTrader import of 2026-11-20; closed trades from your MetaTrader import of 2026-11-20',
    );
    expect(result.note).toBeUndefined();
  });

  it('gives the performance of the imported trades (P/L plus commission and swap)', async () => {
    const { result } = await tools().performance(ctx, {});
    expect(result.closedTrades).toBe(3);
    expect(result.byCurrency).toHaveLength(1);
    expect(result.byCurrency[0]).toMatchObject({
      currency: 'EUR',
      trades: 3,
      wins: 2,
      losses: 1,
      netPL: '14.4000',
      financing: '-2.1000',
      netAfterFinancing: '12.3000',
    });
    expect(result.source).toBe('closed trades from your MetaTrader import of 2026-11-20');
  });

  it('reads the imported account, never OANDA', async () => {
    const { result } = await tools().accounts(ctx, {});
    expect(result.accounts.map((a) => [a.accountId, a.alias, a.balance, a.currency])).toEqual([
      [KEY, 'MT book', '1012.30', 'EUR'],
    ]);
    expect(result.source).toBe('from your MetaTrader import of 2026-11-20');
    const byLogin = await tools().accounts(ctx, { account_id: '7001' });
    expect(byLogin.result.accounts).toHaveLength(1);
  });

  it('says what to do when nothing of the mode is imported', async () => {
    const { result } = await tools().trades({ ...ctx, mode: 'live' }, {});
    expect(result.matched).toBe(0);
    expect(result.note).toMatch(/No live MetaTrader trades are stored yet\. Import a MetaTrader report/);
  });

  it("answers from OANDA's stored trades alone when OANDA is the default", async () => {
    platform = 'OANDA';
    const { result } = await tools().trades(ctx, {});
    expect(result.matched).toBe(2);
    expect(result.trades.map((t) => t.accountId)).toEqual(['101-004-3000001-001', '101-004-3000001-001']);
    expect(result.source).toMatch(/from your last sync at/);
  });
});
