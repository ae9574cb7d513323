import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardMetrics, ErrorBody, TimeZoneResponse } from '@pipsense/contract';
import { startOandaSim, DEMO_TOKEN, type OandaSim } from '@pipsense/oanda-sim';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { syncOanda } from '../../test/oanda-user';
import { overviewEngineRuns, SLICED_INSIGHTS_NOTE } from './analytics.service';

/*
 * The Overview from a snapshot (docs/decisions/013-overview-snapshot.md), on SQLite and PostgreSQL: the data version
 * moves only when stored data changes (a changed trade, an import that adds, a tag on a trade), never on a sync that
 * brings nothing new; the unfiltered overview is computed once per version and served from its snapshot (the engine's
 * runs are counted), a filtered view is computed each time; two instances' first views compute once; the Profile time
 * zone.
 */

const SIM_NOW = Date.parse('2025-10-06T12:00:00.000Z');
// Two app instances share the database, so they share the secrets a token is signed and a token stored with.
const SECRETS = { JWT_SECRET: randomBytes(48).toString('base64url'), ENCRYPTION_KEY: randomBytes(32).toString('hex') };

let sim: OandaSim;
let database: Awaited<ReturnType<typeof createTestDb>>;
let t: TestApp;
let t2: TestApp;

beforeAll(async () => {
  // The simulator's clock stands still: a re-sync sees exactly the book it saw before.
  sim = await startOandaSim({ accounts: 1, tradesPerAccount: 30, historyDays: 30, seed: 11, now: () => SIM_NOW });
  database = await createTestDb();
  const overrides = { OANDA_PRACTICE_URL: sim.url, ...SECRETS };
  t = await createTestApp(overrides, { db: database.db, oanda: { retries: 0 } });
  t2 = await createTestApp(overrides, { db: database.db, oanda: { retries: 0 } });
});
afterAll(async () => {
  await t2?.close();
  await t?.close();
  await database?.close();
  await sim?.close();
});

async function idOf(username: string): Promise<string> {
  const row = await database.db.kysely
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function version(userId: string) {
  const row = await database.db.kysely
    .selectFrom('data_versions')
    .select(['version', 'journal_version'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { data: Number(row?.version ?? 0), journal: Number(row?.journal_version ?? 0) };
}

async function metrics(app: TestApp, token: string, query = ''): Promise<DashboardMetrics> {
  const res = await app.call(token, { method: 'GET', url: `/api/v1/dashboard/metrics?timeZone=UTC${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: DashboardMetrics }>().data;
}

async function connected() {
  const user = await t.oandaUser({ ai: 'openai', oanda: { accessToken: DEMO_TOKEN } });
  return { token: user.token, userId: await idOf(user.username) };
}

describe('data version', () => {
  it('stays put on a sync that brings nothing new, and moves when a trade changes', async () => {
    const { token, userId } = await connected();
    const synced = await version(userId);
    expect(synced.data).toBeGreaterThan(0);

    await syncOanda(t.api(token));
    await syncOanda(t.api(token));
    expect(await version(userId)).toEqual(synced);

    sim.openTrade(sim.accountIds[0]!, { instrument: 'EUR_USD', units: 1000 });
    await syncOanda(t.api(token));
    const moved = await version(userId);
    expect(moved.data).toBeGreaterThan(synced.data);
    expect(moved.journal).toBe(synced.journal);
  });

  it('moves on an import that adds trades, not on a re-import of the same report', async () => {
    const user = await t.user('importer');
    const userId = await idOf(user.username);
    const report = readFileSync(new URL('../import/parse/fixtures/mt5-report.html', import.meta.url));
    const importOnce = async () => {
      const data = new FormData();
      data.append('file', new Blob([Buffer.from(report)]), 'report.html');
      const encoded = new Response(data);
      const upload = await t.call(user.token, {
        method: 'POST',
        url: '/api/v1/import/upload',
        payload: Buffer.from(await encoded.arrayBuffer()),
        headers: { 'content-type': encoded.headers.get('content-type')! },
      });
      expect(upload.statusCode, upload.body).toBe(200);
      const { importId } = upload.json<{ importId: string }>();
      const confirm = await t.call(user.token, {
        method: 'POST',
        url: `/api/v1/import/confirm/${importId}`,
        payload: {},
      });
      expect(confirm.statusCode, confirm.body).toBe(200);
      return confirm.json<{ added: number; updated: number }>();
    };
    expect(await version(userId)).toEqual({ data: 0, journal: 0 });
    // The report's 10 closed positions and the one still open.
    expect((await importOnce()).added).toBe(11);
    const imported = await version(userId);
    expect(imported.data).toBeGreaterThan(0);
    expect(await importOnce()).toMatchObject({ added: 0, updated: 0 });
    expect(await version(userId)).toEqual(imported);
  });
});

describe('overview snapshot', () => {
  it('computes the whole overview once per version and serves it after; a filtered view computes each time', async () => {
    const { token, userId } = await connected();
    const before = overviewEngineRuns();
    const first = await metrics(t, token);
    expect(overviewEngineRuns()).toBe(before + 1);
    const book = sim.state.trades(sim.accountIds[0]!).length;
    expect(first.tradeCount).toBe(book);

    const again = await metrics(t, token);
    expect(again).toEqual(first);
    expect(overviewEngineRuns()).toBe(before + 1);

    const filtered = await metrics(t, token, '&instrument=EUR_USD');
    expect(filtered.insights.note).toBe(SLICED_INSIGHTS_NOTE);
    await metrics(t, token, '&instrument=EUR_USD');
    expect(overviewEngineRuns()).toBe(before + 3);

    // A sync that brings nothing new: still the snapshot.
    await syncOanda(t.api(token));
    expect((await metrics(t, token)).computedAt).toBe(first.computedAt);
    expect(overviewEngineRuns()).toBe(before + 3);

    // A tag on a trade feeds the By tag card: the journal's counter moves and the snapshot is computed again.
    const tag = await t.call(token, {
      method: 'POST',
      url: '/api/v1/journal/create_tag',
      payload: { name: 'Opening range', kind: 'setup' },
    });
    expect(tag.statusCode, tag.body).toBe(200);
    const tagId = tag.json<{ data: { id: string } }>().data.id;
    const journalBefore = (await version(userId)).journal;
    const trade = sim.state.trades(sim.accountIds[0]!, 'CLOSED')[0]!;
    const bulk = await t.call(token, {
      method: 'POST',
      url: '/api/v1/journal/bulk_tag',
      payload: { trades: [{ accountId: sim.accountIds[0]!, tradeId: trade.id }], tagIds: [tagId] },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect((await version(userId)).journal).toBe(journalBefore + 1);
    const runs = overviewEngineRuns();
    const tagged = await metrics(t, token);
    expect(overviewEngineRuns()).toBe(runs + 1);
    expect(tagged.byTag.find((row) => row.tagId === tagId)?.trades).toBe(1);
    expect(tagged.tradeCount).toBe(book);
  });

  it('computes once when two instances are asked for the first view of a new version at the same time', async () => {
    const { token, userId } = await connected();
    await metrics(t, token);
    sim.openTrade(sim.accountIds[0]!, { instrument: 'USD_JPY', units: -2000 });
    const v = (await version(userId)).data;
    await syncOanda(t.api(token));
    expect((await version(userId)).data).toBeGreaterThan(v);

    const before = overviewEngineRuns();
    const views = await Promise.all([metrics(t, token), metrics(t2, token), metrics(t, token), metrics(t2, token)]);
    expect(overviewEngineRuns()).toBe(before + 1);
    for (const view of views) expect(view).toEqual(views[0]);
    const rows = await database.db.kysely
      .selectFrom('overview_snapshots')
      .select(['scope', 'version'])
      .where('user_id', '=', userId)
      .execute();
    expect(rows).toEqual([{ scope: 'oanda|all|UTC|USD', version: `${(await version(userId)).data}.0` }]);
  });
});

describe('Profile time zone', () => {
  it('starts unset, saves an IANA zone in its canonical form, and refuses anything else with a message', async () => {
    const { token, userId } = await connected();
    const get = async () => {
      const res = await t.call(token, { method: 'GET', url: '/api/v1/account/get_time_zone' });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TimeZoneResponse>().data.timeZone;
    };
    expect(await get()).toBeNull();

    const bad = await t.call(token, {
      method: 'POST',
      url: '/api/v1/account/update_time_zone',
      payload: { timeZone: 'Mars/Olympus_Mons' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ErrorBody>().message).toContain('timeZone must be an IANA time zone such as Europe/London');
    expect(await get()).toBeNull();

    const saved = await t.call(token, {
      method: 'POST',
      url: '/api/v1/account/update_time_zone',
      payload: { timeZone: 'asia/tokyo' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<TimeZoneResponse>().data.timeZone).toBe('Asia/Tokyo');
    expect(await get()).toBe('Asia/Tokyo');

    // The saved zone wins over the request's: the snapshot is the trader's, in Tokyo time.
    await metrics(t, token);
    const scopes = await database.db.kysely
      .selectFrom('overview_snapshots')
      .select('scope')
      .where('user_id', '=', userId)
      .execute();
    expect(scopes).toEqual([{ scope: 'oanda|all|Asia/Tokyo|USD' }]);

    // Saving a zone leaves the other settings alone.
    const info = await t.call(token, { method: 'GET', url: '/api/v1/account/get_info' });
    expect(info.json<{ data: { oanda: { accessToken: string } } }>().data.oanda.accessToken).not.toBe('');
  });
});
