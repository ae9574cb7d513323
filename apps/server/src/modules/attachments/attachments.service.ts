import { randomUUID } from 'node:crypto';
import {
  ATTACHMENT_LIMITS,
  type AttachmentItem,
  type AttachmentTargetFields,
  type ATTACHMENT_TYPES,
} from '@pipsense/contract';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import type { TradingService } from '../trading';
import {
  itemColumns,
  type AttachmentItemKey,
  type AttachmentRow,
  type AttachmentsRepository,
} from './attachments.repository';
import { processImage } from './image';
import type { ObjectStore } from './object-store';
import type { AttachmentItemsPort } from './ports';

export interface AttachmentsServiceDeps {
  repository: AttachmentsRepository;
  trading: Pick<TradingService, 'ownedTrades'>;
  /** Playbooks and missed trades (the playbooks module); absent, images on them are refused as not found. */
  items?: AttachmentItemsPort;
  /** The bucket (ATTACHMENTS_S3_URL); absent, the bytes are kept in the database. */
  objects?: ObjectStore;
  /** The per-user quota in bytes (ATTACHMENTS_QUOTA_MB; default ATTACHMENT_LIMITS.quotaBytes). */
  quotaBytes?: number;
  now: () => Date;
  log: (err: unknown, context: Record<string, unknown>) => void;
}

const NOT_FOUND = 'No attachment of yours has this id. It may have been deleted.';
/** How long a browser may keep an image: its bytes never change under its id (a new upload is a new id). */
export const IMAGE_MAX_AGE_SECONDS = 86_400;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const toItem = (row: AttachmentRow): AttachmentItem => ({
  id: row.id,
  target: row.target as AttachmentItem['target'],
  contentType: row.content_type as (typeof ATTACHMENT_TYPES)[number],
  width: row.width,
  height: row.height,
  bytes: row.bytes,
  caption: row.caption,
  url: `/api/v1/attachment/get_attachment/${row.id}`,
  thumbnailUrl: `/api/v1/attachment/get_thumbnail/${row.id}`,
  createdAt: row.created_at,
});

/**
 * Images on trades, journal days, playbooks and missed trades (docs/review.md, Attachments), every call scoped by
 * the signed-in user: checked by their bytes, re-encoded without metadata, with a thumbnail, within the item's count
 * and the user's quota; kept in the database or in the bucket.
 */
export function createAttachmentsService({
  repository,
  trading,
  items,
  objects,
  quotaBytes = ATTACHMENT_LIMITS.quotaBytes,
  now,
  log,
}: AttachmentsServiceDeps) {
  /** The item named by the API's fields as stored, when it is the user's; 404 otherwise. */
  async function ownedItem(userId: string, fields: AttachmentTargetFields): Promise<AttachmentItemKey> {
    switch (fields.target) {
      case 'trade': {
        const [owned] = await trading.ownedTrades(userId, [{ accountId: fields.accountId!, tradeId: fields.tradeId! }]);
        return { target: 'trade', ...owned!.key };
      }
      case 'day':
        if (!realDay(fields.date!)) throw badRequest(`date: ${fields.date} is not a day of the calendar.`);
        return { target: 'day', date: fields.date! };
      default: {
        const what = fields.target === 'playbook' ? 'playbook' : 'missed trade';
        if (!items || !(await items.itemExists(userId, fields.target, fields.id!)))
          throw notFound(`No ${what} of yours has this id. It may have been deleted.`);
        return { target: fields.target, id: fields.id! };
      }
    }
  }

  async function owned(userId: string, id: string): Promise<AttachmentRow> {
    const row = await repository.find(userId, id);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  /** Removes objects written for an upload that was not stored; left in the outbox when the bucket refuses. */
  async function dropObjects(key: string): Promise<void> {
    try {
      await objects!.remove(key);
    } catch (err) {
      log(err, { storageKey: key, step: 'attachment upload clean-up' });
      await repository.enqueue(key, now().toISOString());
    }
  }

  return {
    /** Stores an uploaded image on the item; nothing is stored on any failure. */
    async upload(userId: string, fields: AttachmentTargetFields & { caption?: string }, bytes: Uint8Array) {
      const item = await ownedItem(userId, fields);
      const image = await processImage(bytes);
      const id = randomUUID();
      const storageKey = objects ? objects.keyFor(userId, id) : id;
      const row: AttachmentRow = {
        id,
        user_id: userId,
        ...itemColumns(item),
        content_type: image.contentType,
        width: image.width,
        height: image.height,
        bytes: image.data.length,
        thumbnail_bytes: image.thumbnail.length,
        caption: fields.caption ?? '',
        storage: objects ? 's3' : 'db',
        storage_key: storageKey,
        created_at: now().toISOString(),
      };
      // The objects first: a committed row always has its bytes. A transaction that fails or refuses removes them.
      if (objects)
        try {
          await objects.put(storageKey, image.data, image.contentType, image.thumbnail);
        } catch (err) {
          log(err, { storageKey, step: 'attachment upload' });
          // The image may be in the bucket without its thumbnail: removed now or through the outbox.
          await dropObjects(storageKey);
          throw new AppError(
            503,
            'STORAGE_UNAVAILABLE',
            'Image storage is unavailable right now. Try again in a minute.',
          );
        }
      let outcome;
      try {
        outcome = await repository.insert(
          row,
          objects ? undefined : { data: image.data, thumbnail: image.thumbnail },
          { perItem: ATTACHMENT_LIMITS.perItem, quotaBytes },
          item,
        );
      } catch (err) {
        if (objects) await dropObjects(storageKey);
        throw err;
      }
      if (!outcome.ok) {
        if (objects) await dropObjects(storageKey);
        if (outcome.full === 'item')
          throw conflict(
            `This item has ${ATTACHMENT_LIMITS.perItem} images already, the most it can hold. Delete one to attach another.`,
            'ATTACHMENTS_ITEM_FULL',
          );
        throw conflict(
          `Your storage is full: your images use ${megabytes(outcome.used)} of ${megabytes(quotaBytes)}, and this one needs ${megabytes(row.bytes + row.thumbnail_bytes)}. Delete some images to make room.`,
          'ATTACHMENTS_QUOTA_FULL',
        );
      }
      return toItem(row);
    },

    async list(userId: string, fields: AttachmentTargetFields): Promise<AttachmentItem[]> {
      return (await repository.list(userId, await ownedItem(userId, fields))).map(toItem);
    },

    /** The image's or thumbnail's bytes and type. */
    async bytes(
      userId: string,
      id: string,
      part: 'image' | 'thumbnail',
    ): Promise<{ bytes: Uint8Array; contentType: string }> {
      const row = await owned(userId, id);
      const bytes =
        row.storage === 's3'
          ? await objectsOrThrow().get(row.storage_key, part)
          : await repository.blob(userId, id, part);
      if (!bytes) throw notFound(NOT_FOUND);
      return { bytes, contentType: part === 'image' ? row.content_type : 'image/webp' };
    },

    async editCaption(userId: string, id: string, caption: string): Promise<AttachmentItem> {
      const row = await repository.setCaption(userId, id, caption);
      if (!row) throw notFound(NOT_FOUND);
      return toItem(row);
    },

    /** Deletes one image; its item as it was. */
    async remove(userId: string, id: string): Promise<AttachmentItem> {
      const row = await repository.remove(userId, id, now().toISOString());
      if (!row) throw notFound(NOT_FOUND);
      return toItem(row);
    },

    async usage(userId: string): Promise<{ bytes: number; quota: number; count: number }> {
      const used = await repository.usage(userId);
      return { bytes: used.bytes, quota: quotaBytes, count: used.count };
    },

    /**
     * Deletes every image of the item, in one transaction (the bucket's objects through the outbox); how many. The
     * playbooks module calls it, through app.ts, when it deletes a playbook or a missed trade.
     */
    deleteForItem: (userId: string, item: AttachmentItemKey): Promise<number> =>
      repository.removeForItem(userId, item, now().toISOString()),

    /** How many images each playbook or missed trade among `ids` has (none: left out of the map). */
    countsFor: (userId: string, target: 'playbook' | 'missed', ids: readonly string[]): Promise<Map<string, number>> =>
      repository.countsFor(userId, target, ids),
  };

  function objectsOrThrow(): ObjectStore {
    // Rows kept in the bucket while the server now runs without it: their bytes cannot be read here.
    if (!objects) throw notFound('This image is kept in storage this server is not connected to.');
    return objects;
  }
}
export type AttachmentsService = ReturnType<typeof createAttachmentsService>;

/** A YYYY-MM-DD that names a real day (not 2025-02-30). */
function realDay(date: string): boolean {
  const day = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === date;
}
