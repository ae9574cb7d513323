import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';
import { createTestDb } from '../../test/harness';
import { oandaAccount } from '../trading/account-key';
import { createJournalFactsService, tradeRef } from './journal-facts.service';

const DEMO = 'oanda:fxpractice:101-004-1000001-001';
const LIVE = 'oanda:fxtrade:001-004-2000002-001';
const AT = '2025-03-01T00:00:00.000Z';

let db: Db;
let close: () => Promise<void>;

async function user(id: string) {
  await db.kysely
    .insertInto('users')
    .values({
      id,
      username: id,
      username_key: id,
      email: `${id}@example.com`,
      password_hash: 'x',
      created_at: AT,
      updated_at: AT,
    })
    .execute();
}

async function account(userId: string, mode: 'demo' | 'live', login: string) {
  await db.kysely
    .insertInto('broker_accounts')
    .values({
      id: `${userId}-${login}`,
      user_id: userId,
      ...oandaAccount(mode, login),
      mode,
      synced_at: AT,
      version: 1,
      created_at: AT,
      updated_at: AT,
    })
    .execute();
}

async function trade(userId: string, key: string, id: string, stop: string | null) {
  await db.kysely
    .insertInto('trades')
    .values({
      user_id: userId,
      account_key: key,
      trade_id: id,
      trade_num: Number(id),
      mode: key === LIVE ? 'live' : 'demo',
      instrument: 'EUR_USD',
      price: '1.10000',
      initial_units: '1000',
      current_units: '0',
      realized_pl: '1.0000',
      unrealized_pl: null,
      financing: '0.0000',
      state: 'CLOSED',
      open_time: AT,
      close_time: AT,
      average_close_price: '1.10100',
      stop_loss_price: null,
      take_profit_price: null,
      trailing_stop_distance: null,
      initial_stop_loss_price: stop,
      created_at: AT,
      updated_at: AT,
    })
    .execute();
}

beforeAll(async () => {
  const test = await createTestDb();
  db = test.db;
  close = test.close;
  await migrateToLatest(db);
  await user('u1');
  await user('u2');
  await account('u1', 'demo', '101-004-1000001-001');
  await account('u1', 'live', '001-004-2000002-001');
  await account('u2', 'demo', '101-004-1000001-001');
  await db.kysely
    .insertInto('journal_tags')
    .values([
      { id: 'g-fomo', user_id: 'u1', kind: 'mistake', name: 'FOMO', name_key: 'fomo', created_at: AT, updated_at: AT },
      {
        id: 'g-brk',
        user_id: 'u1',
        kind: 'setup',
        name: 'Breakout',
        name_key: 'breakout',
        created_at: AT,
        updated_at: AT,
      },
      { id: 'g-calm', user_id: 'u1', kind: 'emotion', name: 'calm', name_key: 'calm', created_at: AT, updated_at: AT },
      { id: 'g-x', user_id: 'u2', kind: 'setup', name: 'Theirs', name_key: 'theirs', created_at: AT, updated_at: AT },
    ])
    .execute();
  const link = (user_id: string, account_key: string, trade_id: string, tag_id: string) => ({
    user_id,
    account_key,
    trade_id,
    tag_id,
    created_at: AT,
  });
  await db.kysely
    .insertInto('trade_tags')
    .values([
      link('u1', DEMO, '11', 'g-brk'),
      link('u1', DEMO, '11', 'g-fomo'),
      link('u1', LIVE, '11', 'g-brk'),
      link('u2', DEMO, '11', 'g-x'),
    ])
    .execute();
  await db.kysely
    .insertInto('trade_notes')
    .values([
      {
        user_id: 'u1',
        account_key: DEMO,
        trade_id: '11',
        note: 'Late entry.',
        rating: 2,
        created_at: AT,
        updated_at: AT,
      },
      {
        user_id: 'u2',
        account_key: DEMO,
        trade_id: '11',
        note: 'Not yours.',
        rating: null,
        created_at: AT,
        updated_at: AT,
      },
    ])
    .execute();
  await trade('u1', DEMO, '11', '1.09500');
  await trade('u1', DEMO, '12', null);
  await trade('u2', DEMO, '11', '1.09000');
});
afterAll(async () => {
  await close();
});

describe('journal facts', () => {
  const facts = () => createJournalFactsService(db.kysely);

  it("lists the user's own tags by kind, then name", async () => {
    expect(await facts().tags('u1')).toEqual([
      { id: 'g-calm', name: 'calm', kind: 'emotion' },
      { id: 'g-fomo', name: 'FOMO', kind: 'mistake' },
      { id: 'g-brk', name: 'Breakout', kind: 'setup' },
    ]);
  });

  it('names trades as the API does (account id and trade id), one entry per trade', async () => {
    const byTrade = await facts().tagsByTrade('u1');
    expect(byTrade.get(tradeRef('101-004-1000001-001', '11'))?.sort()).toEqual(['g-brk', 'g-fomo']);
    expect(byTrade.get(tradeRef('001-004-2000002-001', '11'))).toEqual(['g-brk']);
    expect(byTrade.size).toBe(2);
  });

  it('reads notes of the user only', async () => {
    const notes = await facts().notesByTrade('u1');
    expect([...notes]).toEqual([[tradeRef('101-004-1000001-001', '11'), { note: 'Late entry.', rating: 2 }]]);
  });
});
