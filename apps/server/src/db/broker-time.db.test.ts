import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb } from '../test/harness';
import { migrateTo } from '../test/migrate-to';
import type { Db } from './client';
import type { Database } from './schema';
import { insertUser } from '../test/rows';

/*
 * 022-broker-time on a database made by 001–021: imported accounts remember the fixed rule they were read with, and
 * every stored imported trade gets its server open time from its UTC open time at the account's offset (+02:00
 * where the account has none); OANDA's rows get none. Down drops both columns.
 */

let db: Db;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ db, close } = await createTestDb());
});
afterEach(() => close());

const NOW = '2025-03-01T00:00:00.000Z';
type Schema021 = Omit<Database, 'broker_accounts' | 'trades'> & {
  broker_accounts: Omit<Database['broker_accounts'], 'broker_time'>;
  trades: Omit<Database['trades'], 'server_open_time'>;
};

describe('022-broker-time', () => {
  it('remembers the fixed rule of imported accounts and fills the server open time of their trades', async () => {
    await migrateTo(db.kysely, '021-trade-write-indexes');
    const old = db.kysely as unknown as Kysely<Schema021>;
    await insertUser(db.kysely, 'u1', NOW);
    const accounts: Array<[string, string, string | null]> = [
      ['metatrader:Broker-Live:1', 'metatrader', '+03:00'],
      ['metatrader:csv:imported', 'metatrader', null],
      ['oanda:fxpractice:101', 'oanda', null],
    ];
    for (const [key, platform, offset] of accounts)
      await old
        .insertInto('broker_accounts')
        .values({
          id: key,
          user_id: 'u1',
          account_key: key,
          platform,
          server: 's',
          login: 'l',
          mode: 'demo',
          utc_offset: offset,
          synced_at: NOW,
          version: 0,
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();
    // More rows than one round of the fill.
    const many = Array.from(
      { length: 2100 },
      (_, i) => `2024-01-01T${String(i % 24).padStart(2, '0')}:00:00.000000000Z`,
    );
    const trades = [
      ...many.map((open, i) => ({ key: accounts[0]![0], id: String(i), open })),
      { key: accounts[1]![0], id: 'row-2', open: '2024-06-30T23:30:00.000000000Z' },
      { key: accounts[2]![0], id: '5000', open: '2024-06-30T23:30:00.000000000Z' },
    ];
    for (const t of trades)
      await old
        .insertInto('trades')
        .values({
          user_id: 'u1',
          account_key: t.key,
          trade_id: t.id,
          trade_num: 1,
          mode: 'demo',
          instrument: 'EUR_USD',
          price: '1',
          initial_units: '1',
          current_units: '0',
          realized_pl: '0',
          unrealized_pl: null,
          financing: '0',
          state: 'CLOSED',
          open_time: t.open,
          close_time: t.open,
          average_close_price: null,
          stop_loss_price: null,
          take_profit_price: null,
          trailing_stop_distance: null,
          platform: t.key.startsWith('oanda') ? 'oanda' : 'metatrader',
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();

    await migrateTo(db.kysely, '022-broker-time');
    const rules = await db.kysely
      .selectFrom('broker_accounts')
      .select(['account_key', 'broker_time', 'utc_offset'])
      .orderBy('account_key')
      .execute();
    expect(rules).toEqual([
      { account_key: 'metatrader:Broker-Live:1', broker_time: 'fixed', utc_offset: '+03:00' },
      { account_key: 'metatrader:csv:imported', broker_time: 'fixed', utc_offset: null },
      { account_key: 'oanda:fxpractice:101', broker_time: null, utc_offset: null },
    ]);
    const server = new Map(
      (await db.kysely.selectFrom('trades').select(['trade_id', 'server_open_time']).execute()).map((r) => [
        r.trade_id,
        r.server_open_time,
      ]),
    );
    expect(server.get('0')).toBe('2024-01-01T03:00:00');
    expect(server.get('23')).toBe('2024-01-02T02:00:00');
    expect(server.get('2099')).toBe(`2024-01-01T${String((2099 % 24) + 3).padStart(2, '0')}:00:00`);
    expect([...server.values()].filter((v) => v === null)).toHaveLength(1);
    expect(server.get('row-2')).toBe('2024-07-01T01:30:00');
    expect(server.get('5000')).toBeNull();

    await migrateTo(db.kysely, '021-trade-write-indexes');
    const columns = await db.kysely.introspection.getTables();
    const names = (table: string) => columns.find((c) => c.name === table)!.columns.map((c) => c.name);
    expect(names('trades')).not.toContain('server_open_time');
    expect(names('broker_accounts')).not.toContain('broker_time');
  });
});
