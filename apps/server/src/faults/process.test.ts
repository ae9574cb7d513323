import { spawnSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '@pipsense/contract';
import { startFakeOpenAI } from '@pipsense/fake-llm';
import { startOandaSim, type OandaSim } from '@pipsense/oanda-sim';
import { createTestApp } from '../test/harness';
import { saveOanda } from '../test/oanda-user';
import { mulberry32 } from '../test/metatrader-reports';
import { simBook, storedBook, storedTrades } from '../test/sim-book';
import {
  buildServerBundle,
  registerUser,
  spawnNode,
  spawnServer,
  startServer,
  tempDataDir,
  type NodeProcess,
  type ServerBundle,
} from './server-process';
import { until } from '../test/until';

/** Within the tests' own time limits, checking every 10 ms. */
const patiently = { ms: 60_000, everyMs: 10 };

/*
 * Faults of the server process itself, on the real bundled server in a child process: killed in the middle of a
 * sync, stopped while answering, started twice on one data directory.
 */

const NOW = Date.UTC(2025, 9, 3, 14, 30);
let bundle: ServerBundle;
const cleanup: Array<() => unknown> = [];

beforeAll(async () => {
  bundle = await buildServerBundle(['faults/sync-child.ts']);
}, 120_000);
afterAll(() => bundle?.remove());
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function sim(accounts: number, tradesPerAccount: number): Promise<OandaSim> {
  const s = await startOandaSim({ accounts, tradesPerAccount, now: () => NOW, seed: 12 });
  cleanup.push(() => s.close());
  return s;
}

function dataDir(): string {
  const d = tempDataDir();
  cleanup.push(d.remove);
  return d.dir;
}

async function server(dir: string, env: Record<string, string> = {}) {
  const p = await startServer(bundle, { DATA_DIR: dir, ...env });
  cleanup.push(async () => {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await p.exited;
  });
  return p;
}

describe('two processes on one SQLite data directory', () => {
  it('the second refuses with a clear message and the first keeps serving', async () => {
    const dir = dataDir();
    const first = await server(dir);
    const second = spawnServer(bundle, { DATA_DIR: dir });
    cleanup.push(() => second.child.kill('SIGKILL'));
    expect(await second.exited).toEqual({ code: 1, signal: null });
    expect(second.output()).toContain(`Another PipSense server (pid ${first.child.pid} on `);
    expect(second.output()).toContain(`is already using the data directory ${dir}.`);
    expect(second.output()).toContain('set DATABASE_URL (PostgreSQL) to run several instances');
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);

    // A holder that dies without a word (SIGKILL) leaves no stale lock behind.
    first.child.kill('SIGKILL');
    await first.exited;
    const third = await server(dir);
    expect((await fetch(`${third.url}/healthz`)).status).toBe(200);
  });
});

describe('SIGTERM while requests are in flight', () => {
  it('finishes the requests in flight (a sync, a streamed answer), answers them completely, then exits 0', async () => {
    const s = await sim(1, 400);
    const openai = await startFakeOpenAI();
    cleanup.push(() => openai.close());
    const p = await server(dataDir(), {
      OANDA_PRACTICE_URL: s.url,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openai.url,
    });
    const token = await registerUser(p.url, 'sigterm');
    const call = p.api(token);
    await saveOanda(call, { ai: 'openai', oanda: { accessToken: s.token } });
    const created = await call({
      method: 'POST',
      path: '/api/v1/chat/create_chat',
      body: { title: 'Shutdown', topic: 'trading' },
    });
    const chat = (JSON.parse(created.text) as { data: Chat }).data;

    // Every trades page takes 400 ms at the broker, and the answer streams a word every 60 ms: both are mid-way
    // when the signal comes.
    s.faults.delay(400, { match: '/trades' });
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    openai.enqueue({ text: words, chunkDelayMs: 60 });
    const sync = call({ method: 'GET', path: '/api/v1/trade/sync_trade' });
    const streamed = fetch(`${p.url}/api/v1/query/oanda/trade`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'Tell me a story', chatId: chat._id, mode: 'demo' }),
    }).then((res) => res.text());
    // Awaited below; until then a failure elsewhere must not leave them unhandled.
    sync.catch(() => undefined);
    streamed.catch(() => undefined);
    // Both under way: the broker asked for trades, the model asked for the answer.
    await until(
      () => s.requestLog.some((r) => r.path.endsWith('/trades')) && openai.requests.length === 1,
      'the sync and the answer under way',
      patiently,
    );
    p.child.kill('SIGTERM');

    const res = await sync;
    expect(res.status, res.text).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({
      message: 'Synced 400 trades from 1 account: 400 new, 0 updated',
    });
    const events = (await streamed).trim().split('\n\n');
    const done = events.at(-1)!;
    expect(done).toMatch(/^event: done\n/);
    expect(JSON.parse(done.slice(done.indexOf('data: ') + 6))).toMatchObject({
      data: { failed: false, content: words },
    });
    expect(await p.exited, p.output()).toEqual({ code: 0, signal: null });
    expect(p.output()).toContain('SIGTERM received, closing');
  });
});

/** Resolves once the sync child has opened the database and begins the sync. */
async function started(p: NodeProcess): Promise<void> {
  await until(
    () => {
      if (p.child.exitCode !== null) throw new Error(`the sync process ended before syncing:\n${p.output()}`);
      return p.output().includes('sync started');
    },
    'the sync child to start',
    patiently,
  );
}

describe('a sync killed at random points', () => {
  it("20 kills, then a run to the end: exactly the broker's trades", async () => {
    const s = await sim(2, 1500);
    const dir = dataDir();
    const t = await createTestApp({ DATA_DIR: dir, OANDA_PRACTICE_URL: s.url });
    cleanup.push(() => t.close());
    const u = await t.oandaUser({ oanda: { accessToken: s.token }, sync: 'none' });
    const userId = (JSON.parse(Buffer.from(u.token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;
    const syncProcess = (into = dir) =>
      spawnNode(bundle.file('faults/sync-child.ts'), {
        DATA_DIR: into,
        OANDA_PRACTICE_URL: s.url,
        SYNC_USER_ID: userId,
      });

    // How long a whole first sync takes here, on a copy of the data directory: the kills fall within it.
    const scratch = dataDir();
    // Copied by another process: SQLite's locks are POSIX locks, and a close() of any descriptor of the database's
    // files in this process (cpSync's) would drop the test app's locks on them, letting a sync child checkpoint the
    // WAL under the app's reads ("database disk image is malformed"; sqlite.org/howtocorrupt.html, 2.2).
    const copied = spawnSync('cp', ['-R', `${dir}/.`, scratch]);
    expect(copied.status, copied.stderr.toString()).toBe(0);
    const trial = syncProcess(scratch);
    await started(trial);
    const began = performance.now();
    expect(await trial.exited, trial.output()).toEqual({ code: 0, signal: null });
    const syncMs = performance.now() - began;

    const random = mulberry32(20251125);
    const killedAt: number[] = [];
    for (let round = 0; round < 20; round += 1) {
      // The broker moves between runs (a trade opened, one closed), so that no run is a plain repeat.
      if (round % 4 === 3) {
        const id = s.accountIds[round % 2]!;
        s.openTrade(id, { instrument: 'EUR_USD', units: 1000 + round });
        s.closeTrade(id, s.state.trades(id, 'OPEN')[0]!.id);
      }
      const child = syncProcess();
      await started(child);
      // Within the first half of a whole sync's time: once a run has finished, the next ones are short incremental
      // syncs, and a kill late in a whole sync's time would mostly come after them.
      const after = Math.floor(random() * (syncMs / 2));
      await new Promise((resolve) => setTimeout(resolve, after));
      child.child.kill('SIGKILL');
      const { signal } = await child.exited;
      if (signal === 'SIGKILL') killedAt.push(after);
    }

    const last = syncProcess();
    expect(await last.exited, last.output()).toEqual({ code: 0, signal: null });
    const stored = await storedTrades(t.api(u.token));
    const broker = simBook(s);
    expect(stored).toHaveLength(broker.length);
    expect(storedBook(stored)).toEqual(broker);
    // Most runs were killed mid-way; the rest (short follow-up syncs) had finished before their kill.
    expect(killedAt.length).toBeGreaterThanOrEqual(6);
  }, 240_000);
});
