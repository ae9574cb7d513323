import type { Kysely } from 'kysely';
import {
  DEFAULT_COACH_SETTINGS,
  weeklyReview,
  type CoachSettings,
  type WeeklyReview,
  type WeeklyReviewListItem,
} from '@pipsense/contract';
import {
  addDays,
  addWeeks,
  isoWeekRange,
  isoWeekText,
  mondayOf,
  parseIsoWeek,
  startOfHour,
  type IsoWeek,
} from '../../domain/calendar';
import { badRequest, notFound } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import type { CoachSettingsStore } from './coach-settings';
import type { CoachTables } from './tables';
import { composeWeeklyReview, weekOfInstant, type WeeklyPorts } from './weekly';
import { weeklyMail } from './weekly-mail';

export interface WeeklyServiceDeps extends WeeklyPorts {
  db: Kysely<CoachTables>;
  settings: Pick<CoachSettingsStore, 'get' | 'all'>;
  /** The trader's time zone (settings); UTC when none is set. */
  timeZoneOf: (userId: string) => Promise<string | null>;
  /** The users the job considers besides those with coach settings: the users with trades (the read side). */
  usersWithTrades: () => Promise<string[]>;
  /** The user's confirmed address (auth's `noticeAddress`), or null: no email then. */
  emailOf: (userId: string) => Promise<string | null>;
  mailer: Pick<Mailer, 'sends' | 'send'>;
  now: () => Date;
  log: (err: unknown, context: Record<string, unknown>) => void;
}

const NOT_FOUND = 'Weekly review not found. Open the weekly reviews again.';

/**
 * The week the job composes by these settings at `now`: the week before the one whose scheduled local day and hour
 * (`weeklyDay`, `weeklyHour`) came last.
 */
export function dueWeek(settings: CoachSettings, timeZone: string, now: Date): IsoWeek {
  const thisWeek = weekOfInstant(now.getTime(), timeZone);
  const day = addDays(mondayOf(thisWeek), settings.weeklyDay - 1);
  const scheduled = startOfHour(day, settings.weeklyHour, timeZone).getTime();
  return addWeeks(thisWeek, now.getTime() >= scheduled ? -1 : -2);
}

function listItem(review: WeeklyReview): WeeklyReviewListItem {
  return {
    week: review.week,
    from: review.from,
    to: review.to,
    trades: review.figures.trades,
    netPL: review.figures.netPL,
    focus: review.focus.text,
    source: review.source,
    createdAt: review.createdAt,
    readAt: review.readAt,
  };
}

/**
 * The weekly reviews (docs/coach.md, Weekly review): composed by the job or on a request for an ended week, stored
 * once per user and week (whichever instance inserts first), listed with their unread count, and emailed once.
 */
export function createWeeklyService(deps: WeeklyServiceDeps) {
  const { db, now } = deps;

  const zoneOf = async (userId: string) => (await deps.timeZoneOf(userId)) ?? 'UTC';
  /** The latest ended ISO week in the trader's zone: the week before the one holding now. */
  const lastEndedOf = async (userId: string) =>
    isoWeekText(addWeeks(weekOfInstant(now().getTime(), await zoneOf(userId)), -1));

  async function stored(userId: string, week: string): Promise<WeeklyReview | null> {
    const row = await db
      .selectFrom('coach_weekly_reviews')
      .select(['data', 'read_at'])
      .where('user_id', '=', userId)
      .where('week', '=', week)
      .executeTakeFirst();
    if (!row) return null;
    return { ...weeklyReview.parse(JSON.parse(row.data)), readAt: row.read_at };
  }

  /** Composes the week and stores it unless another instance (or request) stored it first; the stored one wins. */
  async function make(userId: string, week: IsoWeek, timeZone: string): Promise<WeeklyReview> {
    const text = isoWeekText(week);
    const previous = await stored(userId, isoWeekText(addWeeks(week, -1)));
    const review = await composeWeeklyReview(deps, userId, { week, timeZone, previous, now: now() });
    await db
      .insertInto('coach_weekly_reviews')
      .values({
        user_id: userId,
        week: text,
        from_time: review.from,
        to_time: review.to,
        data: JSON.stringify(review),
        source: review.source,
        created_at: review.createdAt,
        read_at: null,
        emailed_at: null,
      })
      .onConflict((oc) => oc.columns(['user_id', 'week']).doNothing())
      .execute();
    return (await stored(userId, text))!;
  }

  /** Emails the stored review once: only the caller whose update of `emailed_at` from null succeeds sends it. */
  async function emailOnce(userId: string, review: WeeklyReview, settings: CoachSettings): Promise<boolean> {
    if (!settings.emailWeekly || !deps.mailer.sends) return false;
    const to = await deps.emailOf(userId);
    if (!to) return false;
    const claimed = await db
      .updateTable('coach_weekly_reviews')
      .set({ emailed_at: now().toISOString() })
      .where('user_id', '=', userId)
      .where('week', '=', review.week)
      .where('emailed_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    try {
      await deps.mailer.send({ to, ...weeklyMail(review) });
      return true;
    } catch (err) {
      // Given back, so that a later run may send it.
      await db
        .updateTable('coach_weekly_reviews')
        .set({ emailed_at: null })
        .where('user_id', '=', userId)
        .where('week', '=', review.week)
        .execute();
      throw err;
    }
  }

  /** emailOnce for the job and the request alike: a failed send is logged and never fails the review. */
  const mailLogged = (userId: string, review: WeeklyReview, settings: CoachSettings) =>
    emailOnce(userId, review, settings).then(
      () => undefined,
      (err: unknown) => deps.log(err, { userId, week: review.week, step: 'weekly review email' }),
    );

  async function settingsByUser(): Promise<Map<string, CoachSettings>> {
    const [withSettings, withTrades] = await Promise.all([deps.settings.all(), deps.usersWithTrades()]);
    const map = new Map(withSettings.map((s) => [s.userId, s.settings]));
    for (const userId of withTrades) if (!map.has(userId)) map.set(userId, DEFAULT_COACH_SETTINGS);
    return map;
  }

  const service = {
    /** The users whose most recent due week has no review yet (the job's tick, on start too: a missed run). */
    async due(): Promise<string[]> {
      const at = now();
      const users = await settingsByUser();
      const wanted = await Promise.all(
        [...users].map(async ([userId, settings]) => ({
          userId,
          week: isoWeekText(dueWeek(settings, await zoneOf(userId), at)),
        })),
      );
      if (wanted.length === 0) return [];
      const have = new Set<string>();
      const weeks = [...new Set(wanted.map((w) => w.week))];
      for (let i = 0; i < weeks.length; i += 500) {
        const rows = await db
          .selectFrom('coach_weekly_reviews')
          .select(['user_id', 'week'])
          .where('week', 'in', weeks.slice(i, i + 500))
          .execute();
        for (const r of rows) have.add(`${r.user_id} ${r.week}`);
      }
      return wanted.filter((w) => !have.has(`${w.userId} ${w.week}`)).map((w) => w.userId);
    },

    /** The job of one user: the due week composed and stored (once), then emailed (once) when opted in. */
    async run(userId: string): Promise<string> {
      const [settings, timeZone] = await Promise.all([deps.settings.get(userId), zoneOf(userId)]);
      const week = dueWeek(settings, timeZone, now());
      const review = (await stored(userId, isoWeekText(week))) ?? (await make(userId, week, timeZone));
      await mailLogged(userId, review, settings);
      return review.week;
    },

    async list(userId: string): Promise<{ weeks: WeeklyReviewListItem[]; unread: number; lastEnded: string }> {
      const rows = await db
        .selectFrom('coach_weekly_reviews')
        .select(['data', 'read_at'])
        .where('user_id', '=', userId)
        .orderBy('week', 'desc')
        .execute();
      const weeks = rows.map((r) => listItem({ ...weeklyReview.parse(JSON.parse(r.data)), readAt: r.read_at }));
      return {
        weeks,
        unread: weeks.filter((w) => w.readAt === null).length,
        lastEnded: await lastEndedOf(userId),
      };
    },

    /** The latest ended ISO week in the trader's zone (the assistant's default week). */
    async lastEnded(userId: string): Promise<string> {
      return lastEndedOf(userId);
    },

    /** A stored week, or an ended one composed now; a week that has not ended is a 400. */
    async get(userId: string, weekText: string): Promise<WeeklyReview> {
      const week = parseIsoWeek(weekText);
      if (!week) throw badRequest(`week ${weekText} does not exist: give an ISO week such as 2026-W47`);
      const found = await stored(userId, isoWeekText(week));
      if (found) return found;
      const timeZone = await zoneOf(userId);
      const { to } = isoWeekRange(week, timeZone);
      if (now().getTime() < to.getTime())
        throw badRequest(`Week ${isoWeekText(week)} has not ended yet: its review comes once it has.`);
      // Made here as the job makes it, so mailed as the job mails it: a week the job never reached (a trader who just
      // arrived, an instance that was down) still reaches an opted-in inbox, once.
      const review = await make(userId, week, timeZone);
      await mailLogged(userId, review, await deps.settings.get(userId));
      return review;
    },

    async markRead(userId: string, weekText: string): Promise<WeeklyReview> {
      const week = parseIsoWeek(weekText);
      if (!week) throw notFound(NOT_FOUND);
      await db
        .updateTable('coach_weekly_reviews')
        .set({ read_at: now().toISOString() })
        .where('user_id', '=', userId)
        .where('week', '=', isoWeekText(week))
        .where('read_at', 'is', null)
        .execute();
      const review = await stored(userId, isoWeekText(week));
      if (!review) throw notFound(NOT_FOUND);
      return review;
    },
  };
  return service;
}
export type WeeklyService = ReturnType<typeof createWeeklyService>;
