import { sql, type Kysely } from 'kysely';
import { coachFact, tradeReview, type CoachFact, type TradeReview } from '@pipsense/contract';
import { z } from 'zod';
import type { CoachTables } from './tables';

/** A trade's stored review (coach_trade_reviews). */
export interface StoredTradeReview {
  dataVersion: string;
  facts: CoachFact[];
  review: TradeReview;
  source: string;
  createdAt: string;
}

export interface TradeKey {
  accountKey: string;
  tradeId: string;
}

const storedFacts = z.array(coachFact);

/** The coach's stored trade reviews and its background share of provider requests (coach_ai_usage). */
export function createTradeReviewRepository(db: Kysely<CoachTables>) {
  return {
    async find(userId: string, key: TradeKey): Promise<StoredTradeReview | undefined> {
      const row = await db
        .selectFrom('coach_trade_reviews')
        .selectAll()
        .where('user_id', '=', userId)
        .where('account_key', '=', key.accountKey)
        .where('trade_id', '=', key.tradeId)
        .executeTakeFirst();
      if (!row) return undefined;
      // A row this version cannot read (written by a later one) is as good as none: the review is made again.
      const review = tradeReview.safeParse(JSON.parse(row.review));
      const facts = storedFacts.safeParse(JSON.parse(row.facts));
      if (!review.success || !facts.success) return undefined;
      return {
        dataVersion: row.data_version,
        facts: facts.data,
        review: review.data,
        source: row.source,
        createdAt: row.created_at,
      };
    },

    /** The versions of the user's stored reviews by `<account key> <trade id>` (the background pass skips fresh ones). */
    async versions(userId: string): Promise<Map<string, string>> {
      const rows = await db
        .selectFrom('coach_trade_reviews')
        .select(['account_key', 'trade_id', 'data_version'])
        .where('user_id', '=', userId)
        .execute();
      return new Map(rows.map((r) => [`${r.account_key} ${r.trade_id}`, r.data_version]));
    },

    async save(userId: string, key: TradeKey, stored: StoredTradeReview): Promise<void> {
      const values = {
        data_version: stored.dataVersion,
        facts: JSON.stringify(stored.facts),
        review: JSON.stringify(stored.review),
        source: stored.source,
        created_at: stored.createdAt,
      };
      await db
        .insertInto('coach_trade_reviews')
        .values({ user_id: userId, account_key: key.accountKey, trade_id: key.tradeId, ...values })
        .onConflict((oc) => oc.columns(['user_id', 'account_key', 'trade_id']).doUpdateSet(values))
        .execute();
    },

    /**
     * Takes one of the day's background provider requests (COACH_DAILY_REQUESTS): one atomic upsert that raises the
     * count only while it is under the limit, so every instance shares it. False when none is left.
     */
    async takeBackgroundRequest(userId: string, day: string, limit: number): Promise<boolean> {
      if (limit <= 0) return false;
      const row = await db
        .insertInto('coach_ai_usage')
        .values({ user_id: userId, day, requests: 1 })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'day'])
            .doUpdateSet({ requests: sql<number>`coach_ai_usage.requests + 1` })
            .where('coach_ai_usage.requests', '<', limit),
        )
        .returning('requests')
        .executeTakeFirst();
      return row !== undefined;
    },

    async backgroundRequests(userId: string, day: string): Promise<number> {
      const row = await db
        .selectFrom('coach_ai_usage')
        .select('requests')
        .where('user_id', '=', userId)
        .where('day', '=', day)
        .executeTakeFirst();
      return row?.requests ?? 0;
    },
  };
}
export type TradeReviewRepository = ReturnType<typeof createTradeReviewRepository>;
