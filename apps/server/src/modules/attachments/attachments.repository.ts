import { sql, type Kysely, type Transaction } from 'kysely';
import type { AttachmentsTable, Dialect } from '../../db/schema';
import { bumpDataVersion } from '../../db/data-versions';
import { enqueueObjectDeletions, type AttachmentsDb } from './tables';

/** The item images belong to, by its stored keys (a trade by its account's key, not the API's accountId). */
export type AttachmentItemKey =
  | { target: 'trade'; accountKey: string; tradeId: string }
  | { target: 'day'; date: string }
  | { target: 'playbook' | 'missed'; id: string };

export type AttachmentRow = AttachmentsTable;

type Db = Kysely<AttachmentsDb> | Transaction<AttachmentsDb>;

/** The columns naming the item, as stored. */
export function itemColumns(
  item: AttachmentItemKey,
): Pick<AttachmentRow, 'target' | 'account_key' | 'trade_id' | 'date' | 'item_id'> {
  return {
    target: item.target,
    account_key: item.target === 'trade' ? item.accountKey : null,
    trade_id: item.target === 'trade' ? item.tradeId : null,
    date: item.target === 'day' ? item.date : null,
    item_id: item.target === 'playbook' || item.target === 'missed' ? item.id : null,
  };
}

function ofItem(db: Db, userId: string, item: AttachmentItemKey) {
  let q = db.selectFrom('attachments').where('user_id', '=', userId).where('target', '=', item.target);
  if (item.target === 'trade') q = q.where('account_key', '=', item.accountKey).where('trade_id', '=', item.tradeId);
  else if (item.target === 'day') q = q.where('date', '=', item.date);
  else q = q.where('item_id', '=', item.id);
  return q;
}

export type InsertOutcome =
  { ok: true } | { ok: false; full: 'item'; count: number } | { ok: false; full: 'quota'; used: number };

/**
 * The attachments' SQL (docs/review.md, Attachments). Writes that check the quota run in one transaction holding the
 * user's lock: on PostgreSQL a transaction-scoped advisory lock on the user's id; SQLite runs one write transaction
 * at a time on its one connection (db/client.ts), so two uploads of one user are checked one after the other.
 */
export function createAttachmentsRepository(db: Kysely<AttachmentsDb>, dialect: Dialect) {
  const lockUser = async (trx: Transaction<AttachmentsDb>, userId: string) => {
    if (dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtext(${`attachments:${userId}`}))`.execute(trx);
  };
  const usedBytes = async (d: Db, userId: string) => {
    const row = await d
      .selectFrom('attachments')
      .select((eb) => [
        eb.fn.countAll<string | number>().as('count'),
        eb.fn.sum<string | number | null>(sql`bytes + thumbnail_bytes`).as('bytes'),
      ])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return { bytes: Number(row.bytes ?? 0), count: Number(row.count) };
  };

  /** Deletes the rows (and their bytes) in the transaction; the bucket's objects go through the outbox. */
  async function removeRows(
    trx: Transaction<AttachmentsDb>,
    userId: string,
    rows: readonly AttachmentRow[],
    at: string,
  ) {
    if (rows.length === 0) return;
    const ids = rows.map((r) => r.id);
    await trx.deleteFrom('attachment_blobs').where('user_id', '=', userId).where('attachment_id', 'in', ids).execute();
    await trx.deleteFrom('attachments').where('user_id', '=', userId).where('id', 'in', ids).execute();
    await enqueueObjectDeletions(
      trx,
      rows.filter((r) => r.storage === 's3').map((r) => r.storage_key),
      at,
    );
    // The trade list shows each trade's image count: its cached pages are keyed by the list version.
    if (rows.some((r) => r.target === 'trade')) await bumpDataVersion(trx, userId, at, 'list');
  }

  return {
    /**
     * Stores the row (and, kept in the database, its bytes) when the item has room and the user's quota holds it;
     * otherwise stores nothing and says which is full.
     */
    insert: (
      row: AttachmentRow,
      blobs: { data: Uint8Array; thumbnail: Uint8Array } | undefined,
      limits: { perItem: number; quotaBytes: number },
      item: AttachmentItemKey,
    ): Promise<InsertOutcome> =>
      db.transaction().execute(async (trx) => {
        await lockUser(trx, row.user_id);
        const inItem = await ofItem(trx, row.user_id, item)
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .executeTakeFirstOrThrow();
        if (Number(inItem.n) >= limits.perItem) return { ok: false, full: 'item', count: Number(inItem.n) };
        const used = await usedBytes(trx, row.user_id);
        if (used.bytes + row.bytes + row.thumbnail_bytes > limits.quotaBytes)
          return { ok: false, full: 'quota', used: used.bytes };
        await trx.insertInto('attachments').values(row).execute();
        if (blobs)
          await trx
            .insertInto('attachment_blobs')
            .values({ attachment_id: row.id, user_id: row.user_id, data: blobs.data, thumbnail: blobs.thumbnail })
            .execute();
        if (row.target === 'trade') await bumpDataVersion(trx, row.user_id, row.created_at, 'list');
        return { ok: true };
      }),

    /** The item's images, oldest first. */
    list: (userId: string, item: AttachmentItemKey): Promise<AttachmentRow[]> =>
      ofItem(db, userId, item).selectAll().orderBy('created_at').orderBy('id').execute(),

    find: (userId: string, id: string): Promise<AttachmentRow | undefined> =>
      db.selectFrom('attachments').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst(),

    /** The image's or the thumbnail's bytes kept in the database. */
    async blob(userId: string, id: string, part: 'image' | 'thumbnail'): Promise<Uint8Array | undefined> {
      const row = await db
        .selectFrom('attachment_blobs')
        .select(part === 'image' ? 'data as bytes' : 'thumbnail as bytes')
        .where('user_id', '=', userId)
        .where('attachment_id', '=', id)
        .executeTakeFirst();
      return row?.bytes;
    },

    async setCaption(userId: string, id: string, caption: string): Promise<AttachmentRow | undefined> {
      await db.updateTable('attachments').set({ caption }).where('user_id', '=', userId).where('id', '=', id).execute();
      return db
        .selectFrom('attachments')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** Deletes one image; its row as it was, or undefined when the user has none with this id. */
    remove: (userId: string, id: string, at: string): Promise<AttachmentRow | undefined> =>
      db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('attachments')
          .selectAll()
          .where('user_id', '=', userId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (row) await removeRows(trx, userId, [row], at);
        return row;
      }),

    /** Deletes every image of the item; how many. */
    removeForItem: (userId: string, item: AttachmentItemKey, at: string): Promise<number> =>
      db.transaction().execute(async (trx) => {
        const rows = await ofItem(trx, userId, item).selectAll().execute();
        await removeRows(trx, userId, rows, at);
        return rows.length;
      }),

    /** How many images each of the items has (items without any are left out). */
    async countsFor(
      userId: string,
      target: 'playbook' | 'missed',
      ids: readonly string[],
    ): Promise<Map<string, number>> {
      const out = new Map<string, number>();
      if (ids.length === 0) return out;
      const rows = await db
        .selectFrom('attachments')
        .select((eb) => ['item_id', eb.fn.countAll<string | number>().as('n')])
        .where('user_id', '=', userId)
        .where('target', '=', target)
        .where('item_id', 'in', [...new Set(ids)])
        .groupBy('item_id')
        .execute();
      for (const r of rows) if (r.item_id !== null) out.set(r.item_id, Number(r.n));
      return out;
    },

    usage: (userId: string) => usedBytes(db, userId),

    /** Outbox rows left by a failed upload's clean-up: the objects written before a transaction that did not commit. */
    enqueue: (storageKey: string, at: string) =>
      db.transaction().execute((trx) => enqueueObjectDeletions(trx, [storageKey], at)),

    /**
     * Claims up to `limit` outbox rows due by `now` for this worker until `leaseUntil`: a row is claimed by moving
     * its next attempt from the time read, so two instances never claim the same row at once.
     */
    async claimDeletions(now: string, leaseUntil: string, limit: number) {
      const due = await db
        .selectFrom('attachment_deletions')
        .select(['storage_key', 'attempts', 'next_attempt_at'])
        .where('next_attempt_at', '<=', now)
        .orderBy('next_attempt_at')
        .limit(limit)
        .execute();
      const claimed: Array<{ storageKey: string; attempts: number }> = [];
      for (const row of due) {
        const r = await db
          .updateTable('attachment_deletions')
          .set({ next_attempt_at: leaseUntil })
          .where('storage_key', '=', row.storage_key)
          .where('next_attempt_at', '=', row.next_attempt_at)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) === 1) claimed.push({ storageKey: row.storage_key, attempts: row.attempts });
      }
      return claimed;
    },

    deletionDone: async (storageKey: string) => {
      await db.deleteFrom('attachment_deletions').where('storage_key', '=', storageKey).execute();
    },

    deletionFailed: async (storageKey: string, attempts: number, nextAt: string, error: string) => {
      await db
        .updateTable('attachment_deletions')
        .set({ attempts, next_attempt_at: nextAt, last_error: error.slice(0, 500) })
        .where('storage_key', '=', storageKey)
        .execute();
    },

    /**
     * Which of the bucket's attachment keys a row names (the orphan sweep keeps those). A key ends in its
     * attachment's id (object-store.ts keyFor), so rows are found by their primary key and compared whole.
     */
    async referencedKeys(keys: readonly string[]): Promise<Set<string>> {
      const ids = [...new Set(keys.map((key) => key.slice(key.lastIndexOf('/') + 1)))];
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('attachments')
        .select('storage_key')
        .where('id', 'in', ids)
        .where('storage', '=', 's3')
        .execute();
      const wanted = new Set(keys);
      return new Set(rows.map((r) => r.storage_key).filter((key) => wanted.has(key)));
    },

    /** The outbox rows left (tests and the worker's idle check). */
    pendingDeletions: async (): Promise<number> =>
      Number(
        (
          await db
            .selectFrom('attachment_deletions')
            .select((eb) => eb.fn.countAll<string | number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}
export type AttachmentsRepository = ReturnType<typeof createAttachmentsRepository>;
