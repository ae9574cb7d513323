import type { Kysely } from 'kysely';
import {
  coachThresholds,
  DEFAULT_COACH_SETTINGS,
  type CoachSettings,
  type CoachSettingsBody,
} from '@pipsense/contract';
import type { CoachTables } from './tables';

/**
 * A user's coach settings (docs/coach.md, Settings): the stored row, or the defaults for a user who changed nothing.
 * Thresholds are stored as given and merged over the defaults on read, so a later default reaches every user who
 * never set that threshold.
 */
export interface CoachSettingsStore {
  get(userId: string): Promise<CoachSettings>;
  update(userId: string, change: CoachSettingsBody): Promise<CoachSettings>;
  /** Users whose weekly review is composed at this ISO weekday and local hour are found by the scheduler from these. */
  all(): Promise<Array<{ userId: string; settings: CoachSettings }>>;
}

type Row = CoachTables['coach_settings'];

function fromRow(row: { [K in keyof Row]: Row[K] extends { __select__: infer S } ? S : Row[K] }): CoachSettings {
  const given = coachThresholds.partial().safeParse(JSON.parse(row.thresholds));
  return {
    autoReview: row.auto_review === 1,
    aiWritten: row.ai_written === 1,
    weeklyDay: row.weekly_day,
    weeklyHour: row.weekly_hour,
    emailWeekly: row.email_weekly === 1,
    thresholds: { ...DEFAULT_COACH_SETTINGS.thresholds, ...(given.success ? given.data : {}) },
  };
}

export function createCoachSettingsStore(db: Kysely<CoachTables>, now: () => Date): CoachSettingsStore {
  async function read(userId: string) {
    return db.selectFrom('coach_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }
  return {
    async get(userId) {
      const row = await read(userId);
      return row ? fromRow(row) : DEFAULT_COACH_SETTINGS;
    },
    async update(userId, change) {
      return db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('coach_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
        const current = row ? fromRow(row) : DEFAULT_COACH_SETTINGS;
        const storedThresholds = row ? (JSON.parse(row.thresholds) as Record<string, unknown>) : {};
        const next: CoachSettings = {
          ...current,
          ...change,
          thresholds: { ...current.thresholds, ...change.thresholds },
        };
        const values = {
          auto_review: next.autoReview ? 1 : 0,
          ai_written: next.aiWritten ? 1 : 0,
          weekly_day: next.weeklyDay,
          weekly_hour: next.weeklyHour,
          email_weekly: next.emailWeekly ? 1 : 0,
          thresholds: JSON.stringify({ ...storedThresholds, ...change.thresholds }),
          updated_at: now().toISOString(),
        };
        await trx
          .insertInto('coach_settings')
          .values({ user_id: userId, ...values })
          .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
          .execute();
        return next;
      });
    },
    async all() {
      const rows = await db.selectFrom('coach_settings').selectAll().execute();
      return rows.map((row) => ({ userId: row.user_id, settings: fromRow(row) }));
    },
  };
}
