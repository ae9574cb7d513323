import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Chat, ConversationMessage, DashboardMetrics } from '@pipsense/contract';
import { startFakeOpenAI, type FakeLlmServer } from '@pipsense/fake-llm';
import { DEMO_TOKEN, startOandaSim, type OandaSim } from '@pipsense/oanda-sim';
import { createTestApp, createTestDb, TEST_SECRETS, type TestApp } from '../../test/harness';
import { budgetExhaustedMessage, budgetInsightsNote, createAiBudget, AiBudgetExhaustedError } from './ai-budget';

/*
 * SECURITY.md, AI cost: the daily budget of provider requests per user (AI_DAILY_REQUESTS), counted in the database
 * and so shared by every instance on it. Runs on SQLite, and on PostgreSQL with PIPSENSE_TEST_PG.
 */

const LIMIT = 3;
let sim: OandaSim;
let openai: FakeLlmServer;
let database: Awaited<ReturnType<typeof createTestDb>>;
/** Two instances on one database, as behind a load balancer. */
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  [sim, openai] = await Promise.all([
    startOandaSim({ accounts: 1, tradesPerAccount: 20, historyDays: 30, seed: 5 }),
    startFakeOpenAI(),
  ]);
  database = await createTestDb();
  const env = {
    ...TEST_SECRETS,
    OANDA_PRACTICE_URL: sim.url,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: openai.url,
    AI_DAILY_REQUESTS: String(LIMIT),
  };
  const options = { db: database.db, llm: { maxRetries: 0, timeoutMs: 10_000 }, oanda: { retries: 0 } };
  a = await createTestApp(env, options);
  b = await createTestApp(env, options);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await database?.close();
  await Promise.all([sim?.close(), openai?.close()]);
});
beforeEach(() => openai.reset());

async function newChat(app: TestApp, token: string): Promise<Chat> {
  const res = await app.call(token, {
    method: 'POST',
    url: '/api/v1/chat/create_chat',
    payload: { title: 'Budget', topic: 'trading' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Chat }>().data;
}

async function ask(app: TestApp, token: string, chat: Chat, query: string): Promise<ConversationMessage> {
  const res = await app.call(token, {
    method: 'POST',
    url: '/api/v1/query/oanda/trade',
    payload: { query, chatId: chat._id, mode: 'demo' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: ConversationMessage }>().data;
}

async function overview(app: TestApp, token: string): Promise<DashboardMetrics> {
  const res = await app.call(token, { method: 'GET', url: '/api/v1/dashboard/metrics' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: DashboardMetrics }>().data;
}

const trader = (app: TestApp) =>
  app.oandaUser({
    ai: 'openai',
    oanda: { accessToken: DEMO_TOKEN, accountId: sim.accountIds[0]!, mode: 'demo' },
    sync: 'all',
  });

describe('the daily AI budget', () => {
  it('stops provider calls after the day’s requests, counted across two instances, with a clear message', async () => {
    openai.setHandler(() => ({ text: 'Fine.' }));
    try {
      const u = await trader(a);
      const chat = await newChat(a, u.token);
      // Three answers, on alternating instances: each one provider request.
      for (const app of [a, b, a])
        expect(await ask(app, u.token, chat, 'How am I doing?')).toMatchObject({
          provider: 'openai',
          content: 'Fine.',
        });
      expect(openai.requests).toHaveLength(LIMIT);

      // The fourth, on the other instance: the built-in analyst answers, after a sentence saying why.
      const over = await ask(b, u.token, chat, 'And now?');
      expect(over).toMatchObject({ provider: 'builtin', failed: false });
      expect(over.content.startsWith(budgetExhaustedMessage(LIMIT))).toBe(true);
      expect(over.content.length).toBeGreaterThan(budgetExhaustedMessage(LIMIT).length);

      // The Overview: the built-in insights with a note, never a provider call nor a 5xx.
      for (const app of [a, b]) {
        const view = await overview(app, u.token);
        expect(view.insights).toMatchObject({ source: 'builtin', status: 'ready', note: budgetInsightsNote(LIMIT) });
        expect(view.aiInsights).not.toBeNull();
      }
      expect(openai.requests).toHaveLength(LIMIT);

      // Another trader's budget is their own.
      const other = await trader(b);
      expect(await ask(b, other.token, await newChat(b, other.token), 'Hello')).toMatchObject({ provider: 'openai' });
      expect(openai.requests).toHaveLength(LIMIT + 1);
    } finally {
      openai.setHandler(undefined);
    }
  });

  it('ends an answer whose tool loop runs out of requests with the clear message, keeping the question', async () => {
    const u = await trader(a);
    const chat = await newChat(a, u.token);
    // Each round asks for a tool: the third request of the day is the last one allowed.
    openai.setHandler(() => ({ toolCalls: [{ name: 'get_performance', args: {} }] }));
    try {
      const stored = await ask(a, u.token, chat, 'Dig deep');
      expect(stored).toMatchObject({ provider: 'openai', failed: true });
      expect(stored.content).toContain(budgetExhaustedMessage(LIMIT));
      expect(openai.requests).toHaveLength(LIMIT);
    } finally {
      openai.setHandler(undefined);
    }
  });

  it('counts requests made at the same moment by two instances exactly', async () => {
    const u = await trader(a);
    const row = await database.db.kysely
      .selectFrom('users')
      .select('id')
      .where('username', '=', u.username)
      .executeTakeFirstOrThrow();
    const budgets = [
      createAiBudget(database.db.kysely, LIMIT, () => new Date()),
      createAiBudget(database.db.kysely, LIMIT, () => new Date()),
    ];
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => budgets[i % 2]!.take(row.id)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(LIMIT);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.every((r) => r.reason instanceof AiBudgetExhaustedError)).toBe(true);
    expect(await budgets[0]!.hasRoom(row.id)).toBe(false);
    // The next UTC day starts afresh.
    const tomorrow = createAiBudget(database.db.kysely, LIMIT, () => new Date(Date.now() + 86_400_000));
    expect(await tomorrow.hasRoom(row.id)).toBe(true);
  });
});
