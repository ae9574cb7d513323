import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEMO_TOKEN, startOandaSim, type OandaSim } from '@pipsense/oanda-sim';
import { startFakeOpenAI, startFakeVertex } from '@pipsense/fake-llm';
import { startSmtp } from '../../apps/server/src/test/smtp';
import { startSimControl } from './sim-control';
import { repoRoot, stackFactsPath, type SimFacts, type StackFacts } from './stack-facts';

/**
 * The app as users run it (the built server and web app) for one e2e run, wired to an OANDA simulator per mode and
 * to fake OpenAI and Vertex AI servers and to a real SMTP server on loopback (the mails it receives are read through
 * the control endpoints), with a fresh data dir. The facts a spec needs (tokens, account ids, URLs)
 * go to .test-results/e2e-stack-<port>.json.
 */
const port = process.env.E2E_PORT ?? '3210';
const TMP_PREFIX = 'pipsense-e2e-';
const OWNER_FILE = 'stack.pid';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Playwright ends the webServer with SIGKILL unless the config asks for a graceful shutdown, so a run may leave its
 * data dir behind: remove those whose stack process is gone (never another live run's).
 */
function sweepStaleDataDirs(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(TMP_PREFIX)) continue;
    const dir = join(tmpdir(), name);
    let owner: number;
    try {
      owner = Number(readFileSync(join(dir, OWNER_FILE), 'utf8'));
    } catch {
      continue;
    }
    if (Number.isInteger(owner) && owner > 0 && !alive(owner)) rmSync(dir, { recursive: true, force: true });
  }
}

/** The simulator's facts as its default token sees them (the planted and scratch accounts are other tokens'). */
function simFacts(sim: OandaSim): SimFacts {
  const seen = new Set(sim.tokens[sim.token]);
  return {
    url: sim.url,
    environment: sim.environment,
    token: sim.token,
    accounts: sim.state.accounts
      .filter((a) => seen.has(a.id))
      .map((a) => ({ ...a, trades: sim.state.trades(a.id).length })),
  };
}

function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, text);
  renameSync(partial, path);
}

sweepStaleDataDirs();
const dataDir = mkdtempSync(join(tmpdir(), TMP_PREFIX));
// 0600 like every file of a DATA_DIR, or the server's start would tighten it and warn (lib/data-dir.ts).
writeFileSync(join(dataDir, OWNER_FILE), String(process.pid), { mode: 0o600 });
const factsPath = stackFactsPath(port);

// The simulators' clocks: real time, except while a spec plants trades at past times (sim-control.ts, /plant).
const clocks: Record<'practice' | 'live', { at: number | null }> = { practice: { at: null }, live: { at: null } };
/** A third practice account with no generated trades, seen only by its own token: a book a spec plants (coach). */
const PLANT_TOKEN = 'e2e-plant-0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e-6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c';
/**
 * A fourth, seen only by its own token: a spec that trades on the simulator now (rules) does it here, so the shared
 * book keeps only generated trades. A trade placed while the market is closed (the simulator fills it at the last
 * open price) has no candles around it, and the trading spec opens the newest trade's chart.
 */
const SCRATCH_TOKEN = 'e2e-scratch-1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f-7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d';

// Small books so a sync takes well under a second: two practice accounts (30 pages of trades between them) and
// one live account, each mode with its own token so a token saved for the wrong mode is rejected.
const [practice, live, openai, vertex, smtp] = await Promise.all([
  startOandaSim({
    environment: 'practice',
    seed: 42,
    accounts: [{}, {}, { alias: 'Planted', trades: 0 }, { alias: 'Scratch', trades: 0 }],
    tradesPerAccount: 150,
    tokens: { [DEMO_TOKEN]: [0, 1], [PLANT_TOKEN]: [2], [SCRATCH_TOKEN]: [3] },
    now: () => clocks.practice.at ?? Date.now(),
  }),
  startOandaSim({
    environment: 'live',
    seed: 7,
    accounts: 1,
    tradesPerAccount: 60,
    now: () => clocks.live.at ?? Date.now(),
  }),
  startFakeOpenAI({}),
  startFakeVertex({}),
  startSmtp(),
]);
const control = await startSimControl({ practice, live }, smtp, clocks);

const facts: StackFacts = {
  baseURL: `http://127.0.0.1:${port}`,
  controlUrl: control.url,
  practice: simFacts(practice),
  live: simFacts(live),
  planted: { token: PLANT_TOKEN, accountId: practice.tokens[PLANT_TOKEN]![0]! },
  scratch: { token: SCRATCH_TOKEN, accountId: practice.tokens[SCRATCH_TOKEN]![0]! },
  openaiUrl: openai.url,
  vertexUrl: vertex.url,
  pid: process.pid,
};
writeAtomically(factsPath, `${JSON.stringify(facts, null, 2)}\n`);

const server: ChildProcess = spawn(process.execPath, [join(repoRoot, 'apps/server/dist/server.js')], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    JWT_TTL: '1h',
    // The specs sync by hand and count provider calls per data version; the scheduler has its own tests
    // (modules/sync-jobs), and a tick in the middle of a spec would re-sync live valuations under it.
    BACKGROUND_SYNC: 'off',
    // Every spec registers and signs in fresh users from one address.
    AUTH_RATE_LIMIT: '1000',
    CHECK_RATE_LIMIT: '1000',
    OANDA_PRACTICE_URL: practice.url,
    OANDA_LIVE_URL: live.url,
    OPENAI_BASE_URL: openai.url,
    OPENAI_API_KEY: 'sk-e2e-fake-openai-key',
    VERTEX_BASE_URL: vertex.url,
    VERTEX_API_KEY: 'e2e-fake-vertex-key',
    // Confirmation and reset links point at this server; the mails go to the loopback SMTP server.
    SMTP_URL: smtp.url,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  },
});

let stopping = false;
async function stop(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    server.kill('SIGTERM');
    const forced = setTimeout(() => server.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(forced);
  }
  await Promise.allSettled([
    practice.close(),
    live.close(),
    openai.close(),
    vertex.close(),
    smtp.close(),
    control.close(),
  ]);
  rmSync(factsPath, { force: true });
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(exitCode);
}

process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
server.on('exit', (code, signal) => {
  if (stopping) return;
  console.error(`e2e stack: the PipSense server exited (${signal ?? `code ${code}`})`);
  void stop(code ?? 1);
});
