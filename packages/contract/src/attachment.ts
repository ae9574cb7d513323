import { z } from 'zod';
import { envelope } from './common';

/*
 * Images attached to trades, journal days, playbooks and missed trades (docs/review.md, Attachments). Every route is
 * scoped to the signed-in user; another user's attachment or item is a 404.
 *
 * - `POST /api/v1/attachment/upload` multipart (`file`, `target`, and `accountId` + `tradeId`, `date` or `id`,
 *   `caption?`) → `uploadAttachmentResponse`. 400 for a file that is not a PNG, JPEG or WebP by its bytes (or that
 *   cannot be decoded), 413 past `ATTACHMENT_LIMITS.fileBytes`, 409 past the item's count or the user's quota;
 *   nothing is stored on any error.
 * - `GET  /api/v1/attachment/get_attachment/:id` → the image (its stored type, `Cache-Control: private`).
 * - `GET  /api/v1/attachment/get_thumbnail/:id` → the thumbnail (WebP).
 * - `GET  /api/v1/attachment/get_attachments?target&accountId&tradeId|date|id` → `attachmentsResponse`.
 * - `POST /api/v1/attachment/edit_attachment/:id` `{caption}` → `attachmentResponse`.
 * - `POST /api/v1/attachment/delete_attachment/:id` → `attachmentResponse` (as it was).
 * - `GET  /api/v1/attachment/get_usage` → `attachmentUsageResponse`.
 */

export const ATTACHMENT_LIMITS = {
  /** 10 MB, the largest file accepted. */
  fileBytes: 10 * 1024 * 1024,
  perItem: 20,
  caption: 200,
  /** The default per-user quota, 500 MB (`ATTACHMENTS_QUOTA_MB` changes it). */
  quotaBytes: 500 * 1024 * 1024,
} as const;

const ATTACHMENT_TARGETS = ['trade', 'day', 'playbook', 'missed'] as const;
export type AttachmentTarget = (typeof ATTACHMENT_TARGETS)[number];
export const ATTACHMENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

const caption = z
  .string({ error: 'caption must be text' })
  .trim()
  .max(ATTACHMENT_LIMITS.caption, `caption must be at most ${ATTACHMENT_LIMITS.caption} characters`);

/** The item an attachment belongs to: a trade by its keys, a journal day by its date, a playbook or missed trade by id. */
const attachmentTargetFields = z
  .object({
    target: z.enum(ATTACHMENT_TARGETS, { error: `target must be one of ${ATTACHMENT_TARGETS.join(', ')}` }),
    accountId: z.string().trim().min(1).max(200).optional(),
    tradeId: z.string().trim().min(1).max(64).optional(),
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be a day as YYYY-MM-DD')
      .optional(),
    id: z.string().trim().min(1).max(64).optional(),
  })
  .refine((t) => t.target !== 'trade' || (t.accountId && t.tradeId), {
    message: 'a trade is named by accountId and tradeId',
    path: ['tradeId'],
  })
  .refine((t) => t.target !== 'day' || t.date, { message: 'a day is named by date (YYYY-MM-DD)', path: ['date'] })
  .refine((t) => (t.target !== 'playbook' && t.target !== 'missed') || t.id, {
    message: 'a playbook or missed trade is named by id',
    path: ['id'],
  });
export type AttachmentTargetFields = z.infer<typeof attachmentTargetFields>;

/** The upload form's text fields (the file is the `file` part). */
export const uploadAttachmentFields = z.intersection(attachmentTargetFields, z.object({ caption: caption.optional() }));

const attachment = z.object({
  id: z.string(),
  target: z.enum(ATTACHMENT_TARGETS),
  contentType: z.enum(ATTACHMENT_TYPES),
  width: z.number().int(),
  height: z.number().int(),
  /** The stored image's size in bytes (after re-encoding), which counts against the quota with its thumbnail. */
  bytes: z.number().int(),
  caption: z.string(),
  url: z.string(),
  thumbnailUrl: z.string(),
  createdAt: z.string(),
});
export type AttachmentItem = z.infer<typeof attachment>;

export const uploadAttachmentResponse = envelope.extend({ data: attachment });
export const attachmentResponse = envelope.extend({ data: attachment });
export const attachmentsQuery = attachmentTargetFields;
export const attachmentsResponse = envelope.extend({ data: z.array(attachment) });
export const attachmentIdParams = z.object({ id: z.string().trim().min(1).max(64) });
export const editAttachmentBody = z.object({ caption });
export const attachmentUsageResponse = envelope.extend({
  data: z.object({ bytes: z.number().int(), quota: z.number().int(), count: z.number().int() }),
});
