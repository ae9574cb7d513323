import { createJournalFactsService } from '../journal/journal-facts.service';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountItem, TradeItem } from '@pipsense/contract';
import { createDb, type Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';
import { LlmError, type LlmProvider, type LlmRequest, type LlmResult } from '../../integrations/llm';
import {
  createAnalyticsService,
  overviewEngineRuns,
  SLICED_INSIGHTS_NOTE,
  type AnalyticsService,
} from './analytics.service';
import { createInsightsRepository } from './insights.repository';
import { createSnapshotRepository } from './overview-snapshots.repository';
import { sliceBook, type OverviewBook } from './overview-trades';
import { engineTradeFromItem } from './engine';
import { bumpDataVersion } from '../../db/data-versions';

/*
 * The insights cache on a real (SQLite) database with a scripted provider: once per data version, one writer
 * per version across page views and server instances, takeover of a dead claim, retry of transient failures.
 */

const ACCOUNT = '101-004-1234567-001';
const SYNCED = '2025-10-03T14:30:00.000Z';
const TIMEOUT_MS = 1_000;
const RETRY_PAUSE_MS = 10 * 60_000;

function trade(id: string, pl: string, open: string, close: string | null): TradeItem {
  return {
    tradeId: id,
    accountId: ACCOUNT,
    mode: 'demo',
    instrument: 'EUR_USD',
    price: '1.08500',
    initialUnits: '10000',
    currentUnits: close ? '0' : '10000',
    realizedPL: close ? pl : '0.0000',
    unrealizedPL: close ? null : pl,
    financing: '0.0000',
    state: close ? 'CLOSED' : 'OPEN',
    openTime: open,
    closeTime: close,
    averageClosePrice: close ? '1.08600' : null,
    stopLossPrice: id === '1' ? '1.08000' : null,
    takeProfitPrice: null,
    trailingStopDistance: null,
    updatedAt: SYNCED,
    createdAt: SYNCED,
    platform: 'oanda',
    symbol: null,
    lots: null,
    commission: null,
    swap: null,
  };
}

function account(syncedAt: string): AccountItem {
  return {
    id: 'a1',
    userId: 'u1',
    version: 1,
    oandaAccountId: ACCOUNT,
    mode: 'demo',
    alias: 'Primary',
    currency: 'USD',
    balance: '10030.0000',
    NAV: '10031.0000',
    unrealizedPL: '1.0000',
    pl: '30.0000',
    financing: '0.0000',
    commission: '0.0000',
    marginUsed: '20.0000',
    marginAvailable: '10011.0000',
    positionValue: '1000.0000',
    marginRate: '0.02',
    marginCloseoutPercent: '0.001',
    withdrawalLimit: '10011.0000',
    openTradeCount: 1,
    openPositionCount: 1,
    pendingOrderCount: 0,
    hedgingEnabled: false,
    openedAt: '2025-01-01T00:00:00.000Z',
    lastTransactionID: '40',
    syncedAt,
    createdAt: SYNCED,
    updatedAt: SYNCED,
    platform: 'oanda',
    login: ACCOUNT,
    server: 'fxpractice',
    broker: null,
    leverage: null,
    brokerTime: null,
    serverUtcOffset: null,
  };
}

const TRADES = [
  trade('1', '50.0000', '2025-10-01T09:00:00.000Z', '2025-10-01T11:00:00.000Z'),
  trade('2', '-20.0000', '2025-10-02T09:00:00.000Z', '2025-10-02T10:00:00.000Z'),
  trade('3', '1.0000', '2025-10-03T09:00:00.000Z', null),
];
/** A trade closed after those, and insights grounded in the four. */
const FOURTH = trade('4', '12.0000', '2025-10-03T10:00:00.000Z', '2025-10-03T12:00:00.000Z');
const GROUNDED_FOUR = {
  aiInsights: [{ title: 'Activity', detail: '4 trades on 1 account, 3 of them closed.' }],
  quickWins: ['Put a stop-loss on all 4 trades.'],
  longTermStrategy: [{ title: 'Sample Size', detail: 'Only 3 closed trades so far.' }],
};

/** Trades as the Overview holds them (overview-trades.ts). */
const bookOf = (trades: readonly TradeItem[]): OverviewBook => ({
  trades: trades.map((t) => engineTradeFromItem(t)),
  accountKeys: trades.map((t) => t.accountId),
  modes: trades.map(() => 'demo'),
});

/** Every number here is in the facts (3 trades, 2 closed, 1 account). */
const GROUNDED = {
  aiInsights: [{ title: 'Activity', detail: '3 trades on 1 account, 2 of them closed.' }],
  quickWins: ['Put a stop-loss on all 3 trades.'],
  longTermStrategy: [{ title: 'Sample Size', detail: 'Only 2 closed trades so far.' }],
};

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A provider whose answers the test hands out one call at a time. */
function scriptedProvider() {
  const calls: Array<{ request: LlmRequest; answer: Deferred<LlmResult> }> = [];
  const waiters: Array<() => void> = [];
  const provider: LlmProvider = {
    id: 'openai',
    label: 'OpenAI',
    model: () => 'gpt-test',
    complete(request) {
      const answer = deferred<LlmResult>();
      // As the real providers do: an abort whose reason is a TimeoutError is a timeout.
      request.signal?.addEventListener('abort', () => {
        const reason: unknown = request.signal?.reason;
        const kind = reason instanceof Error && reason.name === 'TimeoutError' ? 'timeout' : 'aborted';
        answer.reject(new LlmError(kind, { provider: 'openai', label: 'OpenAI' }));
      });
      calls.push({ request, answer });
      waiters.splice(0).forEach((wake) => wake());
      return answer.promise;
    },
    stream() {
      throw new Error('not used by the insights');
    },
  };
  const reply = (json: unknown): LlmResult => ({
    text: JSON.stringify(json),
    json,
    toolCalls: [],
    finishReason: 'stop',
    model: 'gpt-test-2025',
  });
  return {
    provider,
    calls,
    /** Resolves once the provider has been called `n` times. */
    async called(n: number): Promise<void> {
      while (calls.length < n) await new Promise<void>((wake) => waiters.push(wake));
    },
    answer(index: number, json: unknown) {
      calls[index]!.answer.resolve(reply(json));
    },
    fail(index: number, error: unknown) {
      calls[index]!.answer.reject(error);
    },
  };
}

let dir: string;
let db: Db;
let userId: string;
let clock: number;
let syncing: boolean;
let synced: string;
/** The account's live valuations as the last sync left them. */
let valuation: Partial<AccountItem>;
let book: OverviewBook;
const services: AnalyticsService[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pipsense-analytics-'));
  db = createDb({ dataDir: dir });
  await migrateToLatest(db);
  userId = randomUUID();
  const at = new Date().toISOString();
  await db.kysely
    .insertInto('users')
    .values({
      id: userId,
      username: 'trader',
      username_key: 'trader',
      email: 'trader@example.com',
      password_hash: 'x',
      created_at: at,
      updated_at: at,
    })
    .execute();
  clock = Date.parse('2025-10-03T15:00:00.000Z');
  syncing = false;
  synced = SYNCED;
  valuation = {};
  book = bookOf(TRADES);
});
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

function service(provider: LlmProvider): AnalyticsService {
  const created = createAnalyticsService({
    trading: {
      accounts: () => Promise.resolve([{ ...account(synced), ...valuation }]),
      isSyncing: () => syncing,
    },
    settings: {
      defaultAiPlatform: () => Promise.resolve('openai'),
      timeZone: () => Promise.resolve(null),
      homeCurrency: () => Promise.resolve({ currency: 'USD', isDefault: true }),
    },
    providers: { openai: provider },
    insights: createInsightsRepository(db.kysely),
    journal: createJournalFactsService(db.kysely),
    source: {
      book: () => Promise.resolve(book),
      count: () => Promise.resolve(book.trades.length),
      slice: (_user, selection) =>
        Promise.resolve(
          sliceBook(book, selection, { accountKeys: new Set(selection.account ? [selection.account] : []) }),
        ),
      accountKeysNamed: (_user, named) => Promise.resolve(new Set([named])),
      reviewsFor: () => Promise.resolve(undefined),
    },
    snapshots: createSnapshotRepository(db.kysely, 'sqlite'),
    now: () => new Date(clock),
    timeoutMs: TIMEOUT_MS,
    retryPauseMs: RETRY_PAUSE_MS,
  });
  services.push(created);
  return created;
}

const view = (s: AnalyticsService) => s.overview(userId, { timeZone: 'UTC' });

describe('overview insights cache', () => {
  it('asks the provider once for page views that arrive together, and serves the stored answer after', async () => {
    const llm = scriptedProvider();
    const s = service(llm.provider);
    const [a, b, c] = await Promise.all([view(s), view(s), view(s)]);
    for (const data of [a, b, c]) expect(data.insights).toMatchObject({ source: 'builtin', status: 'pending' });
    expect(a.insights.note).toBe('AI insights are being written by OpenAI…');
    await llm.called(1);
    llm.answer(0, GROUNDED);
    await s.settled();

    const ready = await view(s);
    expect(ready.insights).toEqual({
      source: 'openai',
      status: 'ready',
      note: null,
      model: 'gpt-test-2025',
      writtenAt: new Date(clock).toISOString(),
    });
    expect(ready.aiInsights).toEqual({ Activity: '3 trades on 1 account, 2 of them closed.' });
    expect(llm.calls).toHaveLength(1);
    // The request: strict structured output, instructions, then the facts.
    const request = llm.calls[0]!.request;
    expect(request.model).toBe('gpt-test');
    expect(request.jsonSchema).toMatchObject({ name: 'overview_insights', strict: true });
    expect(request.jsonSchema?.schema).not.toHaveProperty('$schema');
    expect(request.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('gives a filtered view the built-in insights without asking the provider, whatever the filters', async () => {
    const llm = scriptedProvider();
    const s = service(llm.provider);
    const filters = [
      { from: '2025-10-01T00:00:00.000Z' },
      { instrument: 'EUR_USD' },
      { accountId: ACCOUNT },
      { from: '2025-10-01T00:00:00.000Z', to: '2025-10-03T00:00:00.000Z', instrument: 'EUR_USD' },
    ];
    for (const filter of filters) {
      const data = await s.overview(userId, { timeZone: 'UTC', ...filter });
      expect(data.insights).toEqual({
        source: 'builtin',
        status: 'ready',
        note: SLICED_INSIGHTS_NOTE,
        model: null,
        writtenAt: null,
      });
    }
    await s.settled();
    expect(llm.calls).toHaveLength(0);
    // The whole overview still goes to the provider.
    expect((await view(s)).insights.status).toBe('pending');
    await llm.called(1);
  });

  it('lets one of two server instances sharing the database write, and both serve its answer', async () => {
    const first = scriptedProvider();
    const second = scriptedProvider();
    const a = service(first.provider);
    const b = service(second.provider);
    const views = await Promise.all([view(a), view(b), view(a), view(b)]);
    for (const data of views) expect(data.insights.status).toBe('pending');
    await Promise.race([first.called(1), second.called(1)]);
    const writer = first.calls.length > 0 ? first : second;
    writer.answer(0, GROUNDED);
    await Promise.all([a.settled(), b.settled()]);
    expect(first.calls.length + second.calls.length).toBe(1);
    for (const s of [a, b]) expect((await view(s)).insights).toMatchObject({ source: 'openai', status: 'ready' });
    expect(first.calls.length + second.calls.length).toBe(1);
  });

  it('takes over the claim of a server that stopped mid-answer once it is stale', async () => {
    const dying = scriptedProvider();
    const a = service(dying.provider);
    await view(a);
    await dying.called(1);
    await a.close(); // aborts the call and stores nothing: the row stays pending

    const llm = scriptedProvider();
    const b = service(llm.provider);
    clock += TIMEOUT_MS; // not yet stale (2 × timeout)
    expect((await view(b)).insights.status).toBe('pending');
    expect(llm.calls).toHaveLength(0);

    clock += TIMEOUT_MS + 1;
    expect((await view(b)).insights.status).toBe('pending');
    await llm.called(1);
    llm.answer(0, GROUNDED);
    await b.settled();
    expect((await view(b)).insights.status).toBe('ready');
  });

  it('retries a transient failure after the pause, and a rejected answer only once the facts change', async () => {
    const llm = scriptedProvider();
    const s = service(llm.provider);
    await view(s);
    await llm.called(1);
    llm.fail(0, new LlmError('rate_limit', { provider: 'openai', label: 'OpenAI' }));
    await s.settled();
    expect((await view(s)).insights).toMatchObject({
      source: 'builtin',
      status: 'fallback',
      note: 'OpenAI is receiving too many requests right now; showing the built-in analysis.',
    });

    clock += RETRY_PAUSE_MS - 1;
    expect((await view(s)).insights.status).toBe('fallback');
    expect(llm.calls).toHaveLength(1);

    clock += 1;
    expect((await view(s)).insights.status).toBe('pending');
    await llm.called(2);
    llm.answer(1, { ...GROUNDED, quickWins: ['Risk 4,321 units per trade.'] });
    await s.settled();
    const rejected = await view(s);
    expect(rejected.insights).toMatchObject({
      status: 'fallback',
      note: 'OpenAI quoted numbers that are not in your metrics (4,321); showing the built-in analysis.',
    });

    clock += 30 * RETRY_PAUSE_MS;
    expect((await view(s)).insights.status).toBe('fallback');
    expect(llm.calls).toHaveLength(2);

    // A sync that brought a new trade moves the facts: asked again.
    synced = new Date(clock).toISOString();
    book = bookOf([...TRADES, FOURTH]);
    await bumpDataVersion(db.kysely, userId, synced);
    expect((await view(s)).insights.status).toBe('pending');
    await llm.called(3);
    llm.answer(2, GROUNDED_FOUR);
    await s.settled();
    expect((await view(s)).insights.status).toBe('ready');
  });

  it('asks again when the facts change, not when a sync moved only prices', async () => {
    const llm = scriptedProvider();
    const s = service(llm.provider);
    await view(s);
    await llm.called(1);
    llm.answer(0, GROUNDED);
    await s.settled();
    const written = await view(s);
    expect(written.insights).toMatchObject({ source: 'openai', status: 'ready' });
    // The provider is given no live valuation: those move with every price.
    const user = llm.calls[0]!.request.messages[1]!;
    const message = 'content' in user ? String(user.content) : '';
    expect(message).toContain('"openTrades":1');
    for (const live of ['"nav"', '"marginUsed"', '"unrealizedPL"', '"openExposure"', '"marginUtilisation"'])
      expect(message).not.toContain(live);

    const filtered = () => s.overview(userId, { timeZone: 'UTC', instrument: 'EUR_USD' });
    expect((await filtered()).tradeCount).toBe(3);

    // A background sync while trade 3 is open: its unrealized P/L and the account's NAV, margin and exposure moved,
    // so did the data version (the snapshot is computed again), and nothing the provider is given.
    clock += 15 * 60_000;
    synced = new Date(clock).toISOString();
    book = bookOf([...TRADES.slice(0, 2), { ...TRADES[2]!, unrealizedPL: '-7.5000' }]);
    valuation = { NAV: '10022.5000', unrealizedPL: '-7.5000', marginUsed: '21.7000', positionValue: '1085.0000' };
    await bumpDataVersion(db.kysely, userId, synced);
    const runs = overviewEngineRuns();
    const repriced = await view(s);
    expect(overviewEngineRuns()).toBe(runs + 1);
    expect(repriced.computedAt).toBe(synced);
    expect(repriced.insights).toEqual(written.insights);
    expect(repriced.aiInsights).toEqual(written.aiInsights);
    await s.settled();
    expect(llm.calls).toHaveLength(1);

    // A trade closed since: the facts moved, asked once.
    clock += 15 * 60_000;
    book = bookOf([...TRADES, FOURTH]);
    await bumpDataVersion(db.kysely, userId, new Date(clock).toISOString());
    // The filtered view reads the trades of the new version (this instance held those of the last one).
    expect((await filtered()).tradeCount).toBe(4);
    const [a, b] = await Promise.all([view(s), view(s)]);
    for (const data of [a, b]) expect(data.insights).toMatchObject({ source: 'builtin', status: 'pending' });
    await llm.called(2);
    llm.answer(1, GROUNDED_FOUR);
    await s.settled();
    expect((await view(s)).aiInsights).toEqual({ Activity: '4 trades on 1 account, 3 of them closed.' });
    expect(llm.calls).toHaveLength(2);
  });

  it('waits for a running sync to finish before asking', async () => {
    const llm = scriptedProvider();
    const s = service(llm.provider);
    syncing = true;
    const during = await view(s);
    expect(during.insights).toMatchObject({ source: 'builtin', status: 'pending' });
    expect(during.insights.note).toContain('when the running sync has finished');
    expect(llm.calls).toHaveLength(0);
    syncing = false;
    await view(s);
    await llm.called(1);
    expect(llm.calls).toHaveLength(1);
  });

  it('times out a provider that does not answer', async () => {
    const llm = scriptedProvider();
    const s = service(llm.provider);
    await view(s);
    await llm.called(1);
    // Never answered: the service's own timer ends the call.
    await s.settled();
    expect((await view(s)).insights).toMatchObject({
      source: 'builtin',
      status: 'fallback',
      note: 'OpenAI did not answer in time; showing the built-in analysis.',
    });
    expect(llm.calls[0]!.request.signal?.reason).toMatchObject({ name: 'TimeoutError' });
  });
});

describe('refreshSnapshots', () => {
  it('brings the viewed scopes up to the new data version, so that the next view only reads', async () => {
    const s = service(scriptedProvider().provider);
    const first = await s.overview(userId, { timeZone: 'UTC', mode: 'demo' });
    expect(await s.refreshSnapshots(userId)).toBe(0); // nothing changed

    clock += 60_000;
    await bumpDataVersion(db.kysely, userId, new Date(clock).toISOString());
    const runs = overviewEngineRuns();
    expect(await s.refreshSnapshots(userId)).toBe(1);
    expect(overviewEngineRuns()).toBe(runs + 1);

    const next = await s.overview(userId, { timeZone: 'UTC', mode: 'demo' });
    expect(overviewEngineRuns()).toBe(runs + 1);
    expect(next.computedAt).toBe(new Date(clock).toISOString());
    expect(next.computedAt).not.toBe(first.computedAt);
    await s.close();
  });
});
