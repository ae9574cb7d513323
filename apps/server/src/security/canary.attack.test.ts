import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '@pipsense/contract';
import { startFakeOpenAI, type FakeLlmServer } from '@pipsense/fake-llm';
import { startOandaSim, type OandaSim } from '@pipsense/oanda-sim';
import { createTestApp, type TestApp } from '../test/harness';
import { saveOanda, syncOanda } from '../test/oanda-user';
import { until } from '../test/until';
import { fillPath, routeRecorder, type ApiRoute } from './attack-support';

/*
 * A canary OANDA token (saved through the API) and a canary AI provider key (the server's OPENAI_API_KEY), both
 * really used (a sync against the OANDA simulator that accepts only that token, answers from a fake OpenAI that
 * accepts only that key, failures of both), never show in the SQLite files, the log at debug level, or any answer
 * of any route: body or headers.
 */

const OANDA_CANARY = 'oanda-CANARY-5b8d1e2f3a4c6b7d9e0f-TOKEN';
const LLM_CANARY = 'sk-CANARY-llm-7f3e9a1b2c4d5e6f8a9b-KEY';
/** The canaries, and a distinctive piece of each (a masked form such as `sk-****-KEY` keeps neither). */
const NEEDLES = [OANDA_CANARY, LLM_CANARY, 'CANARY-5b8d1e2f3a4c6b7d', 'CANARY-llm-7f3e9a1b2c4d5e6f'];

/** Where a needle shows in this text, in any of the encodings it could be stored or sent in. */
function sightings(where: string, bytes: Buffer): string[] {
  const found: string[] = [];
  for (const needle of NEEDLES)
    for (const [encoding, form] of [
      ['utf8', Buffer.from(needle, 'utf8')],
      ['utf16le', Buffer.from(needle, 'utf16le')],
      ['base64', Buffer.from(Buffer.from(needle).toString('base64').slice(0, 24))],
      ['hex', Buffer.from(Buffer.from(needle).toString('hex'))],
    ] as const)
      if (bytes.includes(form)) found.push(`${where}: ${needle} (${encoding})`);
  return found;
}

let sim: OandaSim;
let openai: FakeLlmServer;
let t: TestApp;
let routes: ApiRoute[];
const logLines: string[] = [];
const answers: { what: string; res: LightMyRequestResponse }[] = [];

/** A request as the canary user; every answer is kept for the final look. */
async function call(token: string, options: InjectOptions): Promise<LightMyRequestResponse> {
  const res = await t.call(token, options);
  answers.push({ what: `${options.method ?? 'GET'} ${options.url as string}`, res });
  return res;
}

beforeAll(async () => {
  [sim, openai] = await Promise.all([
    startOandaSim({ accounts: 2, tradesPerAccount: 20, historyDays: 20, seed: 13, tokens: { [OANDA_CANARY]: 'all' } }),
    startFakeOpenAI({ apiKey: LLM_CANARY }),
  ]);
  const recorder = routeRecorder();
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  t = await createTestApp(
    { OANDA_PRACTICE_URL: sim.url, OPENAI_API_KEY: LLM_CANARY, OPENAI_BASE_URL: openai.url, LOG_LEVEL: 'debug' },
    {
      logger: true,
      logStream: stream,
      onRoute: recorder.onRoute,
      llm: { maxRetries: 0, timeoutMs: 10_000 },
      oanda: { retries: 0 },
    },
  );
  routes = recorder.routes();
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([sim?.close(), openai?.close()]);
});

describe('canary secrets', () => {
  it('are used, and never show in the database files, the debug log or any answer', async () => {
    const u = await t.user('canary');
    const api = t.api(u.token);
    await saveOanda(api, { ai: 'openai', oanda: { accessToken: OANDA_CANARY } });
    await syncOanda(api);
    // The simulator saw the canary token: the sync really used it.
    const trades = await call(u.token, { method: 'GET', url: '/api/v1/trade/get_trade_history?limit=5' });
    expect(trades.json<{ total: number }>().total).toBeGreaterThan(0);
    await call(u.token, { method: 'GET', url: '/api/v1/trade/sync_trade?full=true' });
    await call(u.token, { method: 'GET', url: '/api/v1/account/sync_account' });
    await call(u.token, { method: 'GET', url: '/api/v1/trade/candles?instrument=EUR_USD&granularity=M5&count=20' });

    // An answer from the fake OpenAI, which accepts only the canary key; then streamed; then with the key refused.
    const chat = (
      await call(u.token, {
        method: 'POST',
        url: '/api/v1/chat/create_chat',
        payload: { title: 'Canary', topic: 'trading' },
      })
    ).json<{ data: Chat }>().data;
    const ask = (headers: Record<string, string> = {}) =>
      call(u.token, {
        method: 'POST',
        url: '/api/v1/query/oanda/trade',
        payload: { query: 'How did my EUR/USD trades do?', chatId: chat._id, mode: 'demo' },
        headers,
      });
    openai.reset();
    const answered = await ask();
    expect(answered.statusCode, answered.body).toBe(200);
    expect(openai.requests.length).toBeGreaterThan(0);
    expect(openai.requests[0]!.headers.authorization).toBe(`Bearer ${LLM_CANARY}`);
    expect((await ask({ accept: 'text/event-stream' })).statusCode).toBe(200);
    openai.enqueue({ error: 'invalid_api_key' });
    await ask();
    openai.enqueue({ error: 'server_error' });
    await ask({ accept: 'text/event-stream' });

    // OANDA failing: limiting, erroring, cutting the answer.
    sim.faults.fail(1, 429, { retryAfter: 1 });
    await call(u.token, { method: 'GET', url: '/api/v1/account/sync_account' });
    sim.faults.fail(1, 500);
    await call(u.token, { method: 'GET', url: '/api/v1/trade/sync_trade' });
    sim.faults.cut(1);
    await call(u.token, { method: 'GET', url: '/api/v1/trade/candles?instrument=EUR_USD&granularity=M5&count=20' });
    sim.faults.reset();

    // The overview (its insights ask the provider too), then every route of the app.
    // The second and later views answer with what the provider wrote once it has finished.
    const insightsWritten = async () => {
      const view = await call(u.token, { method: 'GET', url: '/api/v1/dashboard/metrics' });
      return view.json<{ data: { insights: { status: string } } }>().data.insights.status !== 'pending';
    };
    await call(u.token, { method: 'GET', url: '/api/v1/dashboard/metrics' });
    await until(insightsWritten, 'the insights to be written', { ms: 20_000, everyMs: 25 });
    // The routes that end the session come last (below), so that the others run signed in.
    const endsSession = (url: string) => url === '/api/v1/auth/logout' || url === '/api/v1/auth/logout_all';
    for (const route of routes.filter((r) => !endsSession(r.url)))
      await call(u.token, {
        method: route.method,
        url: fillPath(route.url),
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
    await call(u.token, { method: 'GET', url: '/api/v1/account/get_info' });
    await call(u.token, { method: 'GET', url: '/api/v1/trade/export_trades' });

    // The token was stored (settings report it as set, masked), so the database had the chance to hold it.
    const info = await call(u.token, { method: 'GET', url: '/api/v1/account/get_info' });
    expect(info.json<{ data: { oanda: { accessToken: string } } }>().data.oanda.accessToken).not.toBe('');
    for (const route of routes.filter((r) => endsSession(r.url)))
      await call(u.token, { method: route.method, url: route.url });

    // The search finds a canary where one is (the provider's request, as the fake received it).
    expect(sightings('control', Buffer.from(JSON.stringify(openai.requests[0]!.headers))).length).toBeGreaterThan(0);

    const found: string[] = [];
    // The files as they are while the app runs (the WAL holds the latest writes), then after it closed.
    const searchFiles = (when: string) => {
      const files = readdirSync(t.dataDir).filter((name) => statSync(join(t.dataDir, name)).isFile());
      for (const name of files) found.push(...sightings(`${when}: file ${name}`, readFileSync(join(t.dataDir, name))));
      return files;
    };
    const running = searchFiles('running');
    expect(running).toContain('pipsense.db-wal');
    await t.app.close();
    for (const { what, res } of answers) {
      found.push(...sightings(`${what} body`, res.rawPayload));
      found.push(...sightings(`${what} headers`, Buffer.from(JSON.stringify(res.headers))));
    }
    found.push(...sightings('log', Buffer.from(logLines.join(''))));
    const closed = searchFiles('closed');
    expect(closed).toContain('pipsense.db');
    console.info(
      `canary: ${answers.length} answers, ${logLines.length} log lines, files ${[...new Set([...running, ...closed])].join(', ')} searched`,
    );
    expect(found).toEqual([]);
    // The log did run at debug level (OANDA requests) and saw the failures (warn and error lines).
    expect(logLines.some((line) => line.includes('"level":20'))).toBe(true);
    expect(logLines.some((line) => line.includes('"level":50'))).toBe(true);
  }, 120_000);
});
