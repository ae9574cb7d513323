import { randomUUID } from 'node:crypto';
import {
  JOURNAL_LIMITS,
  TAG_KINDS,
  type TagItem,
  type TagKind,
  type TradeNote,
  type TradeTag,
} from '@pipsense/contract';
import type { JournalTagsTable } from '../../db/schema';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import type { TradingService } from '../trading';
import type { TradeViews } from '../trade-views';
import type { JournalRepository, TradeKey } from './journal.repository';

export interface JournalServiceDeps {
  journal: JournalRepository;
  trading: Pick<TradingService, 'ownedTrades'>;
  /** How many stored trades carry each tag (tags on trades no longer stored don't count). */
  views: Pick<TradeViews, 'tagTradeCounts'>;
  now: () => Date;
}

/** A trade as the API names it: the broker's account id (for OANDA its account id) and the trade id. */
export interface TradeRef {
  accountId: string;
  tradeId: string;
}

/** What a trade's journal holds. */
export interface TradeJournal {
  note: string;
  rating: number | null;
  tags: TradeTag[];
  updatedAt: string | null;
}

/** Given once to every user, the first time their tags are read or written; theirs to rename or delete. */
export const STARTER_TAGS: Readonly<Record<TagKind, readonly string[]>> = {
  setup: ['Breakout', 'Pullback', 'Trend following', 'Range', 'News'],
  mistake: ['FOMO', 'Moved stop', 'Oversized', 'Early exit', 'Revenge trade'],
  emotion: ['Confident', 'Anxious', 'Greedy', 'Bored', 'Calm'],
};

const KIND_WORD: Record<TagKind, string> = { setup: 'setup', mistake: 'mistake', emotion: 'emotion' };

const TAG_NOT_FOUND = 'Tag not found. It may have been deleted: reload your tags.';

/** The unique form of a tag name: trimmed, inner spaces collapsed, lower-cased. */
const tagNameKey = (name: string): string => name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
const tidyName = (name: string): string => name.normalize('NFC').trim().replace(/\s+/g, ' ');

/** The map key of a trade in `journalOf`'s answer. */
export const journalKey = ({ accountKey, tradeId }: TradeKey): string => `${accountKey}\n${tradeId}`;

const byKindThenName = (a: { kind: string; name_key: string }, b: { kind: string; name_key: string }) =>
  TAG_KINDS.indexOf(a.kind as TagKind) - TAG_KINDS.indexOf(b.kind as TagKind) ||
  (a.name_key < b.name_key ? -1 : a.name_key > b.name_key ? 1 : 0);

const toTradeTag = (row: { id: string; name: string; kind: string }): TradeTag => ({
  id: row.id,
  name: row.name,
  kind: row.kind as TagKind,
});

const toTagItem = (row: JournalTagsTable, counts: ReadonlyMap<string, number>): TagItem => ({
  ...toTradeTag(row),
  trades: counts.get(row.id) ?? 0,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const refText = (ref: TradeRef) => `trade ${ref.tradeId} of account ${ref.accountId}`;

/**
 * The trading journal's tags and per-trade notes, every call scoped by the signed-in user. Trades are named as
 * get_trade_history names them and must be among the user's stored trades; tags must be the user's.
 */
export function createJournalService({ journal, trading, views, now }: JournalServiceDeps) {
  async function ensureStarterTags(userId: string): Promise<void> {
    const at = now().toISOString();
    const rows: JournalTagsTable[] = TAG_KINDS.flatMap((kind) =>
      STARTER_TAGS[kind].map((name) => ({
        id: randomUUID(),
        user_id: userId,
        kind,
        name,
        name_key: tagNameKey(name),
        created_at: at,
        updated_at: at,
      })),
    );
    // A tag on no trade changes nothing the Overview shows (By tag lists tags in use): the journal version stays.
    await journal.giveStarterTags(userId, rows, at);
  }

  async function nameFree(userId: string, kind: TagKind, name: string, exceptId?: string): Promise<void> {
    const same = await journal.findByName(userId, kind, tagNameKey(name));
    if (same && same.id !== exceptId)
      throw conflict(
        `You already have a ${KIND_WORD[kind]} tag named "${same.name}". Choose another name.`,
        'TAG_EXISTS',
      );
  }

  async function ownedTag(userId: string, tagId: string): Promise<TagItem> {
    const row = await journal.findTag(userId, tagId);
    if (!row) throw notFound(TAG_NOT_FOUND);
    return toTagItem(row, await views.tagTradeCounts(userId, [tagId]));
  }

  /** The user's tags among `tagIds` (deduplicated); a 400 naming the first id that is not one of them. */
  async function ownedTagIds(userId: string, tagIds: readonly string[]): Promise<string[]> {
    const unique = [...new Set(tagIds)];
    const found = new Set((await journal.tagsByIds(userId, unique)).map((t) => t.id));
    const missing = unique.find((id) => !found.has(id));
    if (missing !== undefined)
      throw badRequest(`tagIds: no tag of yours has the id "${missing}" (it may have been deleted). Reload your tags.`);
    return unique;
  }

  const ownedTrades = (userId: string, refs: readonly TradeRef[]) => trading.ownedTrades(userId, refs);

  async function journalOf(userId: string, keys: readonly TradeKey[]): Promise<Map<string, TradeJournal>> {
    const out = new Map<string, TradeJournal>();
    if (keys.length === 0) return out;
    for (const row of await journal.notesOf(userId, keys))
      out.set(journalKey({ accountKey: row.account_key, tradeId: row.trade_id }), {
        note: row.note,
        rating: row.rating,
        tags: [],
        updatedAt: row.updated_at,
      });
    const tagRows = (await journal.tagsOn(userId, keys)).sort(byKindThenName);
    for (const row of tagRows) {
      const key = journalKey({ accountKey: row.account_key, tradeId: row.trade_id });
      let entry = out.get(key);
      if (!entry) out.set(key, (entry = { note: '', rating: null, tags: [], updatedAt: null }));
      entry.tags.push(toTradeTag(row));
    }
    return out;
  }

  async function noteOf(userId: string, ref: TradeRef, key: TradeKey): Promise<TradeNote> {
    const entry = (await journalOf(userId, [key])).get(journalKey(key));
    return {
      accountId: ref.accountId,
      tradeId: ref.tradeId,
      note: entry?.note ?? '',
      rating: entry?.rating ?? null,
      tags: entry?.tags ?? [],
      updatedAt: entry?.updatedAt ?? null,
    };
  }

  return {
    /** The user's tags (the starter set the first time), by kind then name, each with its trade count. */
    async tags(userId: string): Promise<TagItem[]> {
      await ensureStarterTags(userId);
      const [rows, counts] = await Promise.all([journal.listTags(userId), views.tagTradeCounts(userId)]);
      return rows.sort(byKindThenName).map((row) => toTagItem(row, counts));
    },

    async createTag(userId: string, name: string, kind: TagKind): Promise<TagItem> {
      await ensureStarterTags(userId);
      const tidy = tidyName(name);
      if ((await journal.countTags(userId)) >= JOURNAL_LIMITS.tagsPerUser)
        throw new AppError(
          400,
          'TAG_LIMIT',
          `You have ${JOURNAL_LIMITS.tagsPerUser} tags, the most allowed. Delete one you no longer use to add another.`,
        );
      await nameFree(userId, kind, tidy);
      const at = now().toISOString();
      const id = randomUUID();
      try {
        await journal.insertTag({
          id,
          user_id: userId,
          kind,
          name: tidy,
          name_key: tagNameKey(tidy),
          created_at: at,
          updated_at: at,
        });
      } catch (error) {
        // Two creations racing for the same name: the unique index decides.
        await nameFree(userId, kind, tidy);
        throw error;
      }
      // A new tag is on no trade yet: nothing the Overview shows changes.
      return ownedTag(userId, id);
    },

    async renameTag(userId: string, tagId: string, name: string): Promise<TagItem> {
      const tag = await ownedTag(userId, tagId);
      const tidy = tidyName(name);
      await nameFree(userId, tag.kind, tidy, tagId);
      try {
        if (!(await journal.renameTag(userId, tagId, tidy, tagNameKey(tidy), now().toISOString())))
          throw notFound(TAG_NOT_FOUND);
      } catch (error) {
        await nameFree(userId, tag.kind, tidy, tagId);
        throw error;
      }
      await journal.touched(userId, now().toISOString());
      return ownedTag(userId, tagId);
    },

    /** Deletes the tag and takes it off every trade; the tag as it was. */
    async deleteTag(userId: string, tagId: string): Promise<TagItem> {
      const tag = await ownedTag(userId, tagId);
      if (!(await journal.removeTag(userId, tagId))) throw notFound(TAG_NOT_FOUND);
      await journal.touched(userId, now().toISOString());
      return tag;
    },

    /** The trade's note, rating and tags (empty when nothing was written); a 404 when it is not the user's trade. */
    async tradeNote(userId: string, ref: TradeRef): Promise<TradeNote> {
      const [owned] = await ownedTrades(userId, [ref]);
      return noteOf(userId, ref, owned!.key);
    },

    /** Replaces the trade's note, rating and tags as a whole. */
    async updateTradeNote(
      userId: string,
      ref: TradeRef,
      entry: { note: string; rating: number | null; tagIds: readonly string[] },
    ): Promise<TradeNote> {
      const [owned] = await ownedTrades(userId, [ref]);
      const tagIds = await ownedTagIds(userId, entry.tagIds);
      const before = (await journalOf(userId, [owned!.key])).get(journalKey(owned!.key))?.tags ?? [];
      const at = now().toISOString();
      await journal.replaceNote(userId, owned!.key, { ...entry, tagIds }, at);
      // Only the tags reach the Overview (By tag): a note or a rating leaves its data version alone.
      const sameTags = before.length === new Set(tagIds).size && before.every((t) => tagIds.includes(t.id));
      if (!sameTags) await journal.touched(userId, at);
      return noteOf(userId, ref, owned!.key);
    },

    /**
     * Adds the tags to every listed trade in one transaction; refused whole (nothing written) when a trade or a tag
     * is not the user's, or a trade would carry more than JOURNAL_LIMITS.tagsPerTrade tags.
     */
    async bulkTag(
      userId: string,
      refs: readonly TradeRef[],
      tagIds: readonly string[],
    ): Promise<{ trades: number; added: number }> {
      const owned = await ownedTrades(userId, refs);
      const tags = await ownedTagIds(userId, tagIds);
      const keys = owned.map((o) => o.key);
      const current = await journalOf(userId, keys);
      for (const { ref, key } of owned) {
        const carried = new Set((current.get(journalKey(key))?.tags ?? []).map((t) => t.id));
        for (const id of tags) carried.add(id);
        if (carried.size > JOURNAL_LIMITS.tagsPerTrade)
          throw badRequest(
            `tagIds: ${refText(ref)} would carry ${carried.size} tags; a trade carries at most ${JOURNAL_LIMITS.tagsPerTrade}.`,
          );
      }
      const at = now().toISOString();
      const added = await journal.addTags(userId, keys, tags, at);
      if (added > 0) await journal.touched(userId, at);
      return { trades: keys.length, added };
    },

    /**
     * The journal of these trades (named by their keys), for the modules that show a trade; trades with nothing
     * written are not in the map. Keys are `journalKey(…)`.
     */
    journalOf,
  };
}
export type JournalService = ReturnType<typeof createJournalService>;
