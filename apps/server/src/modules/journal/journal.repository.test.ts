import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';
import { createTestDb } from '../../test/harness';
import { insertUser } from '../../test/rows';
import { listVersionReader } from '../../db/data-versions';
import { createTradeViews } from '../trade-views';
import { createJournalRepository } from './journal.repository';
import { createJournalService, journalKey, STARTER_TAGS } from './journal.service';

/*
 * journalOf, the read other modules use to show trades' journals, and the starter set's once-only rule, on the
 * suite's database (SQLite, or PostgreSQL with PIPSENSE_TEST_PG_URL).
 */
let db: Db;
let close: () => Promise<void>;
const AT = '2025-03-01T00:00:00.000Z';
const KEY = 'oanda:fxpractice:101-004-1-001';

beforeEach(async () => {
  const test = await createTestDb();
  db = test.db;
  close = test.close;
  await migrateToLatest(db);
  for (const id of ['u1', 'u2']) await insertUser(db.kysely, id, AT);
});
afterEach(() => close());

const service = () =>
  createJournalService({
    journal: createJournalRepository(db.kysely),
    trading: { ownedTrades: () => Promise.reject(new Error('not used')) },
    views: createTradeViews({ db: db.kysely, listVersionOf: listVersionReader(db.kysely), now: () => new Date(AT) }),
    now: () => new Date(AT),
  });

async function tag(userId: string, id: string, kind: string, name: string) {
  await db.kysely
    .insertInto('journal_tags')
    .values({ id, user_id: userId, kind, name, name_key: name.toLowerCase(), created_at: AT, updated_at: AT })
    .execute();
}
async function note(userId: string, tradeId: string, text: string, rating: number | null) {
  await db.kysely
    .insertInto('trade_notes')
    .values({
      user_id: userId,
      account_key: KEY,
      trade_id: tradeId,
      note: text,
      rating,
      created_at: AT,
      updated_at: AT,
    })
    .execute();
}
async function tagOn(userId: string, tradeId: string, tagId: string) {
  await db.kysely
    .insertInto('trade_tags')
    .values({ user_id: userId, account_key: KEY, trade_id: tradeId, tag_id: tagId, created_at: AT })
    .execute();
}

describe('journalOf', () => {
  it("answers each trade's note, rating and tags (by kind, then name), the user's alone", async () => {
    await tag('u1', 't-fomo', 'mistake', 'FOMO');
    await tag('u1', 't-calm', 'emotion', 'Calm');
    await tag('u1', 't-break', 'setup', 'Breakout');
    await tag('u2', 'u2-tag', 'setup', 'Other');
    await note('u1', '10', 'Took it early', 4);
    await tagOn('u1', '10', 't-calm');
    await tagOn('u1', '10', 't-fomo');
    await tagOn('u1', '10', 't-break');
    await tagOn('u1', '11', 't-fomo'); // tags without a note
    await note('u2', '10', 'u2 writes on the same trade key', 1);
    await tagOn('u2', '12', 'u2-tag');

    const keys = ['10', '11', '12', '13'].map((tradeId) => ({ accountKey: KEY, tradeId }));
    const got = await service().journalOf('u1', keys);
    expect([...got.keys()].sort()).toEqual([journalKey(keys[0]!), journalKey(keys[1]!)]);
    expect(got.get(journalKey(keys[0]!))).toEqual({
      note: 'Took it early',
      rating: 4,
      updatedAt: AT,
      tags: [
        { id: 't-break', name: 'Breakout', kind: 'setup' },
        { id: 't-fomo', name: 'FOMO', kind: 'mistake' },
        { id: 't-calm', name: 'Calm', kind: 'emotion' },
      ],
    });
    expect(got.get(journalKey(keys[1]!))).toEqual({
      note: '',
      rating: null,
      updatedAt: null,
      tags: [{ id: 't-fomo', name: 'FOMO', kind: 'mistake' }],
    });
    expect((await service().journalOf('u1', [])).size).toBe(0);
  });

  it('reads more keys than one statement holds', async () => {
    const keys = Array.from({ length: 450 }, (_, i) => ({ accountKey: KEY, tradeId: String(i + 1) }));
    for (const k of keys.filter((_, i) => i % 50 === 0)) await note('u1', k.tradeId, `note ${k.tradeId}`, null);
    const got = await service().journalOf('u1', keys);
    expect([...got.values()].map((v) => v.note).sort()).toEqual(
      ['1', '51', '101', '151', '201', '251', '301', '351', '401'].map((id) => `note ${id}`).sort(),
    );
  });
});

describe('the starter tags', () => {
  it('are given once, also when asked for twice at the same time', async () => {
    const journal = service();
    const [a, b] = await Promise.all([journal.tags('u1'), journal.tags('u1')]);
    const size = Object.values(STARTER_TAGS).flat().length;
    expect(a).toHaveLength(size);
    expect(b).toEqual(a);
    expect(await db.kysely.selectFrom('journal_tags').select('id').where('user_id', '=', 'u1').execute()).toHaveLength(
      size,
    );
    for (const t of a) await journal.deleteTag('u1', t.id);
    expect(await journal.tags('u1')).toEqual([]);
    expect((await journal.tags('u2')).length).toBe(size);
  });
});
