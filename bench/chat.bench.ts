/*
 * (a) The built-in analyst's answer time through the real query routes, over the nine example
 * prompts of docs/PRODUCT.md, AI chat, and natural variations (goal p50 ≤ 50 ms); (b) the server's overhead on top of a
 * fake OpenAI server's own latency (goal p50 ≤ 20 ms). The OANDA simulator runs in a child process; the fake LLM in
 * this one, and the baseline for (b) replays the very request bodies the server sent, with the same SDK, to the same
 * fake.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import type { Chat, QueryResponse } from '@pipsense/contract';
import { startFakeOpenAI, type FakeLlmServer, type FakeReply } from '@pipsense/fake-llm';
import { QUESTIONS_PER_MINUTE } from '../apps/server/src/modules/chat/chat-answer.routes';
import { createBenchApp, type BenchApp } from './support/bench-app';
import { startSimProcess, type SimProcess } from './support/sim-process';
import { goal, heading, median, ms, percentile, runBench } from './support/stats';

type Topic = 'trading' | 'accounts' | 'candles';
interface Prompt {
  topic: Topic;
  query: string;
  instrument?: 'EUR_USD' | 'GBP_USD' | 'USD_JPY';
  granularity?: 'M1' | 'M5' | 'M15' | 'H1' | 'D';
  /** One of the nine examples of docs/PRODUCT.md, AI chat (the rest are variations). */
  spec?: true;
}

const PROMPTS: Prompt[] = [
  { topic: 'trading', query: 'Show my open trades', spec: true },
  { topic: 'trading', query: 'What were my top 3 winners today?', spec: true },
  { topic: 'trading', query: 'List all trades with stop-loss orders', spec: true },
  { topic: 'trading', query: 'Top 5 losers this week' },
  { topic: 'trading', query: 'Closed EUR/USD trades last month' },
  { topic: 'trading', query: 'How did I do in the last 30 days?' },
  { topic: 'trading', query: 'open positions without take profit' },
  { topic: 'accounts', query: 'What is my current account balance?', spec: true },
  { topic: 'accounts', query: 'Show last month performance', spec: true },
  { topic: 'accounts', query: 'What is my margin utilization?', spec: true },
  { topic: 'accounts', query: 'What is my NAV?' },
  { topic: 'accounts', query: 'Win rate this week' },
  { topic: 'candles', query: 'Get 5-minute candles for EUR/USD', instrument: 'EUR_USD', granularity: 'M5', spec: true },
  { topic: 'candles', query: 'Fetch hourly candles for GBP/USD', instrument: 'GBP_USD', granularity: 'H1', spec: true },
  { topic: 'candles', query: 'Show daily candles for USD/JPY', instrument: 'USD_JPY', granularity: 'D', spec: true },
  {
    topic: 'candles',
    query: 'Last 50 candles for EUR/USD on the 15 minute chart',
    instrument: 'EUR_USD',
    granularity: 'M15',
  },
  { topic: 'candles', query: 'Show 1 minute candles for USD/JPY', instrument: 'USD_JPY', granularity: 'M1' },
];
const ANALYST_REPS = 4;
const OVERHEAD_SAMPLES = 20;
const FAKE_LATENCY_MS = 100;
const GOAL_ANALYST_P50 = 50;
const GOAL_OVERHEAD_P50 = 20;
const ENDPOINT: Record<Topic, string> = { trading: 'trade', accounts: 'account', candles: 'candle' };

/**
 * A signed-in, synced user with one chat per topic. The query routes allow QUESTIONS_PER_MINUTE per user, so callers
 * take a new one before the budget runs out.
 */
class Asker {
  private asked = 0;
  private constructor(
    private readonly bench: BenchApp,
    readonly token: string,
    private readonly chats: Record<Topic, Chat>,
  ) {}

  static async create(bench: BenchApp, sim: SimProcess, ai: 'openai' | 'gemini'): Promise<Asker> {
    const { token } = await bench.oandaUser({ ai, oanda: { accessToken: sim.token } }, 'chat');
    const chats = {} as Record<Topic, Chat>;
    for (const topic of ['trading', 'accounts', 'candles'] as const) {
      const res = await bench.call(token, {
        method: 'POST',
        url: '/api/v1/chat/create_chat',
        payload: { title: `Bench ${topic}`, topic },
      });
      if (res.statusCode !== 200) throw new Error(`create_chat answered ${res.statusCode}: ${res.body}`);
      chats[topic] = res.json<{ data: Chat }>().data;
    }
    return new Asker(bench, token, chats);
  }

  get budget() {
    return QUESTIONS_PER_MINUTE - 2 - this.asked;
  }

  /** Times one question through the route; `stream` asks for server-sent events as the web app can. */
  async ask(prompt: Prompt, stream = false) {
    this.asked += 1;
    const fields =
      prompt.topic === 'candles'
        ? { instrument: prompt.instrument ?? 'EUR_USD', granularity: prompt.granularity ?? 'M5' }
        : { mode: 'demo' };
    const start = performance.now();
    const res = await this.bench.call(this.token, {
      method: 'POST',
      url: `/api/v1/query/oanda/${ENDPOINT[prompt.topic]}`,
      payload: { query: prompt.query, chatId: this.chats[prompt.topic]._id, timeZone: 'Europe/London', ...fields },
      headers: stream ? { accept: 'text/event-stream' } : {},
    });
    const elapsed = performance.now() - start;
    if (res.statusCode !== 200) throw new Error(`"${prompt.query}" answered ${res.statusCode}: ${res.body}`);
    if (stream) {
      if (!res.body.includes('event: done')) throw new Error(`"${prompt.query}" stream did not finish: ${res.body}`);
      return { ms: elapsed, text: '', model: '', failed: false };
    }
    const { data } = res.json<QueryResponse>();
    return { ms: elapsed, text: data.content, model: data.model ?? '', failed: data.failed === true };
  }
}

async function analystBench(sim: SimProcess) {
  heading(
    `(a) built-in analyst (no LLM configured): ${PROMPTS.length} prompts (the AI chat's 9 examples), ${ANALYST_REPS} rounds after a warm-up`,
  );
  const bench = await createBenchApp({ OANDA_PRACTICE_URL: sim.url, OANDA_LIVE_URL: 'http://127.0.0.1:9' });
  try {
    // Warm-up round, which also shows what was answered.
    const warm = await Asker.create(bench, sim, 'openai');
    for (const prompt of PROMPTS) {
      const answer = await warm.ask(prompt);
      if (answer.failed || answer.model !== 'built-in analyst')
        throw new Error(`"${prompt.query}" was not answered by the analyst: ${answer.model} ${answer.text}`);
      const first = answer.text.split('\n')[0]!;
      console.log(
        `  ${prompt.spec ? '*' : ' '} ${prompt.query} → ${first.length > 90 ? `${first.slice(0, 90)}…` : first}`,
      );
    }
    const byTopic: Record<Topic, number[]> = { trading: [], accounts: [], candles: [] };
    const byPrompt = new Map<string, number[]>();
    const all: number[] = [];
    for (let rep = 0; rep < ANALYST_REPS; rep++) {
      const asker = await Asker.create(bench, sim, 'openai');
      if (asker.budget < PROMPTS.length) throw new Error('too many prompts for one user per minute');
      for (const prompt of PROMPTS) {
        const { ms: t } = await asker.ask(prompt);
        all.push(t);
        byTopic[prompt.topic].push(t);
        byPrompt.set(prompt.query, [...(byPrompt.get(prompt.query) ?? []), t]);
      }
    }
    console.log('  per prompt (median):');
    for (const prompt of PROMPTS)
      console.log(`    ${ms(median(byPrompt.get(prompt.query)!)).padStart(9)}  ${prompt.query}`);
    for (const topic of ['trading', 'accounts', 'candles'] as const)
      console.log(
        `  ${topic.padEnd(8)} p50 ${ms(percentile(byTopic[topic], 50))}, p95 ${ms(percentile(byTopic[topic], 95))} (n=${byTopic[topic].length})`,
      );
    console.log(
      `  all      p50 ${ms(percentile(all, 50))}, p95 ${ms(percentile(all, 95))}, max ${ms(Math.max(...all))} (n=${all.length})`,
    );
    return percentile(all, 50);
  } finally {
    await bench.close();
  }
}

interface Scenario {
  name: string;
  prompt: Prompt;
  replies: FakeReply[];
  stream: boolean;
}

async function overheadBench(sim: SimProcess) {
  heading(
    `(b) server overhead over a fake OpenAI server with ${FAKE_LATENCY_MS} ms latency, ${OVERHEAD_SAMPLES} samples per case`,
  );
  const fake: FakeLlmServer = await startFakeOpenAI({ latencyMs: FAKE_LATENCY_MS });
  const bench = await createBenchApp(
    {
      OANDA_PRACTICE_URL: sim.url,
      OANDA_LIVE_URL: 'http://127.0.0.1:9',
      OPENAI_API_KEY: 'sk-bench',
      OPENAI_BASE_URL: fake.url,
    },
    { llm: { maxRetries: 0 } },
  );
  // The baseline: the same SDK, the same fake, the bodies the server sent.
  const direct = new OpenAI({ apiKey: 'sk-bench', baseURL: fake.url, maxRetries: 0 });
  const replay = async (body: Record<string, unknown>) => {
    const params = body as unknown as ChatCompletionCreateParams;
    if (params.stream) {
      const stream = await direct.chat.completions.create({ ...params, stream: true });
      for await (const chunk of stream) void chunk;
    } else {
      await direct.chat.completions.create({ ...params, stream: false });
    }
  };

  const trading: Prompt = { topic: 'trading', query: 'What were my top 3 winners this month?' };
  const scenarios: Scenario[] = [
    {
      name: 'text answer, JSON',
      prompt: trading,
      stream: false,
      replies: [{ text: 'Your three best trades made 412.50 USD together.' }],
    },
    {
      name: 'one tool round (query_trades over the synced history), JSON',
      prompt: trading,
      stream: false,
      replies: [
        {
          toolCalls: [
            {
              name: 'query_trades',
              args: { state: 'closed', outcome: 'winners', sort: 'pl_desc', limit: 3, period: 'this_month' },
            },
          ],
        },
        { text: 'Your three best trades this month are listed below, from your last sync.' },
      ],
    },
    {
      name: 'text answer, streamed (SSE)',
      prompt: trading,
      stream: true,
      replies: [{ text: 'Your three best trades made 412.50 USD together.' }],
    },
  ];

  const results: Array<{ name: string; route: number[]; fake: number[]; overhead: number[] }> = [];
  try {
    let asker = await Asker.create(bench, sim, 'openai');
    const next = async () => {
      if (asker.budget <= 0) asker = await Asker.create(bench, sim, 'openai');
      return asker;
    };
    for (const scenario of scenarios) {
      const route: number[] = [];
      const fakeOnly: number[] = [];
      const overhead: number[] = [];
      let toolBytes = 0;
      for (let i = -3; i < OVERHEAD_SAMPLES; i++) {
        const who = await next();
        fake.reset();
        fake.enqueue(...scenario.replies);
        const answer = await who.ask(scenario.prompt, scenario.stream);
        if (answer.failed) throw new Error(`${scenario.name}: the answer failed: ${answer.text}`);
        const bodies = fake.requests.map((r) => r.body);
        toolBytes = (fake.requests.at(-1)?.messages ?? [])
          .filter((m) => m.role === 'tool')
          .reduce((n, m) => n + JSON.stringify(m.result).length, 0);
        if (bodies.length !== scenario.replies.length)
          throw new Error(`${scenario.name}: ${bodies.length} model requests, expected ${scenario.replies.length}`);
        fake.reset();
        fake.enqueue(...scenario.replies);
        const start = performance.now();
        for (const body of bodies) await replay(body);
        const baseline = performance.now() - start;
        if (i < 0) continue; // warm-up
        route.push(answer.ms);
        fakeOnly.push(baseline);
        overhead.push(answer.ms - baseline);
      }
      results.push({ name: scenario.name, route, fake: fakeOnly, overhead });
      console.log(`  ${scenario.name}:`);
      console.log(`    route end to end p50 ${ms(median(route))}, p95 ${ms(percentile(route, 95))}`);
      console.log(
        `    same requests straight to the fake p50 ${ms(median(fakeOnly))}, p95 ${ms(percentile(fakeOnly, 95))}`,
      );
      console.log(`    overhead (paired) p50 ${ms(median(overhead))}, p95 ${ms(percentile(overhead, 95))}`);
      if (toolBytes > 0)
        console.log(`    tool results sent back to the model: ${toolBytes.toLocaleString('en-US')} bytes`);
    }

    // Where a tool round's overhead goes: the same lookup without any model, by the built-in analyst of this app.
    const builtin = await Asker.create(bench, sim, 'gemini');
    await builtin.ask(trading);
    const analystMs: number[] = [];
    for (let i = 0; i < 10; i++) analystMs.push((await builtin.ask(trading)).ms);
    console.log(
      `  the same question answered by the built-in analyst (same query over the stored trades, no model): ` +
        `p50 ${ms(median(analystMs))}`,
    );
  } finally {
    await bench.close();
    await fake.close();
  }
  return results;
}

runBench(async () => {
  const sim = await startSimProcess({ accounts: 2, tradesPerAccount: 1_500 });
  console.log(`simulator pid ${sim.pid} at ${sim.url}: 2 accounts × 1500 trades`);
  try {
    const analystP50 = await analystBench(sim);
    const overhead = await overheadBench(sim);
    heading('goals');
    goal(
      'built-in analyst answer time p50',
      ms(analystP50),
      analystP50 <= GOAL_ANALYST_P50,
      `≤ ${GOAL_ANALYST_P50} ms`,
    );
    for (const r of overhead) {
      const p50 = median(r.overhead);
      goal(`server overhead p50, ${r.name}`, ms(p50), p50 <= GOAL_OVERHEAD_P50, `≤ ${GOAL_OVERHEAD_P50} ms`);
    }
  } finally {
    await sim.close();
  }
});
