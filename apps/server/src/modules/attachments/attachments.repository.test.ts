import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';
import { createTestDb } from '../../test/harness';
import { insertUser } from '../../test/rows';
import { plainPng } from '../../test/images';
import { createAttachmentsRepository } from './attachments.repository';
import { createAttachmentsService } from './attachments.service';
import { createDeletionWorker } from './deletion-worker';
import type { ObjectStore, StoredObject } from './object-store';
import { createOrphanSweep } from './orphan-sweep';

/*
 * What the playbooks module and the account deletion use (deleteForItem, countsFor, the itemExists port), and the
 * outbox's worker (claims, retries with a growing wait, two workers at once), on the suite's database (SQLite, or
 * PostgreSQL with PIPSENSE_TEST_PG_URL).
 */
let db: Db;
let close: () => Promise<void>;
let clock = Date.parse('2025-03-01T00:00:00.000Z');
const now = () => new Date(clock);

beforeEach(async () => {
  const test = await createTestDb();
  db = test.db;
  close = test.close;
  await migrateToLatest(db);
  for (const id of ['u1', 'u2']) await insertUser(db.kysely, id, now().toISOString());
});
afterEach(() => close());

/** A bucket in memory, each object with the test clock's time it was written; `failing` makes every removal throw. */
function memoryStore() {
  const objects = new Map<string, Uint8Array>();
  const written = new Map<string, Date>();
  const store = {
    failing: false,
    putFailing: false,
    removals: 0,
    objects,
    keyFor: (userId: string, id: string) => `attachments/${userId}/${id}`,
    put(key: string, image: Uint8Array, _type: string, thumbnail: Uint8Array) {
      objects.set(key, image);
      written.set(key, now());
      if (store.putFailing) return Promise.reject(new Error('bucket unreachable'));
      objects.set(`${key}.thumbnail.webp`, thumbnail);
      written.set(`${key}.thumbnail.webp`, now());
      return Promise.resolve();
    },
    /** Pages of two objects, in key order as S3 lists them. */
    async *list() {
      const all: StoredObject[] = [...objects.keys()].sort().map((key) => ({ key, modifiedAt: written.get(key)! }));
      for (let i = 0; i < all.length; i += 2) yield Promise.resolve(all.slice(i, i + 2));
    },
    get: (key: string, part: 'image' | 'thumbnail') =>
      Promise.resolve(objects.get(part === 'image' ? key : `${key}.thumbnail.webp`)),
    remove(key: string) {
      store.removals += 1;
      if (store.failing) return Promise.reject(new Error('bucket unreachable'));
      objects.delete(key);
      objects.delete(`${key}.thumbnail.webp`);
      return Promise.resolve();
    },
    close: () => undefined,
  } satisfies ObjectStore & Record<string, unknown>;
  return store;
}

const items = new Set(['u1:playbook:p1', 'u1:playbook:p2', 'u1:missed:m1']);
const service = (objects?: ObjectStore) =>
  createAttachmentsService({
    repository: createAttachmentsRepository(db.kysely, db.dialect),
    trading: {
      ownedTrades: <R extends { accountId: string; tradeId: string }>(_userId: string, refs: readonly R[]) =>
        Promise.resolve(
          refs.map((ref) => ({ ref, key: { accountKey: `oanda:fxpractice:${ref.accountId}`, tradeId: ref.tradeId } })),
        ),
    },
    items: { itemExists: (userId, target, id) => Promise.resolve(items.has(`${userId}:${target}:${id}`)) },
    objects,
    now,
    log: () => undefined,
  });

describe('the playbooks module’s calls', () => {
  it('countsFor counts each playbook’s or missed trade’s images; deleteForItem deletes an item’s images', async () => {
    const s = service();
    const png = await plainPng(16, 16);
    await s.upload('u1', { target: 'playbook', id: 'p1' }, png);
    await s.upload('u1', { target: 'playbook', id: 'p1' }, png);
    await s.upload('u1', { target: 'playbook', id: 'p2' }, png);
    await s.upload('u1', { target: 'missed', id: 'm1' }, png);
    await s.upload('u1', { target: 'day', date: '2025-03-01' }, png);
    await s.upload('u1', { target: 'trade', accountId: '101-1', tradeId: '7' }, png);
    // The port says whose items exist: u2 has no playbook p1.
    await expect(s.upload('u2', { target: 'playbook', id: 'p1' }, png)).rejects.toMatchObject({ status: 404 });

    expect(await s.countsFor('u1', 'playbook', ['p1', 'p2', 'p3'])).toEqual(
      new Map([
        ['p1', 2],
        ['p2', 1],
      ]),
    );
    expect(await s.countsFor('u1', 'missed', ['p1', 'm1'])).toEqual(new Map([['m1', 1]]));
    expect(await s.countsFor('u2', 'playbook', ['p1'])).toEqual(new Map());
    expect(await s.countsFor('u1', 'playbook', [])).toEqual(new Map());

    expect(await s.deleteForItem('u2', { target: 'playbook', id: 'p1' })).toBe(0);
    expect(await s.deleteForItem('u1', { target: 'playbook', id: 'p1' })).toBe(2);
    expect(await s.countsFor('u1', 'playbook', ['p1', 'p2'])).toEqual(new Map([['p2', 1]]));
    expect(await s.deleteForItem('u1', { target: 'day', date: '2025-03-01' })).toBe(1);
    expect(await s.deleteForItem('u1', { target: 'trade', accountKey: 'oanda:fxpractice:101-1', tradeId: '7' })).toBe(
      1,
    );
    expect((await s.usage('u1')).count).toBe(2);
    // No bytes left behind for the deleted rows.
    const blobs = await db.kysely
      .selectFrom('attachment_blobs')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(blobs.n)).toBe(2);
  });

  it('deleteForItem on images in the bucket queues their objects; the worker removes them', async () => {
    const store = memoryStore();
    const s = service(store);
    const png = await plainPng(16, 16);
    await s.upload('u1', { target: 'missed', id: 'm1' }, png);
    await s.upload('u1', { target: 'missed', id: 'm1' }, png);
    expect(store.objects.size).toBe(4);
    expect(await s.deleteForItem('u1', { target: 'missed', id: 'm1' })).toBe(2);
    expect(store.objects.size).toBe(4);
    const repository = createAttachmentsRepository(db.kysely, db.dialect);
    expect(await repository.pendingDeletions()).toBe(2);
    const worker = createDeletionWorker({ repository, objects: store, now, log: () => undefined });
    expect(await worker.runOnce()).toBe(2);
    expect(store.objects.size).toBe(0);
    expect(await repository.pendingDeletions()).toBe(0);
  });

  it('an upload refused after its objects were written leaves no object behind', async () => {
    const store = memoryStore();
    const s = service(store);
    const png = await plainPng(16, 16);
    for (let i = 0; i < 20; i++) await s.upload('u1', { target: 'playbook', id: 'p2' }, png);
    await expect(s.upload('u1', { target: 'playbook', id: 'p2' }, png)).rejects.toMatchObject({ status: 409 });
    expect(store.objects.size).toBe(40);
  });
  it('a bucket that fails the upload: 503, no row, the half-written object removed', async () => {
    const store = memoryStore();
    store.putFailing = true;
    const s = service(store);
    await expect(s.upload('u1', { target: 'day', date: '2025-03-01' }, await plainPng(16, 16))).rejects.toMatchObject({
      status: 503,
    });
    expect(store.objects.size).toBe(0);
    expect((await s.usage('u1')).count).toBe(0);
  });
});

describe('the outbox worker', () => {
  it('retries a failed deletion after a growing wait, then deletes it', async () => {
    const store = memoryStore();
    const repository = createAttachmentsRepository(db.kysely, db.dialect);
    await store.put('k1', new Uint8Array([1]), 'image/png', new Uint8Array([2]));
    await repository.enqueue('k1', now().toISOString());
    const worker = createDeletionWorker({ repository, objects: store, now, log: () => undefined });
    store.failing = true;
    expect(await worker.runOnce()).toBe(0);
    const row = await db.kysely.selectFrom('attachment_deletions').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ storage_key: 'k1', attempts: 1, last_error: 'bucket unreachable' });
    expect(Date.parse(row.next_attempt_at) - clock).toBe(30_000);
    // Not due yet: not tried.
    store.failing = false;
    expect(await worker.runOnce()).toBe(0);
    expect(store.removals).toBe(1);
    clock += 31_000;
    expect(await worker.runOnce()).toBe(1);
    expect(store.objects.size).toBe(0);
    expect(await repository.pendingDeletions()).toBe(0);
  });

  it('two workers at once claim each row once', async () => {
    const store = memoryStore();
    const repository = createAttachmentsRepository(db.kysely, db.dialect);
    for (let i = 0; i < 10; i++) await repository.enqueue(`k${i}`, now().toISOString());
    const a = createDeletionWorker({ repository, objects: store, now, log: () => undefined });
    const b = createDeletionWorker({ repository, objects: store, now, log: () => undefined });
    const [x, y] = await Promise.all([a.runOnce(), b.runOnce()]);
    expect(x + y).toBe(10);
    expect(store.removals).toBe(10);
    expect(await repository.pendingDeletions()).toBe(0);
  });

  it('starts and stops its timer', async () => {
    const repository = createAttachmentsRepository(db.kysely, db.dialect);
    const worker = createDeletionWorker({ repository, objects: memoryStore(), now, log: () => undefined });
    worker.start();
    await worker.stop();
  });
});

describe('the orphan sweep', () => {
  const MINUTE = 60_000;
  const orphan = (store: ReturnType<typeof memoryStore>, key: string) =>
    store.put(key, new Uint8Array([1]), 'image/png', new Uint8Array([2]));

  it('deletes the objects no row names once they are an hour old, and keeps every committed image', async () => {
    const store = memoryStore();
    const s = service(store);
    const log: unknown[] = [];
    const sweep = createOrphanSweep({
      repository: createAttachmentsRepository(db.kysely, db.dialect),
      objects: store,
      now,
      log: (err) => log.push(err),
    });
    const kept = await s.upload('u1', { target: 'day', date: '2025-03-01' }, await plainPng(16, 16));
    const keptKeys = [`attachments/u1/${kept.id}`, `attachments/u1/${kept.id}.thumbnail.webp`];
    // A process killed between the put and the commit: objects without a row.
    await orphan(store, 'attachments/u1/killed-upload');
    clock += 30 * MINUTE;
    await orphan(store, 'attachments/u2/upload-in-flight');
    // 30 minutes on, nothing is old enough.
    expect(await sweep.sweep()).toBe(0);
    expect(store.objects.size).toBe(6);

    clock += 45 * MINUTE;
    // 75 minutes: the killed upload's image and thumbnail go; the one in flight is 45 minutes old and stays.
    expect(await sweep.sweep()).toBe(1);
    expect([...store.objects.keys()].sort()).toEqual(
      [...keptKeys, 'attachments/u2/upload-in-flight', 'attachments/u2/upload-in-flight.thumbnail.webp'].sort(),
    );
    clock += 30 * MINUTE;
    expect(await sweep.sweep()).toBe(1);
    expect([...store.objects.keys()].sort()).toEqual(keptKeys.sort());

    // A bucket refusing the deletion: logged, left for the next sweep.
    await orphan(store, 'attachments/u2/another');
    clock += 2 * 60 * MINUTE;
    store.failing = true;
    expect(await sweep.sweep()).toBe(0);
    expect(log).toHaveLength(1);
    store.failing = false;
    expect(await sweep.sweep()).toBe(1);
    expect([...store.objects.keys()].sort()).toEqual(keptKeys.sort());
    // The committed image is still served.
    expect((await s.bytes('u1', kept.id, 'thumbnail')).bytes.length).toBeGreaterThan(0);
  });

  it('asks for its job once an hour', async () => {
    const sweep = createOrphanSweep({
      repository: { referencedKeys: () => Promise.resolve(new Set<string>()) },
      objects: memoryStore(),
      now,
      log: () => undefined,
    });
    expect(await sweep.due()).toEqual(['attachment-objects']);
    clock += 59 * MINUTE;
    expect(await sweep.due()).toEqual([]);
    clock += MINUTE;
    expect(await sweep.due()).toEqual(['attachment-objects']);
  });
});
