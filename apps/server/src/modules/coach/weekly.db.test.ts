import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WeeklyReview } from '@pipsense/contract';
import { createDb, type Db } from '../../db/client';
import { confirmEmail } from '../../test/confirm-email';
import { createPgDatabase, createTestApp, TEST_SECRETS, testDialect, type TestApp } from '../../test/harness';
import { seedAccount, seedTrades, userIdOf, type SeedTrade } from '../../test/seed-trades';
import { startSmtp, type TestSmtp } from '../../test/smtp';
import { until } from '../../test/until';
import type { WeeklyService } from './weekly-service';

/*
 * The weekly review end to end (docs/coach.md, Weekly review): its figures on a hand-checked book, the routes with
 * bad inputs and another user's attempts, the job made up after a restart and run once by two instances on one
 * database, and its email in two parts through a real SMTP server on loopback.
 */

/** pg-boss tuned for a test: no cron (ticks by hand), quick polling. */
const PG_BOSS = { cron: false, pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1, retryDelay: 1 };

let database: { url: string; drop: () => Promise<void> } | undefined;
let dataDir: string;
let db: Db;
let smtp: TestSmtp;
let clock = new Date('2026-11-25T12:00:00.000Z');
const apps: TestApp[] = [];

beforeAll(async () => {
  smtp = await startSmtp();
  dataDir = mkdtempSync(join(tmpdir(), 'pipsense-weekly-'));
  database = testDialect === 'postgres' ? await createPgDatabase() : undefined;
  db = createDb({ dataDir, databaseUrl: database?.url });
});
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});
afterAll(async () => {
  await db.close();
  await database?.drop();
  await smtp.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Instance {
  t: TestApp;
  jobs: { queue: { tick(): Promise<number>; idle(): Promise<void> }; service: WeeklyService };
}

/** An instance on the shared database, its clock the test's, its weekly job on when `enabled`. */
async function instance(enabled = false): Promise<Instance> {
  let jobs: Instance['jobs'] | undefined;
  const t = await createTestApp(
    { SMTP_URL: smtp.url, ...TEST_SECRETS, ...(database ? { DATABASE_URL: database.url } : {}) },
    {
      db,
      now: () => clock,
      syncJobs: { tickMs: 0, pgBoss: PG_BOSS },
      weeklyJobs: { enabled, expose: (j) => (jobs = j) },
    },
  );
  apps.push(t);
  return { t, jobs: jobs! };
}

const WEEK_TRADES: SeedTrade[] = [
  // Monday 16 November: +120.50 at 2 R, +15.00 without a stop.
  {
    id: '11',
    open: '2026-11-16T09:00:00Z',
    close: '2026-11-16T10:00:00Z',
    pl: '120.5000',
    price: '1.10000',
    closePrice: '1.10200',
    initialStop: '1.09900',
  },
  { id: '12', open: '2026-11-16T11:00:00Z', close: '2026-11-16T12:00:00Z', pl: '15.0000' },
  // Tuesday 17 November: −40.00 at −0.5 R, −80.25 short without a stop.
  {
    id: '13',
    instrument: 'GBP_USD',
    open: '2026-11-17T09:00:00Z',
    close: '2026-11-17T10:00:00Z',
    pl: '-40.0000',
    price: '1.30000',
    closePrice: '1.29900',
    initialStop: '1.29800',
  },
  {
    id: '14',
    instrument: 'USD_JPY',
    units: '-1000',
    open: '2026-11-17T11:00:00Z',
    close: '2026-11-17T12:00:00Z',
    pl: '-80.2500',
    price: '150.000',
  },
];
/** The weeks before: 30.00 in week 45, −10.00 and 50.00 in week 46; nothing before (two weeks of history). */
const BEFORE: SeedTrade[] = [
  { id: '1', open: '2026-11-03T09:00:00Z', close: '2026-11-03T10:00:00Z', pl: '30.0000' },
  { id: '2', open: '2026-11-10T09:00:00Z', close: '2026-11-10T10:00:00Z', pl: '-10.0000' },
  { id: '3', open: '2026-11-11T09:00:00Z', close: '2026-11-11T10:00:00Z', pl: '50.0000' },
];

/** A signed-in user with a USD account holding `trades`, their address confirmed unless `unconfirmed`. */
async function trader(t: TestApp, trades: readonly SeedTrade[], prefix = 'weekly', unconfirmed = false) {
  const u = await t.user(prefix);
  if (!unconfirmed) await confirmEmail(t, smtp, u.email);
  const id = await userIdOf(db.kysely, u.username);
  const key = await seedAccount(db.kysely, id, `101-004-${id.slice(0, 7)}-001`);
  await db.kysely.updateTable('broker_accounts').set({ currency: 'USD' }).where('account_key', '=', key).execute();
  await seedTrades(db.kysely, id, key, trades);
  return { ...u, id };
}

/** The weekly review mails to an address (registration sends a confirmation mail too). */
const weeklyMails = (email: string) => smtp.to(email).filter((m) => m.subject.startsWith('Your weekly review'));

const reviewOf = async (t: TestApp, token: string, week: string) =>
  (await t.getOk<{ data: WeeklyReview }>(token, `/api/v1/coach/get_weekly_review/${week}`)).data;

describe('the weekly review', () => {
  it('has hand-checked figures, its 12-week baseline, best and worst trades and the mood of its days', async () => {
    clock = new Date('2026-11-25T12:00:00.000Z');
    const { t } = await instance();
    const u = await trader(t, [...BEFORE, ...WEEK_TRADES]);
    const at = '2026-11-20T00:00:00.000Z';
    await db.kysely
      .insertInto('journal_days')
      .values([
        { user_id: u.id, day: '2026-11-16', note: '', mood: 5, created_at: at, updated_at: at },
        { user_id: u.id, day: '2026-11-17', note: 'tired', mood: 1, created_at: at, updated_at: at },
      ])
      .execute();

    const review = await reviewOf(t, u.token, '2026-W47');
    expect(review).toMatchObject({
      week: '2026-W47',
      from: '2026-11-16T00:00:00.000Z',
      to: '2026-11-23T00:00:00.000Z',
      timeZone: 'UTC',
      source: 'builtin',
      readAt: null,
    });
    // 120.50 + 15.00 − 40.00 − 80.25 = 15.25; R 2 − 0.5 = 1.5; 2 of 4 won.
    expect(review.figures).toEqual({
      trades: 4,
      netPL: { mode: 'single', currency: 'USD', amount: '15.2500' },
      totalR: 1.5,
      winRate: 50,
    });
    // Two weeks of history (weeks 45 and 46): 3 trades and 70.00 over 2 weeks, 2 of 3 won.
    expect(review.baseline).toEqual({
      weeks: 2,
      trades: 1.5,
      netPL: { mode: 'single', currency: 'USD', amount: '35.0000' },
      totalR: null,
      winRate: 66.7,
    });
    expect(review.best.map((x) => [x.tradeId, x.netPL])).toEqual([
      ['11', { mode: 'single', currency: 'USD', amount: '120.5000' }],
      ['12', { mode: 'single', currency: 'USD', amount: '15.0000' }],
    ]);
    expect(review.worst.map((x) => [x.tradeId, x.side, x.rMultiple])).toEqual([
      ['14', 'short', null],
      ['13', 'long', -0.5],
    ]);
    expect(review.best[0]).toMatchObject({ rMultiple: 2, review: null, reviewSource: null });
    // No rule sets, no reviewed playbook trades: those sections are absent.
    expect(review.ruleBreaks).toBeNull();
    expect(review.playbooks).toBeNull();
    expect(review.mood?.days).toEqual([
      { date: '2026-11-16', mood: 5, netPL: { mode: 'single', currency: 'USD', amount: '135.5000' } },
      { date: '2026-11-17', mood: 1, netPL: { mode: 'single', currency: 'USD', amount: '-120.2500' } },
    ]);
    expect(review.mood?.summary).toContain('135.50 USD');
    expect(review.mood?.summary).toContain('-120.25 USD');
    // No pattern, no rule: the weakest figure, the win rate under its average.
    expect(review.focus).toEqual({
      text: expect.stringContaining('50% this week against 66.7%'),
      pattern: null,
      figure: 'win_rate',
    });
    expect(review.previousFocus).toBeNull();
    expect(review.summary[0]).toBe('You closed 4 trades for 15.25 USD (1.5 R), winning 50% of them.');

    // The next week checks this one's focus.
    clock = new Date('2026-12-02T12:00:00.000Z');
    const next = await reviewOf(t, u.token, '2026-W48');
    expect(next.figures.trades).toBe(0);
    expect(next.previousFocus).toMatchObject({ text: review.focus.text, kept: null });
  });

  it('checks a figure’s focus the next week: the win rate up, the count of trades down', async () => {
    clock = new Date('2026-12-02T12:00:00.000Z');
    const { t } = await instance();
    const win = (id: string, day: string): SeedTrade => ({
      id,
      open: `2026-11-${day}T09:00:00Z`,
      close: `2026-11-${day}T10:00:00Z`,
      pl: '10.0000',
    });
    // Week 47 at 50% against 66.7% before; week 48 two winners: 100%, up.
    const rate = await trader(t, [...BEFORE, ...WEEK_TRADES, win('21', '23'), win('22', '24')], 'rate');
    expect((await reviewOf(t, rate.token, '2026-W47')).focus.figure).toBe('win_rate');
    expect((await reviewOf(t, rate.token, '2026-W48')).previousFocus).toEqual({
      text: expect.stringContaining('Win rate: 50% this week'),
      pattern: null,
      kept: true,
      outcome: "Last week's focus kept: a 100% win rate, up from 50%.",
    });
    // Week 47: 3 winners, one a day, against 1.5 trades a week before; week 48: 4 more, one a day.
    const busy = await trader(
      t,
      [...BEFORE, win('21', '16'), win('22', '17'), win('23', '18')].concat(
        ['23', '24', '25', '26'].map((day, k) => win(String(31 + k), day)),
      ),
      'busy',
    );
    const week47 = await reviewOf(t, busy.token, '2026-W47');
    expect(week47.focus).toEqual({
      text: 'Trade less: 3 trades against 1.5 a week before.',
      pattern: null,
      figure: 'trades',
    });
    expect((await reviewOf(t, busy.token, '2026-W48')).previousFocus).toEqual({
      text: week47.focus.text,
      pattern: null,
      kept: false,
      outcome: "Last week's focus not kept: 4 trades (3 the week before).",
    });
  });

  it('bounds the week in the trader’s zone across the end of summer time', async () => {
    clock = new Date('2026-10-28T12:00:00.000Z');
    const { t } = await instance();
    // Sunday 25 October 23:30 in London (GMT) is in week 43; Monday 26 October 00:30 (GMT) is not.
    const u = await trader(t, [
      { id: '1', open: '2026-10-25T22:00:00Z', close: '2026-10-25T23:30:00Z', pl: '10.0000' },
      { id: '2', open: '2026-10-25T23:40:00Z', close: '2026-10-26T00:30:00Z', pl: '20.0000' },
      // Monday 19 October 00:30 in London is 18 October 23:30 UTC (summer time): in week 43.
      { id: '3', open: '2026-10-18T23:10:00Z', close: '2026-10-18T23:30:00Z', pl: '5.0000' },
    ]);
    const zone = await t.call(u.token, {
      method: 'POST',
      url: '/api/v1/account/update_time_zone',
      payload: { timeZone: 'Europe/London' },
    });
    expect(zone.statusCode).toBe(200);
    const review = await reviewOf(t, u.token, '2026-W43');
    expect(review).toMatchObject({
      from: '2026-10-18T23:00:00.000Z',
      to: '2026-10-26T00:00:00.000Z',
      timeZone: 'Europe/London',
    });
    expect(review.figures.trades).toBe(2);
    expect(review.figures.netPL).toEqual({ mode: 'single', currency: 'USD', amount: '15.0000' });
  });

  it('answers bad weeks, weeks not ended and other users’ weeks as it should', async () => {
    clock = new Date('2026-11-25T12:00:00.000Z');
    const { t } = await instance();
    const a = await trader(t, WEEK_TRADES, 'alice');
    const b = await t.user('bob');

    for (const bad of ['2026-47', '2026-W54', 'W47', '2026-W00'])
      expect((await t.call(a.token, { method: 'GET', url: `/api/v1/coach/get_weekly_review/${bad}` })).statusCode).toBe(
        400,
      );
    // 2025 has 52 weeks.
    const w53 = await t.call(a.token, { method: 'GET', url: '/api/v1/coach/get_weekly_review/2025-W53' });
    expect(w53.statusCode).toBe(400);
    const current = await t.call(a.token, { method: 'GET', url: '/api/v1/coach/get_weekly_review/2026-W48' });
    expect(current.statusCode).toBe(400);
    expect(current.json<{ message: string }>().message).toContain('has not ended');
    expect((await t.call(undefined, { method: 'GET', url: '/api/v1/coach/get_weekly_reviews' })).statusCode).toBe(401);

    await reviewOf(t, a.token, '2026-W47');
    const list = await t.getOk<{ data: { weeks: Array<{ week: string; trades: number }>; unread: number } }>(
      a.token,
      '/api/v1/coach/get_weekly_reviews',
    );
    expect(list.data.unread).toBe(1);
    expect(list.data.weeks.map((w) => [w.week, w.trades])).toEqual([['2026-W47', 4]]);

    // Bob has no review of that week: he cannot mark Alice's read, and his own list is empty.
    const other = await t.call(b.token, { method: 'POST', url: '/api/v1/coach/read_weekly_review/2026-W47' });
    expect(other.statusCode).toBe(404);
    const bobs = await t.getOk<{ data: { weeks: unknown[]; unread: number } }>(
      b.token,
      '/api/v1/coach/get_weekly_reviews',
    );
    // The last ended week is told in the trader's zone (UTC for Bob): the one before the current 2026-W48.
    expect(bobs.data).toEqual({ weeks: [], unread: 0, lastEnded: '2026-W47' });
    // Bob asking for the week gets his own (empty) week, never Alice's.
    expect((await reviewOf(t, b.token, '2026-W47')).figures.trades).toBe(0);
    expect((await t.call(a.token, { method: 'POST', url: '/api/v1/coach/read_weekly_review/bad' })).statusCode).toBe(
      400,
    );

    const read = await t.call(a.token, { method: 'POST', url: '/api/v1/coach/read_weekly_review/2026-W47' });
    expect(read.statusCode).toBe(200);
    expect(read.json<{ data: WeeklyReview }>().data.readAt).toBe(clock.toISOString());
    const after = await t.getOk<{ data: { unread: number } }>(a.token, '/api/v1/coach/get_weekly_reviews');
    expect(after.data.unread).toBe(0);
  });

  it('makes up a week whose hour passed while the app was down, and emails it once in two parts', async () => {
    // Monday 23 November 06:00 UTC: week 47's review is due at 07:00 (the default), so the start makes week 46's.
    clock = new Date('2026-11-23T06:00:00.000Z');
    const first = await instance(true);
    const u = await trader(first.t, [...BEFORE, ...WEEK_TRADES], 'mailed');
    const settings = await first.t.call(u.token, {
      method: 'POST',
      url: '/api/v1/coach/update_settings',
      payload: { emailWeekly: true },
    });
    expect(settings.statusCode).toBe(200);
    await first.jobs.queue.tick();
    const weeks = async (t: TestApp) =>
      (
        await t.getOk<{ data: { weeks: Array<{ week: string }> } }>(u.token, '/api/v1/coach/get_weekly_reviews')
      ).data.weeks.map((w) => w.week);
    // On PostgreSQL a worker takes the job at its next poll.
    await until(async () => (await weeks(first.t)).length > 0, 'week 46 made');
    await first.jobs.queue.idle();
    expect(await weeks(first.t)).toEqual(['2026-W46']);
    await first.t.close();
    apps.splice(apps.indexOf(first.t), 1);

    // Down over 07:00; back at 09:00: the start's tick makes week 47.
    clock = new Date('2026-11-23T09:00:00.000Z');
    const second = await instance(true);
    await until(async () => (await weeks(second.t)).length > 1, 'week 47 made');
    await second.jobs.queue.idle();
    expect(await weeks(second.t)).toEqual(['2026-W47', '2026-W46']);

    await smtp.waitFor(u.email, 3);
    expect(weeklyMails(u.email).map((m) => m.subject)).toEqual([
      'Your weekly review: 2026-W46',
      'Your weekly review: 2026-W47',
    ]);
    const mail = weeklyMails(u.email)[1]!;
    const text = mail.parts.find((p) => p.type === 'text/plain')?.body ?? '';
    const html = mail.parts.find((p) => p.type === 'text/html')?.body ?? '';
    expect(text).toContain('You closed 4 trades for 15.25 USD (1.5 R), winning 50% of them.');
    expect(html).toContain('<h1 style=');
    expect(html).toContain('15.25 USD');
    expect(html).toContain('USD_JPY short: -80.25 USD');
    // Once every due week is made (other tests' users too), a tick finds nothing due and sends nothing more.
    await until(async () => (await second.jobs.service.due()).length === 0, 'every due week made');
    expect(await second.jobs.queue.tick()).toBe(0);
    await second.jobs.queue.idle();
    expect(weeklyMails(u.email)).toHaveLength(2);
  });

  it('emails an opted-in trader a week made on request, once, and never an opted-out one or an unconfirmed address', async () => {
    // The job is off: the week is made by the trader asking for it, as on an instance that never ran the job.
    clock = new Date('2026-11-25T12:00:00.000Z');
    const { t } = await instance();
    const opted = await trader(t, [...BEFORE, ...WEEK_TRADES], 'asked');
    const quiet = await trader(t, [...BEFORE, ...WEEK_TRADES], 'quiet');
    // Opted in, but the address was never confirmed: it may be mistyped or someone else's.
    const unsure = await trader(t, [...BEFORE, ...WEEK_TRADES], 'unsure', true);
    for (const u of [opted, unsure])
      await t.call(u.token, { method: 'POST', url: '/api/v1/coach/update_settings', payload: { emailWeekly: true } });

    expect((await reviewOf(t, opted.token, '2026-W47')).figures.trades).toBe(4);
    expect((await reviewOf(t, quiet.token, '2026-W47')).figures.trades).toBe(4);
    expect((await reviewOf(t, unsure.token, '2026-W47')).figures.trades).toBe(4);
    await smtp.waitFor(opted.email, 2);
    const mails = weeklyMails(opted.email);
    expect(mails.map((m) => m.subject)).toEqual(['Your weekly review: 2026-W47']);
    expect(mails[0]!.parts.map((p) => p.type).sort()).toEqual(['text/html', 'text/plain']);
    expect(mails[0]!.parts.find((p) => p.type === 'text/plain')?.body).toContain('You closed 4 trades for 15.25 USD');

    // Asked again, stored now: no second mail; an earlier week made on this request: its own mail.
    await reviewOf(t, opted.token, '2026-W47');
    await reviewOf(t, opted.token, '2026-W46');
    await smtp.waitFor(opted.email, 3);
    expect(weeklyMails(opted.email).map((m) => m.subject)).toEqual([
      'Your weekly review: 2026-W47',
      'Your weekly review: 2026-W46',
    ]);
    expect(weeklyMails(quiet.email)).toEqual([]);
    expect(weeklyMails(unsure.email)).toEqual([]);
    const unsent = await db.kysely
      .selectFrom('coach_weekly_reviews')
      .select('emailed_at')
      .where('user_id', '=', unsure.id)
      .execute();
    expect(unsent).toEqual([{ emailed_at: null }]);
  });

  it('is made once per user and week with two instances on one database', async () => {
    clock = new Date('2026-11-16T09:00:00.000Z');
    const one = await instance(true);
    const two = await instance(true);
    const u = await trader(one.t, BEFORE, 'twice');
    await one.t.call(u.token, { method: 'POST', url: '/api/v1/coach/update_settings', payload: { emailWeekly: true } });
    // Both run the user's job at once, besides their queues: one review stored, one email sent.
    const weeks = await Promise.all([one.jobs.service.run(u.id), two.jobs.service.run(u.id)]);
    expect(weeks).toEqual(['2026-W46', '2026-W46']);
    // And through the queues, ticked on both.
    await until(async () => (await one.jobs.service.due()).length === 0, 'every due week made');
    expect(await Promise.all([one.jobs.queue.tick(), two.jobs.queue.tick()])).toEqual([0, 0]);
    await Promise.all([one.jobs.queue.idle(), two.jobs.queue.idle()]);
    await smtp.waitFor(u.email, 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(weeklyMails(u.email).map((m) => m.subject)).toEqual(['Your weekly review: 2026-W46']);
    const rows = await db.kysely
      .selectFrom('coach_weekly_reviews')
      .select(['week', 'emailed_at'])
      .where('user_id', '=', u.id)
      .execute();
    expect(rows).toEqual([{ week: '2026-W46', emailed_at: clock.toISOString() }]);

    // A user due on both queues at once, ticked on both: one review, one email.
    const v = await trader(two.t, BEFORE, 'queued');
    await two.t.call(v.token, { method: 'POST', url: '/api/v1/coach/update_settings', payload: { emailWeekly: true } });
    await Promise.all([one.jobs.queue.tick(), two.jobs.queue.tick()]);
    await smtp.waitFor(v.email, 2);
    await Promise.all([one.jobs.queue.idle(), two.jobs.queue.idle()]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(weeklyMails(v.email)).toHaveLength(1);
    await until(async () => (await one.jobs.service.due()).length === 0, 'every due week made');
    expect(await Promise.all([one.jobs.queue.tick(), two.jobs.queue.tick()])).toEqual([0, 0]);
  });
});
