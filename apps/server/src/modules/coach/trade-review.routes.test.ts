import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COACH_FACT_NAMES, type CoachFact, type TradeListItem, type TradeReviewData } from '@pipsense/contract';
import { startFakeOpenAI, type FakeLlmServer, type FakeRequest } from '@pipsense/fake-llm';
import { DEMO_TOKEN, startOandaSim, type OandaSim } from '@pipsense/oanda-sim';
import { createTestApp, type TestApp } from '../../test/harness';
import { syncOanda } from '../../test/oanda-user';
import { until } from '../../test/until';

/*
 * A trade's review (docs/coach.md, Reviews) on SQLite and, with PIPSENSE_TEST_PG, PostgreSQL: the routes with bad
 * inputs and another user's trade, the provider's answer checked against the facts, staleness, and the background
 * reviews within COACH_DAILY_REQUESTS.
 */
const COACH_LIMIT = 3;
let sim: OandaSim;
let openai: FakeLlmServer;
let t: TestApp;
let alice: string;
let bob: string;
let closed: TradeListItem[];
let open: TradeListItem | undefined;

const path = (verb: 'get_trade_review' | 'review_trade', trade: { accountId: string; tradeId: string }) =>
  `/api/v1/coach/${verb}/${encodeURIComponent(trade.accountId)}/${encodeURIComponent(trade.tradeId)}`;
const getReview = async (token: string, trade: TradeListItem) =>
  (await t.getOk<{ data: TradeReviewData }>(token, path('get_trade_review', trade))).data;
const postReview = (token: string, trade: { accountId: string; tradeId: string }, payload: unknown = {}) =>
  t.call(token, { method: 'POST', url: path('review_trade', trade), payload: payload as object });

/** The facts the provider was given in a request. */
const factsOf = (request: FakeRequest): CoachFact[] =>
  JSON.parse(request.lastUserText.replace(/^The facts:\n/, '')) as CoachFact[];
/** A well-formed answer citing the given fact names. */
const answer = (a: string, b: string) => ({
  wentWell: [
    { text: 'Good one.', facts: [a] },
    { text: 'Good two.', facts: [b] },
  ],
  toImprove: [
    { text: 'Fix one.', facts: [a] },
    { text: 'Fix two.', facts: [b] },
  ],
  action: { text: 'Do this next time.', facts: [a] },
});

beforeAll(async () => {
  [sim, openai] = await Promise.all([
    startOandaSim({ accounts: 1, tradesPerAccount: 12, historyDays: 20, seed: 8 }),
    startFakeOpenAI(),
  ]);
  t = await createTestApp(
    {
      OANDA_PRACTICE_URL: sim.url,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openai.url,
      AI_DAILY_REQUESTS: '100',
      COACH_DAILY_REQUESTS: String(COACH_LIMIT),
    },
    { llm: { maxRetries: 0, timeoutMs: 10_000 }, oanda: { retries: 0 } },
  );
  alice = (
    await t.oandaUser({ ai: 'openai', oanda: { accessToken: DEMO_TOKEN, accountId: sim.accountIds[0]!, mode: 'demo' } })
  ).token;
  bob = (await t.user('bob')).token;
  const list = await t.getOk<{ data: TradeListItem[] }>(alice, '/api/v1/trade/get_trade_history?limit=100');
  closed = list.data.filter((x) => x.state === 'CLOSED');
  open = list.data.find((x) => x.state !== 'CLOSED');
  expect(closed.length).toBeGreaterThanOrEqual(4);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([sim?.close(), openai?.close()]);
});

describe('a trade’s review', () => {
  it('has facts and no review until one is made; the provider writes it, citing only the facts', async () => {
    const trade = closed[0]!;
    const before = await getReview(alice, trade);
    expect(before).toMatchObject({ review: null, source: null, stale: false, createdAt: null });
    // The patterns that flag the trade are those the Patterns screen lists it under.
    const patterns = await t.getOk<{ data: Array<{ pattern: string; trades: Array<{ tradeId: string }> }> }>(
      alice,
      '/api/v1/coach/get_patterns',
    );
    const flagging = patterns.data
      .filter((p) => p.trades.some((x) => x.tradeId === trade.tradeId))
      .map((p) => p.pattern);
    expect([...before.patterns].sort()).toEqual(flagging.sort());
    const names = before.facts.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['hold_minutes', 'session']));
    for (const f of before.facts) expect(COACH_FACT_NAMES).toContain(f.name);

    openai.reset();
    openai.setHandler((request) => ({ json: answer(factsOf(request)[0]!.name, factsOf(request).at(-1)!.name) }));
    const res = await postReview(alice, trade);
    expect(res.statusCode, res.body).toBe(200);
    const made = res.json<{ data: TradeReviewData }>().data;
    expect(openai.requests).toHaveLength(1);
    // The facts the provider was given are the ones the API returns.
    expect(factsOf(openai.requests[0]!)).toEqual(made.facts);
    expect(made.source).toBe('gpt-4o');
    expect(made.review!.wentWell).toHaveLength(2);
    expect(made.review!.score.rubric).toMatch(/start at 3/);
    expect(made.dataVersion).toBe(before.dataVersion);

    const after = await getReview(alice, trade);
    expect(after).toMatchObject({ review: made.review, source: 'gpt-4o', stale: false, dataVersion: made.dataVersion });
    openai.setHandler(undefined);
  });

  it('refuses an answer citing a fact the trade does not have, asks once more, then the built-in analyst writes it', async () => {
    const trade = closed[1]!;
    const { facts } = await getReview(alice, trade);
    const absent = COACH_FACT_NAMES.find((n) => !facts.some((f) => f.name === n))!;
    openai.reset();
    openai.setHandler(() => ({ json: answer(facts[0]!.name, absent) }));
    const res = await postReview(alice, trade);
    expect(res.statusCode, res.body).toBe(200);
    const made = res.json<{ data: TradeReviewData }>().data;
    // the first answer and one retry, no more
    expect(openai.requests).toHaveLength(2);
    expect(made.source).toBe('builtin');
    const known = new Set(made.facts.map((f) => f.name));
    for (const p of [...made.review!.wentWell, ...made.review!.toImprove, made.review!.action])
      for (const name of p.facts) expect(known.has(name)).toBe(true);
    openai.setHandler(undefined);
  });

  it('goes stale when the trade’s journal entry changes, and is made again on request', async () => {
    const trade = closed[0]!;
    const note = await t.call(alice, {
      method: 'POST',
      url: `/api/v1/journal/update_trade_note/${encodeURIComponent(trade.accountId)}/${trade.tradeId}`,
      payload: { note: 'Entered late.', rating: 2, tagIds: [] },
    });
    expect(note.statusCode, note.body).toBe(200);
    const stale = await getReview(alice, trade);
    expect(stale.stale).toBe(true);
    expect(stale.review).not.toBeNull();
    openai.reset();
    const res = await postReview(alice, trade);
    expect(res.statusCode, res.body).toBe(200);
    expect((await getReview(alice, trade)).stale).toBe(false);
  });

  it('answers 404 for another user’s trade and an unknown one, 409 for an open one, 400 for bad inputs', async () => {
    const trade = closed[0]!;
    for (const res of [
      await t.call(bob, { method: 'GET', url: path('get_trade_review', trade) }),
      await postReview(bob, trade),
      await t.call(alice, { method: 'GET', url: path('get_trade_review', { ...trade, tradeId: '999999' }) }),
      await postReview(alice, { accountId: 'nobody', tradeId: trade.tradeId }),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json<{ success: boolean }>().success).toBe(false);
    }
    if (open) {
      const res = await postReview(alice, open);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json<{ message: string }>().message).toMatch(/still open/);
    }
    expect((await postReview(alice, trade, { provider: 'x' })).statusCode).toBe(400);
    expect(
      (await t.call(alice, { method: 'GET', url: path('get_trade_review', { ...trade, tradeId: ' ' }) })).statusCode,
    ).toBe(400);
    expect((await t.call(undefined, { method: 'GET', url: path('get_trade_review', trade) })).statusCode).toBe(401);
  });

  it('answers 429 past the reviews a trader may have running and waiting', async () => {
    openai.reset();
    openai.setHandler((request) => ({
      delayMs: 400,
      json: answer(factsOf(request)[0]!.name, factsOf(request)[0]!.name),
    }));
    const answers = await Promise.all(closed.slice(0, 4).map((trade) => postReview(alice, trade)));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(answers.find((r) => r.statusCode === 429)!.json<{ code: string }>().code).toBe('TOO_MANY_RUNNING');
    openai.setHandler(undefined);
  });
});

describe('background reviews', () => {
  it('review every closed trade after a sync, with at most COACH_DAILY_REQUESTS provider requests', async () => {
    const settings = await t.call(alice, {
      method: 'POST',
      url: '/api/v1/coach/update_settings',
      payload: { autoReview: true, aiWritten: true },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    // Each trade's candles fetched (and kept) by a trader's look first, so the pass reads them from the store.
    for (const trade of closed) await getReview(alice, trade);
    openai.reset();
    // Every answer is well-formed, so each provider request writes one review until the coach's share is used.
    openai.setHandler((request) => ({ json: answer(factsOf(request)[0]!.name, factsOf(request)[0]!.name) }));
    await syncOanda(t.api(alice));
    const sources = new Map<string, string | null>();
    await until(
      async () => {
        for (const trade of closed) {
          if (sources.get(trade.tradeId)) continue;
          sources.set(trade.tradeId, (await getReview(alice, trade)).source);
        }
        return [...sources.values()].every((s) => s !== null);
      },
      'every closed trade reviewed',
      { ms: 30_000, everyMs: 100 },
    );
    expect(openai.requests.length).toBeLessThanOrEqual(COACH_LIMIT);
    const byProvider = [...sources.values()].filter((s) => s === 'gpt-4o').length;
    // Reviews written by the provider before (by the button) stay as they are when fresh.
    expect([...sources.values()].filter((s) => s === 'builtin').length).toBeGreaterThan(0);
    expect(byProvider).toBeGreaterThan(0);
    openai.setHandler(undefined);
  }, 60_000);
});
