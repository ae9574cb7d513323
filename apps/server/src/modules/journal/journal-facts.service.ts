import type { Kysely } from 'kysely';
import { TAG_KINDS, type TagKind, type TradeTag } from '@pipsense/contract';
import { apiAccountId } from '../trading';
import type { JournalTables } from './tables';

/**
 * Read-only journal facts for the overview and the assistant: the user's tags, which trade carries which tag, and
 * the notes (the first stop-loss the sync kept comes with each trade the trade views read). Trades are named as the API names them (the
 * account's login, i.e. `accountId`, and the trade id; decision record 007): `tradeRef()` is the one way to join
 * these facts with trade items.
 * Writes (tags, notes, day entries) belong to journal.service.ts.
 */
export const tradeRef = (accountId: string, tradeId: string): string => `${accountId}|${tradeId}`;
const refOf = (r: { account_key: string; trade_id: string }) => tradeRef(apiAccountId(r.account_key), r.trade_id);

export interface TradeNoteFact {
  note: string;
  rating: number | null;
}

const kindOf = (kind: string): TagKind =>
  (TAG_KINDS as readonly string[]).includes(kind) ? (kind as TagKind) : 'setup';

export function createJournalFactsService(db: Kysely<JournalTables>) {
  return {
    /** Every tag of the user, by kind then name. */
    async tags(userId: string): Promise<TradeTag[]> {
      const rows = await db
        .selectFrom('journal_tags')
        .select(['id', 'name', 'kind'])
        .where('user_id', '=', userId)
        .orderBy('kind')
        .orderBy('name_key')
        .execute();
      return rows.map((r) => ({ id: r.id, name: r.name, kind: kindOf(r.kind) }));
    },

    /** Tag ids per trade (`tradeRef`); trades without tags are absent. */
    async tagsByTrade(userId: string): Promise<Map<string, string[]>> {
      const rows = await db
        .selectFrom('trade_tags')
        .select(['account_key', 'trade_id', 'tag_id'])
        .where('user_id', '=', userId)
        .execute();
      const out = new Map<string, string[]>();
      for (const r of rows) {
        const key = refOf(r);
        const list = out.get(key);
        if (list) list.push(r.tag_id);
        else out.set(key, [r.tag_id]);
      }
      return out;
    },

    /** Note and rating per trade, for the trades that have one. */
    async notesByTrade(userId: string): Promise<Map<string, TradeNoteFact>> {
      const rows = await db
        .selectFrom('trade_notes')
        .select(['account_key', 'trade_id', 'note', 'rating'])
        .where('user_id', '=', userId)
        .execute();
      return new Map(rows.map((r) => [refOf(r), { note: r.note, rating: r.rating }]));
    },
  };
}
export type JournalFactsService = ReturnType<typeof createJournalFactsService>;
