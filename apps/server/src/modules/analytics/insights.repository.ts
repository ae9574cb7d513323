import type { Kysely, Selectable } from 'kysely';
import type { AnalyticsInsightsTable } from '../../db/schema';
import type { AnalyticsTables } from './tables';

export type InsightsRow = Selectable<AnalyticsInsightsTable>;
type InsightsStatus = 'pending' | 'ready' | 'fallback';

export interface InsightsClaim {
  userId: string;
  scope: string;
  version: string;
  dataAsOf: string;
  provider: string;
  model: string;
  /** Written as started_at; also the token that lets only this claim finish the row. */
  startedAt: string;
  /** A pending claim started before this is taken to be dead (its server stopped) and may be taken over. */
  staleBefore: string;
}

export interface InsightsOutcome {
  status: Exclude<InsightsStatus, 'pending'>;
  model: string | null;
  /** JSON of the validated structured insights (ready only). */
  insights: string | null;
  note: string | null;
  writtenAt: string;
  retryAfter: string | null;
}

/** The cached overview insights, always scoped by user id. */
export function createInsightsRepository(db: Kysely<AnalyticsTables>) {
  return {
    find(userId: string, scope: string): Promise<InsightsRow | undefined> {
      return db
        .selectFrom('analytics_insights')
        .selectAll()
        .where('user_id', '=', userId)
        .where('scope', '=', scope)
        .executeTakeFirst();
    },

    /**
     * Takes the right to write the insights of one data version, atomically across server instances: true
     * when this caller inserted the row, or moved it to a newer version, or took over a stalled claim or a
     * transient failure whose pause is over. False when someone else holds it (or holds newer data).
     */
    async claim(claim: InsightsClaim): Promise<boolean> {
      const result = await db
        .insertInto('analytics_insights')
        .values({
          user_id: claim.userId,
          scope: claim.scope,
          version: claim.version,
          data_as_of: claim.dataAsOf,
          provider: claim.provider,
          status: 'pending',
          model: claim.model,
          insights: null,
          note: null,
          started_at: claim.startedAt,
          written_at: null,
          retry_after: null,
        })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'scope'])
            .doUpdateSet((eb) => ({
              version: eb.ref('excluded.version'),
              data_as_of: eb.ref('excluded.data_as_of'),
              provider: eb.ref('excluded.provider'),
              status: eb.ref('excluded.status'),
              model: eb.ref('excluded.model'),
              insights: eb.ref('excluded.insights'),
              note: eb.ref('excluded.note'),
              started_at: eb.ref('excluded.started_at'),
              written_at: eb.ref('excluded.written_at'),
              retry_after: eb.ref('excluded.retry_after'),
            }))
            .where((eb) => {
              const sameVersion = eb('analytics_insights.version', '=', eb.ref('excluded.version'));
              return eb.or([
                eb.and([
                  eb('analytics_insights.version', '<>', eb.ref('excluded.version')),
                  eb('analytics_insights.data_as_of', '<=', eb.ref('excluded.data_as_of')),
                ]),
                eb.and([
                  sameVersion,
                  eb('analytics_insights.status', '=', 'pending'),
                  eb('analytics_insights.started_at', '<', claim.staleBefore),
                ]),
                eb.and([
                  sameVersion,
                  eb('analytics_insights.status', '=', 'fallback'),
                  eb('analytics_insights.retry_after', '<=', claim.startedAt),
                ]),
              ]);
            }),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** Stores the outcome of a claim; a no-op when the row was claimed again since (newer data, takeover). */
    async finish(claim: Pick<InsightsClaim, 'userId' | 'scope' | 'version' | 'startedAt'>, outcome: InsightsOutcome) {
      await db
        .updateTable('analytics_insights')
        .set({
          status: outcome.status,
          model: outcome.model,
          insights: outcome.insights,
          note: outcome.note,
          written_at: outcome.writtenAt,
          retry_after: outcome.retryAfter,
        })
        .where('user_id', '=', claim.userId)
        .where('scope', '=', claim.scope)
        .where('version', '=', claim.version)
        .where('started_at', '=', claim.startedAt)
        .where('status', '=', 'pending')
        .execute();
    },
  };
}
export type InsightsRepository = ReturnType<typeof createInsightsRepository>;
