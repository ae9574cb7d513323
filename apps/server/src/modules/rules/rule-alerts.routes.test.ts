import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOandaSim, type OandaSim } from '@pipsense/oanda-sim';
import type {
  ImportConfirmResponse,
  ImportUploadResponse,
  ReadAlertsBody,
  ReadAlertsResponse,
  RuleAlertsResponse,
  StoredRuleSet,
} from '@pipsense/contract';
import { confirmEmail } from '../../test/confirm-email';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { userIdOf } from '../../test/seed-trades';
import { startSmtp, type TestSmtp } from '../../test/smtp';
import type { SyncJobs } from '../sync-jobs';

/*
 * Alerts end to end (docs/rules.md, Alerts) on SQLite and PostgreSQL: the thresholds and the email opt-in of a rule
 * set through its routes, the check after a CSV import and after a sync from the OANDA simulator, the mail through
 * SMTP, and get_alerts / read_alerts for the signed-in user only.
 */

let clock = Date.UTC(2026, 10, 23, 12, 0);
let sim: OandaSim;
let smtp: TestSmtp;
let t: TestApp;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
let jobs: SyncJobs;

beforeAll(async () => {
  sim = await startOandaSim({
    accounts: [{ alias: 'Alerts', currency: 'USD', deposit: 10_000, trades: 0 }],
    now: () => clock,
  });
  smtp = await startSmtp();
  testDb = await createTestDb();
  t = await createTestApp(
    { OANDA_PRACTICE_URL: sim.url, OANDA_LIVE_URL: 'http://127.0.0.1:9', SMTP_URL: smtp.url },
    {
      db: testDb.db,
      now: () => new Date(clock),
      oanda: { retries: 0, timeoutMs: 5_000 },
      // Not started: the background sync is run by hand below.
      syncJobs: { tokenGapMs: 0, expose: (j) => (jobs = j) },
    },
  );
});
afterAll(async () => {
  await t.close();
  await testDb.close();
  await smtp.close();
  await sim.close();
});

const get = (token: string, url: string) => t.call(token, { method: 'GET', url });
const post = (token: string, url: string, payload: object = {}) => t.call(token, { method: 'POST', url, payload });
async function ok<T>(res: Awaited<ReturnType<typeof get>>): Promise<T> {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: T }>().data;
}
const alertsOf = async (token: string, query = '') =>
  ok<RuleAlertsResponse['data']>(await get(token, `/api/v1/rules/get_alerts${query}`));
const setsOf = async (token: string) => ok<StoredRuleSet[]>(await get(token, '/api/v1/rules/get_rule_sets'));

/** Uploads and confirms a CSV of closed positions (UTC times); answers the account's key. */
async function importCsv(token: string, rows: string[]): Promise<string> {
  const header =
    'ticket,opening_time_utc,closing_time_utc,type,lots,symbol,opening_price,closing_price,commission,swap,profit\n';
  const form = new FormData();
  form.append('file', new Blob([header + rows.map((r) => `${r}\n`).join('')]), 'positions.csv');
  const encoded = new Response(form);
  const res = await t.call(token, {
    method: 'POST',
    url: '/api/v1/import/upload',
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { importId } = res.json<ImportUploadResponse>();
  const confirmed = await post(token, `/api/v1/import/confirm/${importId}`);
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return confirmed.json<ImportConfirmResponse>().accountId;
}

describe('an imported account', () => {
  let alice: { token: string; email: string };
  let bob: { token: string };
  let key: string;
  let set: StoredRuleSet;

  beforeAll(async () => {
    alice = await t.user('alice');
    await confirmEmail(t, smtp, alice.email);
    bob = await t.user('bob');
    clock = Date.UTC(2026, 10, 23, 12, 0);
    key = await importCsv(alice.token, [
      '70001,2026-11-02T08:00:00Z,2026-11-02T10:00:00Z,buy,1.00,EURUSD,1.08000,1.08100,0.00,0.00,100.00',
    ]);
  });

  it('stores the default thresholds and no email without them given', async () => {
    const made = await ok<StoredRuleSet>(
      await post(alice.token, '/api/v1/rules/create_rule_set', { accountId: key, name: 'Plain', preset: 'personal' }),
    );
    expect(made).toMatchObject({ alertThresholds: [50, 80, 100], emailAlerts: false });
    expect((await post(alice.token, `/api/v1/rules/delete_rule_set/${made.id}`)).statusCode).toBe(200);
  });

  it.each([
    ['a repeated percent', { alertThresholds: [50, 50] }, 'alertThresholds'],
    ['a percent above 100', { alertThresholds: [120] }, 'alertThresholds'],
    ['a percent of 0', { alertThresholds: [0] }, 'alertThresholds'],
    ['a fraction', { alertThresholds: [50.5] }, 'alertThresholds'],
    ['a text', { alertThresholds: 'often' }, 'alertThresholds'],
    ['an email opt-in in words', { emailAlerts: 'yes' }, 'emailAlerts'],
  ])('refuses %s with 400 naming the field, storing nothing', async (_what, body, field) => {
    const before = await setsOf(alice.token);
    const res = await post(alice.token, '/api/v1/rules/create_rule_set', {
      accountId: key,
      name: 'Bad',
      preset: 'ftmo-2step-challenge',
      initialBalance: '100000',
      ...body,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toContain(field);
    expect(await setsOf(alice.token)).toEqual(before);
  });

  it('stores the thresholds and the opt-in given, and edits them', async () => {
    set = await ok<StoredRuleSet>(
      await post(alice.token, '/api/v1/rules/create_rule_set', {
        accountId: key,
        name: 'FTMO challenge',
        preset: 'ftmo-2step-challenge',
        startTime: '2026-11-02T00:00:00Z',
        initialBalance: '100000',
        alertThresholds: [50, 100],
        emailAlerts: false,
      }),
    );
    expect(set).toMatchObject({ alertThresholds: [50, 100], emailAlerts: false });
    const bad = await post(alice.token, `/api/v1/rules/edit_rule_set/${set.id}`, { alertThresholds: [90, 80] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('alertThresholds');
    const edited = await ok<StoredRuleSet>(
      await post(alice.token, `/api/v1/rules/edit_rule_set/${set.id}`, {
        alertThresholds: [80, 100],
        emailAlerts: true,
      }),
    );
    expect(edited).toMatchObject({ alertThresholds: [80, 100], emailAlerts: true, name: 'FTMO challenge' });
    // An edit without rules keeps the stored ones.
    expect(edited.rules).toEqual(set.rules);
    expect((await setsOf(alice.token)).find((s) => s.id === set.id)).toMatchObject({
      alertThresholds: [80, 100],
      emailAlerts: true,
    });
  });

  it('alerts after an import that uses a loss limit past a threshold, and mails it', async () => {
    expect(await alertsOf(alice.token)).toEqual({ alerts: [], unread: 0 });
    // 4,200.00 lost on Monday 11-23: 84 % of FTMO's 5 % daily loss of 100,000.00, 42 % of its maximum loss.
    await importCsv(alice.token, [
      '70002,2026-11-23T08:00:00Z,2026-11-23T10:00:00Z,buy,1.00,EURUSD,1.08000,1.04800,0.00,0.00,-4200.00',
    ]);
    const { alerts, unread } = await alertsOf(alice.token);
    expect(unread).toBe(1);
    expect(alerts).toEqual([
      expect.objectContaining({
        ruleSetId: set.id,
        accountId: key,
        kind: 'daily_loss',
        day: '2026-11-23',
        threshold: 80,
        percentUsed: 84,
        used: '4200.0000',
        readAt: null,
        message:
          // A CSV names no currency: the amounts alone.
          "FTMO challenge: 80 % of today's loss limit used — 4,200.00 of 5,000.00; 800.00 left until the reset at 00:00 Europe/Prague.",
      }),
    ]);
    // The second mail to the address: the first confirmed it at registration.
    const mail = await smtp.waitFor(alice.email, 2);
    expect(mail.subject).toBe("PipSense alert: 80 % of today's loss limit used (FTMO challenge)");
    expect(mail.text).toContain('4,200.00 of 5,000.00');
    // The same file again the same day: nothing new.
    await importCsv(alice.token, [
      '70002,2026-11-23T08:00:00Z,2026-11-23T10:00:00Z,buy,1.00,EURUSD,1.08000,1.04800,0.00,0.00,-4200.00',
    ]);
    expect((await alertsOf(alice.token)).alerts).toHaveLength(1);
  });

  it('stores the alert of a trader whose address is not confirmed, and mails it nowhere', async () => {
    const dave = await t.user('dave');
    const daveKey = await importCsv(dave.token, [
      '71001,2026-11-02T08:00:00Z,2026-11-02T10:00:00Z,buy,1.00,EURUSD,1.08000,1.08100,0.00,0.00,100.00',
    ]);
    await ok<StoredRuleSet>(
      await post(dave.token, '/api/v1/rules/create_rule_set', {
        accountId: daveKey,
        name: 'Unconfirmed',
        preset: 'ftmo-2step-challenge',
        startTime: '2026-11-02T00:00:00Z',
        initialBalance: '100000',
        emailAlerts: true,
      }),
    );
    await importCsv(dave.token, [
      '71002,2026-11-23T08:00:00Z,2026-11-23T10:00:00Z,buy,1.00,EURUSD,1.08000,1.04800,0.00,0.00,-4200.00',
    ]);
    expect((await alertsOf(dave.token)).alerts.map((a) => a.threshold)).toEqual([80, 50]);
    // Time for a mail to arrive had one been sent: the address holds its confirmation link only.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.to(dave.email).map((m) => m.subject)).toEqual(['Confirm your email address for PipSense']);
  });

  it('lists and marks read for the signed-in user only', async () => {
    const [alert] = (await alertsOf(alice.token)).alerts;
    expect(await alertsOf(bob.token)).toEqual({ alerts: [], unread: 0 });
    const named: ReadAlertsBody = { ids: [alert!.id] };
    const theirs = await ok<ReadAlertsResponse['data']>(await post(bob.token, '/api/v1/rules/read_alerts', named));
    expect(theirs).toEqual({ read: 0 });
    expect((await alertsOf(alice.token)).unread).toBe(1);
    expect(await ok(await post(alice.token, '/api/v1/rules/read_alerts', named))).toEqual({ read: 1 });
    expect(await alertsOf(alice.token, '?unread=true')).toEqual({ alerts: [], unread: 0 });
    const all = await alertsOf(alice.token, '?unread=false');
    expect(all.alerts[0]!.readAt).not.toBeNull();
    expect(await ok(await post(alice.token, '/api/v1/rules/read_alerts'))).toEqual({ read: 0 });
    const bare = await t.call(alice.token, { method: 'POST', url: '/api/v1/rules/read_alerts' });
    expect(bare.statusCode, bare.body).toBe(200);
    const bad = await get(alice.token, '/api/v1/rules/get_alerts?unread=maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('unread');
    const badIds = await post(alice.token, '/api/v1/rules/read_alerts', { ids: 'all' });
    expect(badIds.statusCode).toBe(400);
    expect(badIds.json<{ message: string }>().message).toContain('ids');
  });

  it('forgets the alerts of a deleted rule set', async () => {
    expect((await post(alice.token, `/api/v1/rules/delete_rule_set/${set.id}`)).statusCode).toBe(200);
    expect(await alertsOf(alice.token)).toEqual({ alerts: [], unread: 0 });
  });
});

describe('a sync from OANDA', () => {
  it('alerts at 100 % when the book breaches the daily loss', async () => {
    clock = Date.UTC(2026, 10, 24, 9, 0);
    const user = await t.oandaUser({ oanda: { accessToken: sim.token }, sync: 'all' }, 'carol');
    const accountId = sim.accountIds[0]!;
    const key = `oanda:fxpractice:${accountId}`;
    await ok<StoredRuleSet>(
      await post(user.token, '/api/v1/rules/create_rule_set', {
        accountId: key,
        name: 'One dollar a day',
        startTime: new Date(clock - 3600_000).toISOString(),
        initialBalance: '10000',
        rules: [{ kind: 'daily_loss', effect: 'pause_until_reset', params: { amount: '1.00' } }],
      }),
    );
    // Opened and closed at once: the spread of a million units is lost, far beyond the day's 1.00 USD.
    clock += 60_000;
    const trade = sim.openTrade(accountId, { instrument: 'EUR_USD', units: 1_000_000 });
    sim.closeTrade(accountId, trade.id);
    clock += 60_000;
    const synced = await get(user.token, '/api/v1/trade/sync_trade');
    expect(synced.statusCode, synced.body).toBe(200);
    const { alerts } = await alertsOf(user.token);
    expect(alerts.map((a) => [a.kind, a.day, a.threshold])).toEqual([
      ['daily_loss', '2026-11-24', 100],
      ['daily_loss', '2026-11-24', 80],
      ['daily_loss', '2026-11-24', 50],
    ]);
    expect(alerts[0]!.percentUsed).toBeGreaterThan(100);
    expect(alerts[0]!.message).toContain('nothing left until the reset at 00:00 UTC: the limit is reached.');

    // The next day, the background sync: the same again for that day.
    clock = Date.UTC(2026, 10, 25, 9, 0);
    const next = sim.openTrade(accountId, { instrument: 'EUR_USD', units: 1_000_000 });
    sim.closeTrade(accountId, next.id);
    clock += 60_000;
    expect(await jobs.runner.runScheduled(await userIdOf(testDb.db.kysely, user.username))).toBe('synced');
    const later = (await alertsOf(user.token)).alerts.filter((a) => a.day === '2026-11-25');
    expect(later.map((a) => a.threshold)).toEqual([100, 80, 50]);
  });
});
