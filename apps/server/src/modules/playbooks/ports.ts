import type { Candle } from '../candles';

/** An item of this module that images attach to (docs/review.md, Attachments). */
export type PlaybookItemTarget = 'playbook' | 'missed';

/**
 * The attachments module's part, wired by app.ts: how many images each item carries, and deleting an item's images
 * once its row is gone. Without it every count is 0 and nothing is deleted.
 */
export interface AttachmentPorts {
  attachmentCounts(userId: string, target: PlaybookItemTarget, ids: readonly string[]): Promise<Map<string, number>>;
  deleteAttachments(userId: string, item: { target: PlaybookItemTarget; id: string }): Promise<void>;
}

/**
 * Mid candles of one instrument over [from, to), oldest first, from the candle store at a screen's priority
 * (modules/candles); null when the user has no OANDA connection (no candle source).
 */
export type MissedCandles = (
  userId: string,
  request: { instrument: string; from: string; to: string },
) => Promise<Candle[] | null>;
