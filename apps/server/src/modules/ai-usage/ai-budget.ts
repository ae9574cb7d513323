import { sql, type Kysely } from 'kysely';
import type { LlmProvider, LlmRequest } from '../../integrations/llm';
import type { AiUsageTables } from './tables';

/** What the trader reads when today's AI requests are used up (the chat's built-in answer follows it). */
export const budgetExhaustedMessage = (limit: number): string =>
  `You have used today's ${limit} AI requests. The built-in analyst answers until midnight UTC.`;

/** The Overview's note when today's AI requests are used up. */
export const budgetInsightsNote = (limit: number): string =>
  `You have used today's ${limit} AI requests, so the built-in analysis wrote these insights; AI insights return after midnight UTC.`;

/** Thrown instead of calling a provider once the user's requests of the day are used up; its message is for them. */
export class AiBudgetExhaustedError extends Error {
  constructor(
    readonly limit: number,
    /** When the budget starts again: the next midnight UTC (RFC 3339). */
    readonly resetsAt: string,
  ) {
    super(budgetExhaustedMessage(limit));
    this.name = 'AiBudgetExhaustedError';
  }
}

export interface AiBudget {
  /** Requests per user per UTC day; 0: no limit. */
  readonly limit: number;
  /** Whether the user may still make a provider request today (counts nothing). */
  hasRoom(userId: string): Promise<boolean>;
  /** Counts one provider request; throws `AiBudgetExhaustedError` (counting nothing) when the day's are used up. */
  take(userId: string): Promise<void>;
  /** The provider, each of whose calls first counts one request of the user. */
  provider(provider: LlmProvider, userId: string): LlmProvider;
}

const utcDay = (at: Date): string => at.toISOString().slice(0, 10);
const nextMidnight = (at: Date): string =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1)).toISOString();

/**
 * A daily budget of provider requests per user (`AI_DAILY_REQUESTS`; SECURITY.md, AI cost), counted in the database
 * by one atomic upsert per call, so every instance on the database shares it. A call over the budget is never sent.
 */
export function createAiBudget(db: Kysely<AiUsageTables>, limit: number, now: () => Date): AiBudget {
  async function take(userId: string): Promise<void> {
    if (limit === 0) return;
    const at = now();
    // The conflict update raises the count only while it is under the limit; no row back means none was left.
    const row = await db
      .insertInto('ai_usage')
      .values({ user_id: userId, day: utcDay(at), requests: 1 })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'day'])
          .doUpdateSet({ requests: sql<number>`ai_usage.requests + 1` })
          .where('ai_usage.requests', '<', limit),
      )
      .returning('requests')
      .executeTakeFirst();
    if (!row) throw new AiBudgetExhaustedError(limit, nextMidnight(at));
  }

  return {
    limit,
    take,

    async hasRoom(userId) {
      if (limit === 0) return true;
      const row = await db
        .selectFrom('ai_usage')
        .select('requests')
        .where('user_id', '=', userId)
        .where('day', '=', utcDay(now()))
        .executeTakeFirst();
      return (row?.requests ?? 0) < limit;
    },

    provider(inner, userId) {
      return {
        id: inner.id,
        label: inner.label,
        model: (topic) => inner.model(topic),
        async complete(request: LlmRequest) {
          await take(userId);
          return inner.complete(request);
        },
        async *stream(request: LlmRequest) {
          await take(userId);
          yield* inner.stream(request);
        },
      };
    },
  };
}
