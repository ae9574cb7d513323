import type { Transaction } from 'kysely';
import type { UserDataDeletion } from '../../db/user-data';
import type { DataVersionsTables } from '../../db/data-versions';
import type { Database } from '../../db/schema';

/** The tables attachments owns: no other module reads or writes them (db/slice.ts). */
export type AttachmentsTables = Pick<Database, 'attachments' | 'attachment_blobs' | 'attachment_deletions'>;

/**
 * Attachments' slice with the shared counters it moves inside its own transactions (db/data-versions.ts): an image
 * added to or deleted from a trade changes the trade list's attachment count.
 */
export type AttachmentsDb = AttachmentsTables & DataVersionsTables;

/** The outbox rows of attachments kept in the bucket: their objects are deleted once the rows are gone. */
export async function enqueueObjectDeletions(
  trx: Transaction<AttachmentsTables>,
  storageKeys: readonly string[],
  at: string,
): Promise<void> {
  if (storageKeys.length === 0) return;
  await trx
    .insertInto('attachment_deletions')
    .values(storageKeys.map((storage_key) => ({ storage_key, next_attempt_at: at, created_at: at })))
    .onConflict((oc) => oc.column('storage_key').doNothing())
    .execute();
}

/**
 * The module's part of an account's deletion (db/user-data.ts): the user's images and their bytes, and for those kept
 * in the bucket an outbox row each, in the same transaction, so the bucket's objects go once the account is gone.
 */
export const attachmentsUserData: UserDataDeletion<AttachmentsTables> = {
  tables: ['attachments', 'attachment_blobs'],
  async deleteUserData(trx, userId) {
    const inBucket = await trx
      .selectFrom('attachments')
      .select('storage_key')
      .where('user_id', '=', userId)
      .where('storage', '=', 's3')
      .execute();
    await enqueueObjectDeletions(
      trx,
      inBucket.map((r) => r.storage_key),
      new Date().toISOString(),
    );
    await trx.deleteFrom('attachment_blobs').where('user_id', '=', userId).execute();
    await trx.deleteFrom('attachments').where('user_id', '=', userId).execute();
  },
};
