import { z } from 'zod';
import { currencyAmount, currencyMode, envelope, timeZone } from './common';
import { TAG_KINDS, tradeTag } from './tags';
import { tradeListItem } from './trading';

/**
 * The trading journal: tags of three kinds, a note/rating/tags per trade, and one journal entry per
 * calendar day. Every route is scoped to the signed-in user. A trade is named by the `accountId` and `tradeId`
 * that `get_trade_history` returns.
 *
 * Tags and trade notes (bearer token; errors are the usual `{ success: false, message, code }`):
 * - `GET  /api/v1/journal/get_tags` → `tagsResponse`: the user's tags by kind (setup, mistake, emotion) then name,
 *   each with its trade count. The first read gives a starter set per kind, once: deleted starter tags stay deleted.
 * - `POST /api/v1/journal/create_tag` `createTagBody` → `tagResponse`; 409 `TAG_EXISTS` when the user has a tag of
 *   that kind with that name in any case; 400 `TAG_LIMIT` past `JOURNAL_LIMITS.tagsPerUser`.
 * - `POST /api/v1/journal/edit_tag/:tagId` `editTagBody` → `tagResponse` (renames; same 409); 404 for a tag that is
 *   not the user's.
 * - `POST /api/v1/journal/delete_tag/:tagId` → `tagResponse` (the tag as it was): deletes it and takes it off every
 *   trade; 404 for a tag that is not the user's.
 * - `GET  /api/v1/journal/get_trade_note/:accountId/:tradeId` → `tradeNoteResponse` (empty when nothing was written);
 *   404 when the trade is not among the user's synced trades.
 * - `POST /api/v1/journal/update_trade_note/:accountId/:tradeId` `updateTradeNoteBody` → `tradeNoteResponse`:
 *   replaces note, rating and tags as a whole (left-out fields are cleared); 404 for another user's or an unknown
 *   trade, 400 naming `tagIds` for a tag id that is not the user's; nothing changes on any error.
 * - `POST /api/v1/journal/bulk_tag` `bulkTagBody` → `bulkTagResponse`: adds the tags to every listed trade in one
 *   transaction (tags already on a trade stay, counted once); refused whole (404 trade, 400 tag, 400 past
 *   `JOURNAL_LIMITS.tagsPerTrade` on a trade) with nothing written.
 * Notes and tags name a trade by its key, not its synced row: re-syncs and OANDA configuration changes keep them.
 */

/** Limits a trader meets in the forms; the server refuses anything past them with a 400 that names the field. */
export const JOURNAL_LIMITS = {
  tagName: 40,
  tagsPerUser: 200,
  tagsPerTrade: 20,
  note: 20_000,
  bulkTrades: 500,
} as const;

const tagItem = tradeTag.extend({
  /** Trades of the user carrying the tag. */
  trades: z.number().int().min(0),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TagItem = z.infer<typeof tagItem>;

const tagName = z
  .string({ error: 'name must be text' })
  .trim()
  .min(1, 'name is required')
  .max(JOURNAL_LIMITS.tagName, `name must be at most ${JOURNAL_LIMITS.tagName} characters`);

export const createTagBody = z.object({
  name: tagName,
  kind: z.enum(TAG_KINDS, { error: 'kind must be setup, mistake or emotion' }),
});
export type CreateTagBody = z.infer<typeof createTagBody>;
export const editTagBody = z.object({ name: tagName });
export const tagIdParams = z.object({
  tagId: z.string().trim().min(1, 'tagId is required').max(64, 'tagId is too long'),
});

export const tagsResponse = envelope.extend({ data: z.array(tagItem) });
export type TagsResponse = z.infer<typeof tagsResponse>;
export const tagResponse = envelope.extend({ data: tagItem });
export type TagResponse = z.infer<typeof tagResponse>;

/** `/journal/get_trade_note/:accountId/:tradeId` and `/journal/update_trade_note/:accountId/:tradeId`. */
export const tradeKeyParams = z.object({
  accountId: z.string().trim().min(1, 'accountId is required').max(200, 'accountId is too long'),
  tradeId: z.string().trim().min(1, 'tradeId is required').max(200, 'tradeId is too long'),
});

const tagIds = z
  .array(z.string().trim().min(1).max(64), { error: 'tagIds must be a list of tag ids' })
  .max(JOURNAL_LIMITS.tagsPerTrade, `at most ${JOURNAL_LIMITS.tagsPerTrade} tags`);

/** 1 (poor) to 5 (excellent); null clears it. */
const rating = z
  .number({ error: 'rating must be a whole number from 1 to 5' })
  .int('rating must be a whole number from 1 to 5')
  .min(1, 'rating must be a whole number from 1 to 5')
  .max(5, 'rating must be a whole number from 1 to 5');

const noteText = z
  .string({ error: 'note must be text' })
  .max(JOURNAL_LIMITS.note, `note must be at most ${JOURNAL_LIMITS.note.toLocaleString('en-US')} characters`);

/** Replaces the trade's note, rating and tags as a whole. */
export const updateTradeNoteBody = z.object({
  note: noteText.default(''),
  rating: rating.nullable().default(null),
  tagIds: tagIds.default([]),
});
export type UpdateTradeNoteBody = z.input<typeof updateTradeNoteBody>;

const tradeNote = z.object({
  accountId: z.string(),
  tradeId: z.string(),
  /** Markdown source, shown as text (never as HTML). '' when none. */
  note: z.string(),
  rating: z.number().int().nullable(),
  tags: z.array(tradeTag),
  /** null when nothing was ever written for the trade. */
  updatedAt: z.string().nullable(),
});
export type TradeNote = z.infer<typeof tradeNote>;
export const tradeNoteResponse = envelope.extend({ data: tradeNote });
export type TradeNoteResponse = z.infer<typeof tradeNoteResponse>;

/**
 * Adds the tags to every listed trade (a trade listed twice counts once); refused whole when one trade or tag is
 * not the caller's. `trades`: the trades tagged; `added`: tags newly put on a trade.
 */
export const bulkTagBody = z.object({
  trades: z
    .array(tradeKeyParams, { error: 'trades must be a list of { accountId, tradeId }' })
    .min(1, 'select at least one trade')
    .max(JOURNAL_LIMITS.bulkTrades, `at most ${JOURNAL_LIMITS.bulkTrades} trades at once`),
  tagIds: tagIds.min(1, 'choose at least one tag'),
});
export type BulkTagBody = z.infer<typeof bulkTagBody>;
export const bulkTagResponse = envelope.extend({
  data: z.object({ trades: z.number().int(), added: z.number().int() }),
});
export type BulkTagResponse = z.infer<typeof bulkTagResponse>;

const isRealDate = (value: string) => {
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
};

export const calendarQuery = z.object({
  month: z.string({ error: 'month must be YYYY-MM' }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'month must be YYYY-MM'),
  timeZone: timeZone.default('UTC'),
});

/** A trade counts on the day it closed, in the trader's zone; open trades are not on the calendar. */
const calendarDay = z.object({
  date: z.string(),
  /**
   * Exact decimal text, the day's realized P/L in `currency`: the sum in the one currency of the trader's accounts,
   * or converted into the home currency; null when the month is listed per currency (see `byCurrency`).
   */
  netPL: z.string().nullable(),
  /** The currency of `netPL`; null when it is null. */
  currency: z.string().nullable(),
  /** The day's realized P/L per account currency, ordered by code (docs/decisions/024-currencies-never-mixed.md). */
  byCurrency: z.array(currencyAmount),
  trades: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  hasEntry: z.boolean(),
  /**
   * How many of the day's trades (those the calendar counts on it: closed that day) broke a trade-level rule of the
   * user's rule sets (docs/rules.md, Where breaks are shown).
   */
  ruleBreaks: z.number().int().default(0),
});
export type CalendarDay = z.infer<typeof calendarDay>;
export const calendarResponse = envelope.extend({
  data: z.object({
    month: z.string(),
    timeZone: z.string(),
    /**
     * How the month's money is shown: `single` or `converted` (every day's netPL in one currency, which add up),
     * `listed` (netPL null; each day's byCurrency, added per currency).
     */
    currency: z.object({ mode: currencyMode, home: z.string(), currencies: z.array(z.string()) }).optional(),
    days: z.array(calendarDay),
  }),
});
export type CalendarResponse = z.infer<typeof calendarResponse>;

export const dayParams = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD')
    .refine(isRealDate, 'date must be a real calendar day (YYYY-MM-DD)'),
});
export const dayQuery = z.object({ timeZone: timeZone.default('UTC') });
/** 1 (bad) to 5 (great); null clears it. */
const mood = z
  .number({ error: 'mood must be a whole number from 1 to 5' })
  .int('mood must be a whole number from 1 to 5')
  .min(1, 'mood must be a whole number from 1 to 5')
  .max(5, 'mood must be a whole number from 1 to 5');
export const updateDayBody = z.object({
  note: noteText.default(''),
  mood: mood.nullable().default(null),
});
export type UpdateDayBody = z.input<typeof updateDayBody>;

const journalDay = z.object({
  date: z.string(),
  note: z.string(),
  mood: z.number().int().nullable(),
  updatedAt: z.string().nullable(),
});
export type JournalDay = z.infer<typeof journalDay>;
/** The day's entry and the trades that closed on it (in the requested zone), newest first. */
export const dayResponse = envelope.extend({ data: journalDay.extend({ trades: z.array(tradeListItem) }) });
export type DayResponse = z.infer<typeof dayResponse>;
/** POST /journal/update_day/:date answers with the entry as stored. */
export const updateDayResponse = envelope.extend({ data: journalDay });
export type UpdateDayResponse = z.infer<typeof updateDayResponse>;
