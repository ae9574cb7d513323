import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ruleAlertSchema, type RuleAlert } from '@pipsense/contract';
import { createDb, type Db } from '../../db/client';
import { slice } from '../../db/slice';
import { sumDecimals } from '../../domain/decimal';
import { createPgDatabase, createTestApp, testDialect, type TestApp } from '../../test/harness';
import { closedOn } from '../../test/rule-inputs';
import { userIdOf } from '../../test/seed-trades';
import type { RuleTrade } from './engine';
import type { RuleSources, RuleTradeFacts } from './ports';
import { createRulesRepository } from './rules.repository';
import { alertText, createRulesService } from './rules.service';
import type { RulesTables } from './tables';

/*
 * The alert check (docs/rules.md, Alerts) on SQLite and PostgreSQL: the rules service on the suite's database with
 * its ports answering from the rule engine's fixtures (test/rule-inputs.ts) on the closed-only basis. Thresholds
 * reached give exactly their alerts, once per rule set, kind, day and threshold; two instances on one database
 * checking at once store one alert and send one mail; a mail that fails leaves the alert stored.
 */

const KEY = 'metatrader:Alerts-Demo:5550001';
const START = '2026-11-02T07:00:00.000Z';

/** The account's closed trades per user, as the read side would give them. */
const books = new Map<string, RuleTrade[]>();

const facts = (t: RuleTrade): RuleTradeFacts => ({
  tradeId: t.key,
  instrument: t.instrument,
  price: null,
  initialUnits: '100000',
  realizedPL: t.realizedPL,
  financing: '0',
  openTime: t.openTime,
  closeTime: t.closeTime,
  averageClosePrice: null,
  initialStopLossPrice: null,
});

/** The ports on the closed-only basis: a deposit of 100,000.00 USD at START, then a balance point per close. */
const sources: RuleSources = {
  // The break index is not read here.
  dataVersion: () => Promise.resolve('fixture'),
  named: (_userId, accountId) => Promise.resolve(accountId === KEY ? [{ accountKey: KEY, currency: 'USD' }] : []),
  trades: (userId) => Promise.resolve((books.get(userId) ?? []).map(facts)),
  cashFlows: () => Promise.resolve([{ time: START, type: 'deposit', amount: '100000.00' }]),
  balanceHistory: (userId, _key, to) => {
    const points = [{ time: START, balance: '100000.00', equity: null, equitySource: null }];
    let balance = '100000.00';
    for (const t of books.get(userId) ?? []) {
      if (t.closeTime === null || t.closeTime > to) continue;
      balance = sumDecimals([balance, t.realizedPL]);
      points.push({ time: t.closeTime, balance, equity: null, equitySource: null });
    }
    return Promise.resolve({ points, equityComplete: false });
  },
};

interface Sent {
  to: string;
  subject: string;
  text: string;
}

let clock = '2026-11-23T12:00:00.000Z';
let t: TestApp;
let first: Db;
let second: Db;
let cleanup: () => Promise<void>;
const sent: Sent[] = [];
const logged: Array<Record<string, unknown>> = [];
let failMail = false;

function service(db: Db) {
  return createRulesService({
    repository: createRulesRepository(slice<RulesTables>(db.kysely)),
    sources,
    now: () => new Date(clock),
    alerts: {
      mailer: {
        send: (mail) => {
          if (failMail) return Promise.reject(new Error('SMTP is down'));
          sent.push(mail);
          return Promise.resolve();
        },
      },
      emailOf: (userId) => Promise.resolve(`${userId}@example.com`),
      log: (_err, context) => logged.push(context),
    },
  });
}
let a: ReturnType<typeof service>;
let b: ReturnType<typeof service>;

/** Two clients of one database: two pools on PostgreSQL, the one SQLite file's client twice. */
beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pipsense-alerts-'));
  const database = testDialect === 'postgres' ? await createPgDatabase() : undefined;
  first = createDb({ dataDir, databaseUrl: database?.url });
  second = database ? createDb({ dataDir, databaseUrl: database.url }) : first;
  t = await createTestApp({}, { db: first, now: () => new Date(clock) });
  a = service(first);
  b = service(second);
  cleanup = async () => {
    await t.close();
    if (second !== first) await second.close();
    await first.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
});
afterAll(() => cleanup());

async function trader(prefix: string, trades: RuleTrade[], emailAlerts = true) {
  const user = await t.user(prefix);
  const id = await userIdOf(first.kysely, user.username);
  books.set(id, trades);
  const set = await a.create(id, {
    accountId: KEY,
    name: 'FTMO challenge',
    preset: 'ftmo-2step-challenge',
    startTime: START,
    initialBalance: '100000',
    rules: [],
    emailAlerts,
  });
  return { id, set };
}

const brief = (alerts: RuleAlert[]) => alerts.map((x) => [x.kind, x.day, x.threshold]);

describe('the alert check', () => {
  let alice: Awaited<ReturnType<typeof trader>>;

  beforeAll(async () => {
    clock = '2026-11-23T12:00:00.000Z';
    // 4,000.00 lost on Monday 11-23: 80 % of FTMO's 5 % daily loss, 40 % of its 10 % maximum loss.
    alice = await trader('alice', [closedOn('1', '2026-11-23', '-4000.00')]);
    sent.length = 0;
  });

  it('stores an alert for each threshold the use reached, with the one wording', async () => {
    expect(await a.checkAlerts(alice.id, KEY)).toBe(2);
    const { alerts, unread } = await a.alerts(alice.id);
    expect(unread).toBe(2);
    // As the contract reads them.
    expect(ruleAlertSchema.array().parse(alerts)).toEqual(alerts);
    expect(brief(alerts)).toEqual([
      ['daily_loss', '2026-11-23', 80],
      ['daily_loss', '2026-11-23', 50],
    ]);
    expect(alerts[0]).toMatchObject({
      ruleSetId: alice.set.id,
      ruleSetName: 'FTMO challenge',
      accountId: KEY,
      percentUsed: 80,
      currency: 'USD',
      limit: '5000.0000',
      used: '4000.0000',
      remaining: '1000.0000',
      time: clock,
      readAt: null,
      message:
        "FTMO challenge: 80 % of today's loss limit used — 4,000.00 USD of 5,000.00; 1,000.00 USD left until the reset at 00:00 Europe/Prague.",
    });
  });

  it('mails the check once, after the insert, and marks the alerts mailed', async () => {
    await a.settle();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      to: `${alice.id}@example.com`,
      subject: "PipSense alert: 80 % of today's loss limit used (FTMO challenge)",
    });
    expect(sent[0]!.text).toContain('50 % of today');
    const rows = await first.kysely
      .selectFrom('rule_alerts')
      .select('emailed_at')
      .where('user_id', '=', alice.id)
      .execute();
    expect(rows.every((r) => r.emailed_at === clock)).toBe(true);
  });

  it('stores nothing again the same day, on either instance', async () => {
    clock = '2026-11-23T15:00:00.000Z';
    expect(await a.checkAlerts(alice.id, KEY)).toBe(0);
    expect(await b.checkAlerts(alice.id, KEY)).toBe(0);
    await Promise.all([a.settle(), b.settle()]);
    expect((await a.alerts(alice.id)).alerts).toHaveLength(2);
    expect(sent).toHaveLength(1);
  });

  it('alerts again the next day, the maximum loss too', async () => {
    clock = '2026-11-24T12:00:00.000Z';
    // 4,500.00 more on Tuesday: 90 % of the day's limit; 8,500.00 in all, 85 % of the maximum loss.
    books.get(alice.id)!.push(closedOn('2', '2026-11-24', '-4500.00'));
    expect(await b.checkAlerts(alice.id, KEY)).toBe(4);
    const { alerts } = await a.alerts(alice.id);
    expect(brief(alerts).slice(0, 4).sort()).toEqual([
      ['daily_loss', '2026-11-24', 50],
      ['daily_loss', '2026-11-24', 80],
      ['max_loss', '2026-11-24', 50],
      ['max_loss', '2026-11-24', 80],
    ]);
    const max = alerts.find((x) => x.kind === 'max_loss' && x.threshold === 80)!;
    expect(max.message).toBe(
      'FTMO challenge: 80 % of the maximum loss used — 8,500.00 USD of 10,000.00; 1,500.00 USD left.',
    );
    await b.settle();
    expect(sent.slice(1).map((m) => m.subject)).toHaveLength(2);
    expect(sent.slice(1).map((m) => m.subject)).toEqual(
      expect.arrayContaining([
        "PipSense alert: 80 % of today's loss limit used (FTMO challenge)",
        'PipSense alert: 80 % of the maximum loss used (FTMO challenge)',
      ]),
    );
  });

  it('marks the named alerts read, or every unread one; another user’s ids are ignored', async () => {
    const bob = await trader('bob', []);
    const { alerts } = await a.alerts(alice.id);
    expect(await a.readAlerts(bob.id, [alerts[0]!.id])).toBe(0);
    expect(await a.readAlerts(alice.id, [alerts[0]!.id, 'no-such-id'])).toBe(1);
    expect((await a.alerts(alice.id, true)).alerts.map((x) => x.id)).not.toContain(alerts[0]!.id);
    expect(await a.readAlerts(alice.id)).toBe(alerts.length - 1);
    expect(await a.alerts(alice.id)).toMatchObject({ unread: 0 });
    expect((await a.alerts(alice.id, true)).alerts).toEqual([]);
    expect(await a.alerts(bob.id)).toEqual({ alerts: [], unread: 0 });
  });

  it('deletes its alerts with the rule set', async () => {
    await a.remove(alice.id, alice.set.id);
    expect(await a.alerts(alice.id)).toEqual({ alerts: [], unread: 0 });
  });
});

describe('two instances on one database', () => {
  it('store one alert and send one mail when they check at once', async () => {
    clock = '2026-11-23T12:00:00.000Z';
    // 3,000.00 lost: 60 % of the day's limit, the 50 % threshold only.
    const carol = await trader('carol', [closedOn('1', '2026-11-23', '-3000.00')]);
    sent.length = 0;
    const counts = await Promise.all([a.checkAlerts(carol.id, KEY), b.checkAlerts(carol.id, KEY)]);
    await Promise.all([a.settle(), b.settle()]);
    expect(counts.sort()).toEqual([0, 1]);
    expect(brief((await a.alerts(carol.id)).alerts)).toEqual([['daily_loss', '2026-11-23', 50]]);
    expect(sent.map((m) => m.to)).toEqual([`${carol.id}@example.com`]);
  });
});

describe('email', () => {
  it('is not sent without the opt-in', async () => {
    const dave = await trader('dave', [closedOn('1', '2026-11-23', '-3000.00')], false);
    sent.length = 0;
    expect(await a.checkAlerts(dave.id, KEY)).toBe(1);
    await a.settle();
    expect(sent).toEqual([]);
  });

  it('that fails is logged, and the alert stays stored unmailed', async () => {
    const erin = await trader('erin', [closedOn('1', '2026-11-23', '-3000.00')]);
    failMail = true;
    logged.length = 0;
    try {
      expect(await a.checkAlerts(erin.id, KEY)).toBe(1);
      await a.settle();
    } finally {
      failMail = false;
    }
    expect(logged).toEqual([expect.objectContaining({ userId: erin.id, step: expect.stringContaining('email') })]);
    const rows = await first.kysely
      .selectFrom('rule_alerts')
      .select('emailed_at')
      .where('user_id', '=', erin.id)
      .execute();
    expect(rows).toEqual([{ emailed_at: null }]);
  });

  it('checks no rule set that starts later', async () => {
    const frank = await trader('frank', [closedOn('1', '2026-11-23', '-3000.00')]);
    clock = '2026-11-01T12:00:00.000Z';
    expect(await a.checkAlerts(frank.id, KEY)).toBe(0);
    clock = '2026-11-23T12:00:00.000Z';
  });
});

describe('alertText', () => {
  it('says when nothing is left', () => {
    const text = alertText({
      ruleSetName: 'Mine',
      kind: 'daily_loss',
      threshold: 100,
      currency: 'EUR',
      limit: '500',
      used: '612.5',
      remaining: '-112.5',
      resetTime: '17:00',
      zone: 'America/New_York',
    });
    expect(text).toEqual({
      subject: "PipSense alert: 100 % of today's loss limit used (Mine)",
      message:
        "Mine: 100 % of today's loss limit used — 612.50 EUR of 500.00; nothing left until the reset at 17:00 America/New_York: the limit is reached.",
    });
  });
});
