import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb } from '../test/harness';
import { insertUser } from '../test/rows';
import { compiledRead } from './compiled-read';
import { migrateToLatest } from './migrate';
import type { Db } from './client';

/* A hot read built once (compiled-read.ts), on the suite's dialect: on SQLite run at once outside transactions. */
let db: Db;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ db, close } = await createTestDb());
  await migrateToLatest(db);
});
afterEach(() => close());

const at = '2026-01-01T00:00:00.000Z';
const addUser = (executor: Db['kysely'], id: string) => insertUser(executor, id, at);

const usernameOf = (kysely: Db['kysely']) =>
  compiledRead(kysely, kysely.selectFrom('users').select(['username', 'email']).where('id', '=', ''));

describe('compiledRead', () => {
  it('fills the placeholders in order with each call and sees the writes made in between', async () => {
    const read = usernameOf(db.kysely);
    expect(await read('u1')).toEqual([]);
    await addUser(db.kysely, 'u1');
    expect(await read('u1')).toEqual([{ username: 'u1', email: 'u1@example.com' }]);
    await addUser(db.kysely, 'u2');
    expect(await read('u2')).toEqual([{ username: 'u2', email: 'u2@example.com' }]);
  });

  it("never sees another caller's transaction half done: a write rolled back is never read", async () => {
    const read = usernameOf(db.kysely);
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    let fail!: () => void;
    const failNow = new Promise<void>((resolve) => (fail = resolve));
    const transaction = db.kysely
      .transaction()
      .execute(async (trx) => {
        await addUser(trx, 'ghost');
        inserted();
        await failNow;
        throw new Error('rolled back');
      })
      .catch((error: unknown) => (error as Error).message);
    await insertedYet;
    // Asked while the transaction is open (it has written, not committed): the answer must not include its row.
    const during = read('ghost');
    fail();
    expect(await transaction).toBe('rolled back');
    expect(await during).toEqual([]);
    expect(await read('ghost')).toEqual([]);
  });
});
