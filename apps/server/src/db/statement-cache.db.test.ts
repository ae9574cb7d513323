import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb, sqliteHandleOf, withStatementCache, type Db } from './client';

/* SQLite's prepared statements are kept by SQL text (client.ts withStatementCache). */
let db: Db;
let dir: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pipsense-stmt-'));
  db = createDb({ dataDir: dir });
  await sql`create table t (n integer)`.execute(db.kysely);
  await sql`insert into t (n) values (1), (2), (3)`.execute(db.kysely);
});
afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const numbers = (min: number) =>
  sql<{ n: number }>`select n from t where n >= ${min} order by n`
    .execute(db.kysely)
    .then((r) => r.rows.map((x) => x.n));

describe('SQLite statement cache', () => {
  it('answers the same SQL with new parameters and sees writes made in between', async () => {
    expect(await numbers(2)).toEqual([2, 3]);
    expect(await numbers(1)).toEqual([1, 2, 3]);
    await sql`insert into t (n) values (4)`.execute(db.kysely);
    expect(await numbers(3)).toEqual([3, 4]);
  });

  it('gives a fresh statement while the cached one is still being iterated', () => {
    const raw = sqliteHandleOf(db.kysely)!;
    const cache = withStatementCache(raw);
    const text = 'select n from t order by n';
    const first = cache.prepare(text);
    expect(cache.prepare(text)).toBe(first);
    const rows = first.iterate() as IterableIterator<{ n: number }>;
    expect(rows.next().value).toEqual({ n: 1 });
    const second = cache.prepare(text);
    expect(second).not.toBe(first);
    expect(second.all()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect([...rows].map((r) => r.n)).toEqual([2, 3]);
    // Done iterating: the cached one serves again.
    expect(cache.prepare(text)).toBe(first);
  });

  it('leaves the raw connection to its owners', () => {
    expect(sqliteHandleOf(db.kysely)?.open).toBe(true);
  });
});
