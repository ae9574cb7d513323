/*
 * The coach's trade reviews (docs/coach.md), through the real app (app.inject, SQLite):
 * 1. The facts of one closed trade with its candles kept: GET /api/v1/coach/get_trade_review of a trade synced from
 *    the v20 simulator in this process; the first read fetches the H1 and H4 candles before the entry and keeps them
 *    (modules/candles), the next 30 are timed. Goal: ≤ 20 ms.
 * 2. A backlog of 1,000 background reviews with AI-written reviews on: 1,000 closed trades imported from a CSV (the
 *    import's follow-up starts the pass), against a fake OpenAI server answering every request with a valid review;
 *    every trade is reviewed, and the provider requests counted. Goal: never above COACH_DAILY_REQUESTS (half of
 *    AI_DAILY_REQUESTS), so the chat keeps the other half.
 */
import { startFakeOpenAI, type FakeRequest } from '@pipsense/fake-llm';
import { startOandaSim } from '@pipsense/oanda-sim';
import type { ImportUploadResponse, TradeListItem, TradeReviewData } from '@pipsense/contract';
import { createBenchApp } from './support/bench-app';
import { goal, heading, median, ms, runBench, spread } from './support/stats';

const RUNS = 30;
const BACKLOG = 1000;
const AI_DAILY = 40;

const reviewAnswer = (request: FakeRequest) => {
  const name = (JSON.parse(request.lastUserText.replace(/^The facts:\n/, '')) as Array<{ name: string }>)[0]!.name;
  const point = { text: 'A point.', facts: [name] };
  return { json: { wentWell: [point, point], toImprove: [point, point], action: point } };
};

async function factsOfOneTrade(): Promise<void> {
  const sim = await startOandaSim({ accounts: 1, tradesPerAccount: 200, historyDays: 60, seed: 3 });
  const app = await createBenchApp({ OANDA_PRACTICE_URL: sim.url });
  try {
    const { token } = await app.oandaUser({ ai: 'openai', oanda: { accessToken: sim.token } });
    const list = await app.getOk<{ data: TradeListItem[] }>(token, '/api/v1/trade/get_trade_history?limit=50');
    const trade = list.data.find((t) => t.state === 'CLOSED' && t.initialRisk !== null)!;
    const url = `/api/v1/coach/get_trade_review/${trade.accountId}/${trade.tradeId}`;
    const read = async () => {
      const start = performance.now();
      const data = (await app.getOk<{ data: TradeReviewData }>(token, url)).data;
      return { took: performance.now() - start, data };
    };
    heading(`facts of one closed ${trade.instrument} trade (a book of ${list.data.length}+ trades)`);
    sim.requestLog.length = 0;
    const first = await read();
    const fetched = sim.requestLog.filter((r) => r.path.includes('/candles')).length;
    console.log(
      `first read (H1 and H4 candles fetched, ${fetched} requests): ${ms(first.took)}; ` +
        `${first.data.facts.length} facts: ${first.data.facts.map((f) => f.name).join(', ')}`,
    );
    sim.requestLog.length = 0;
    const kept: number[] = [];
    for (let i = 0; i < RUNS; i++) kept.push((await read()).took);
    const again = sim.requestLog.filter((r) => r.path.includes('/candles')).length;
    console.log(`kept candles: ${spread(kept)}; candle requests to OANDA meanwhile: ${again}`);
    goal('facts of one trade, candles kept', ms(median(kept)), median(kept) <= 20 && again === 0, '≤ 20 ms');
  } finally {
    await app.close();
    await sim.close();
  }
}

async function backlog(): Promise<void> {
  const openai = await startFakeOpenAI({ handler: reviewAnswer });
  const app = await createBenchApp({
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: openai.url,
    AI_DAILY_REQUESTS: String(AI_DAILY),
  });
  try {
    const { token } = await app.oandaUser({ ai: 'openai', oanda: null });
    const settings = await app.call(token, {
      method: 'POST',
      url: '/api/v1/coach/update_settings',
      payload: { autoReview: true, aiWritten: true },
    });
    if (settings.statusCode !== 200) throw new Error(settings.body);
    const start = Date.UTC(2026, 7, 3, 7, 0);
    const rows = Array.from({ length: BACKLOG }, (_, i) => {
      const open = new Date(start + i * 97 * 60_000);
      const close = new Date(open.getTime() + (20 + (i % 7) * 15) * 60_000);
      const win = i % 3 !== 0;
      const profit = win ? '35.00' : '-20.00';
      const exit = win ? '1.08350' : '1.07800';
      return `${80000 + i},${open.toISOString()},${close.toISOString()},buy,${(1 + (i % 4) * 0.5).toFixed(2)},${i % 2 ? 'EURUSD' : 'GBPUSD'},1.08000,${exit},0.00,0.00,${profit}`;
    });
    const form = new FormData();
    form.append(
      'file',
      new Blob([
        'ticket,opening_time_utc,closing_time_utc,type,lots,symbol,opening_price,closing_price,commission,swap,profit\n' +
          rows.join('\n'),
      ]),
      'positions.csv',
    );
    const encoded = new Response(form);
    heading(`a backlog of ${BACKLOG} background reviews, AI-written reviews on (AI_DAILY_REQUESTS ${AI_DAILY})`);
    const began = performance.now();
    const uploaded = await app.call(token, {
      method: 'POST',
      url: '/api/v1/import/upload',
      payload: Buffer.from(await encoded.arrayBuffer()),
      headers: { 'content-type': encoded.headers.get('content-type')! },
    });
    if (uploaded.statusCode !== 200) throw new Error(uploaded.body);
    const { importId } = uploaded.json<ImportUploadResponse>();
    const confirmed = await app.call(token, { method: 'POST', url: `/api/v1/import/confirm/${importId}`, payload: {} });
    if (confirmed.statusCode !== 200) throw new Error(confirmed.body);
    const accountId = confirmed.json<{ accountId: string }>().accountId;
    // The pass goes newest first: the oldest trade's review is its last.
    const list = await app.getOk<{ data: TradeListItem[] }>(
      token,
      `/api/v1/trade/get_trade_history?platform=metatrader&limit=1&sort=openTime&order=asc&accountId=${encodeURIComponent(accountId)}`,
    );
    const oldest = list.data[0]!;
    for (;;) {
      const review = await app.getOk<{ data: TradeReviewData }>(
        token,
        `/api/v1/coach/get_trade_review/${encodeURIComponent(oldest.accountId)}/${encodeURIComponent(oldest.tradeId)}`,
      );
      if (review.data.review !== null) break;
      if (performance.now() - began > 600_000) throw new Error('the backlog did not finish in 10 minutes');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const took = performance.now() - began;
    const requests = openai.requests.length;
    const share = Math.floor(AI_DAILY / 2);
    console.log(
      `${BACKLOG} trades imported and reviewed in ${(took / 1000).toFixed(1)} s (${ms(took / BACKLOG)} a review); ` +
        `provider requests: ${requests} (COACH_DAILY_REQUESTS ${share}, AI_DAILY_REQUESTS ${AI_DAILY})`,
    );
    goal('provider requests of a 1,000-review backlog', String(requests), requests <= share, `≤ ${share}`);
  } finally {
    await app.close();
    await openai.close();
  }
}

runBench(async () => {
  await factsOfOneTrade();
  await backlog();
});
