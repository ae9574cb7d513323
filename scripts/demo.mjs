// `npm run demo [-- --ai] [--port 3000] [--reset]`: PipSense offline with a full book. Starts the OANDA v20
// simulator (practice and live), the built app wired to it with its own data dir, a ready demo user whose OANDA
// accounts and trades are synced through the real API, and optionally a fake OpenAI server for the chat.
// A dev tool: the simulator and the fake run from their TypeScript sources through tsx.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { tsImport } from 'tsx/esm/api';
import { buildIfStale, root } from './build-if-stale.mjs';

const USAGE = `Usage: npm run demo [-- options]
  --port <n>       PipSense port (default $PORT or 3000)
  --host <addr>    interface to listen on (default $HOST or 127.0.0.1)
  --data-dir <d>   the demo's data dir (default data/demo; kept between runs, always SQLite)
  --reset          delete the demo's data dir first: a fresh database, demo user and trade history
  --ai             also start a fake OpenAI server, so the AI chat answers through a provider offline
  --help`;

// Registration rules: username 3–32 of [A-Za-z0-9._-], password 8–128 characters.
const DEMO_USER = { username: 'demo', email: 'demo@example.com', password: 'demo-password-123' };

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'data-dir': { type: 'string' },
    reset: { type: 'boolean' },
    ai: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const port = Number(values.port ?? process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  console.error(`--port must be a port number, got ${values.port ?? process.env.PORT}`);
  process.exit(2);
}
const host = values.host ?? process.env.HOST ?? '127.0.0.1';
const dataDir = resolve(root, values['data-dir'] ?? 'data/demo');
const apiBase = `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`;
const shownUrl = `http://${host === '127.0.0.1' || host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;

const cleanups = [];
let server;
let stopping = false;

async function stop(code) {
  if (stopping) return;
  stopping = true;
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((done) => server.once('exit', done));
    server.kill('SIGTERM');
    const forced = setTimeout(() => server.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(forced);
  }
  await Promise.allSettled(cleanups.map((close) => close()));
  process.exit(code);
}
process.on('SIGINT', () => {
  console.log('\nStopping the demo…');
  void stop(0);
});
process.on('SIGTERM', () => void stop(0));

/** A PipSense API call; returns the parsed body and the status, never throws on a non-200. */
async function api(method, path, { token, body } = {}) {
  const res = await fetch(`${apiBase}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  let json;
  try {
    json = await res.json();
  } catch {
    json = {};
  }
  return { status: res.status, body: json };
}

async function must(method, path, options) {
  const { status, body } = await api(method, path, options);
  if (status !== 200) throw new Error(`${method} ${path} failed (${status}): ${body.message ?? 'no message'}`);
  return body;
}

/**
 * The instant the simulated history ends. The simulator writes its history up to the first reading of its clock,
 * so a fresh instant on every run would replace the whole book and leave the demo user's stored trades pointing at
 * trades OANDA no longer has. The instant is kept in the data dir: every run serves the same book, and the clock
 * then runs on in real time (prices, valuations and candles up to now).
 */
function historyEnd() {
  const file = join(dataDir, 'demo-sim.json');
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    if (Number.isFinite(saved.historyEnd) && saved.historyEnd <= Date.now()) return saved.historyEnd;
  } catch {
    // First run (or an unreadable file): start the history now.
  }
  const now = Date.now();
  writeFileSync(file, `${JSON.stringify({ historyEnd: now })}\n`);
  return now;
}

/** A simulator clock whose first reading is `end` and every later one the real time. */
function clockFrom(end) {
  let first = true;
  return () => {
    if (!first) return Date.now();
    first = false;
    return end;
  };
}

async function waitForHealth(timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`PipSense exited during start-up (code ${server.exitCode}).`);
    try {
      const res = await fetch(`${apiBase}/healthz`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`PipSense did not answer on ${apiBase} within ${timeoutMs / 1000} s.`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

/** Signs the demo user in, registering it on the first run (the data dir keeps it for the next ones). */
async function demoSession() {
  const login = () => api('POST', '/api/v1/auth/login', { body: DEMO_USER });
  let res = await login();
  if (res.status === 401) {
    const registered = await api('POST', '/api/v1/auth/register', { body: DEMO_USER });
    if (registered.status !== 200) {
      throw new Error(
        `Could not create the demo user: ${registered.body.message ?? registered.status}. ` +
          'If its password was changed, run `npm run demo -- --reset` to start over.',
      );
    }
    res = await login();
  }
  if (res.status !== 200) throw new Error(`Could not sign the demo user in: ${res.body.message ?? res.status}`);
  return res.body.token;
}

/**
 * A MetaTrader 5 account beside the OANDA ones: a generated Trade History Report (UTF-16 HTML, as the terminal
 * writes it) uploaded and confirmed through the import API, as a trader would. The same report every run, so later
 * runs find every trade unchanged.
 */
async function importMetaTrader(token) {
  const { mt5Report, encodeUtf16le } = await tsImport('../apps/server/src/test/metatrader-reports.ts', import.meta.url);
  const report = mt5Report({
    positions: 600,
    seed: 42,
    account: '50912345',
    name: 'Demo Trader',
    server: 'Synthetic-Demo',
  });
  const form = new FormData();
  form.append('serverUtcOffset', '+02:00');
  form.append('file', new Blob([encodeUtf16le(report.html)]), 'ReportHistory-50912345.html');
  const res = await fetch(`${apiBase}/api/v1/import/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  const uploaded = await res.json();
  if (res.status !== 200) throw new Error(`MetaTrader import failed (${res.status}): ${uploaded.message}`);
  const confirmed = await must('POST', `/api/v1/import/confirm/${uploaded.importId}`, {
    token,
    body: { mode: 'demo' },
  });
  return `account ${uploaded.preview.account.number} imported from a generated MT5 report: ${confirmed.message}`;
}

async function main() {
  buildIfStale();
  if (values.reset) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });

  const { startOandaSim } = await tsImport('@pipsense/oanda-sim', import.meta.url);
  // The default book (several accounts, thousands of trades) for practice; a smaller live one so Live mode works too.
  const end = historyEnd();
  const [practice, live] = await Promise.all([
    startOandaSim({ environment: 'practice', now: clockFrom(end) }),
    startOandaSim({ environment: 'live', seed: 7, accounts: 1, tradesPerAccount: 400, now: clockFrom(end) }),
  ]);
  cleanups.push(
    () => practice.close(),
    () => live.close(),
  );

  let openai;
  if (values.ai) {
    const { startFakeOpenAI } = await tsImport('@pipsense/fake-llm', import.meta.url);
    openai = await startFakeOpenAI({ chunkDelayMs: 15 });
    cleanups.push(() => openai.close());
  }

  server = spawn(process.execPath, [resolve(root, 'apps/server/dist/server.js')], {
    cwd: root,
    stdio: 'inherit',
    env: {
      // The demo keeps everything in its own data dir: no shared PostgreSQL or Redis from the caller's shell.
      ...Object.fromEntries(
        Object.entries(process.env).filter(([key]) => key !== 'DATABASE_URL' && key !== 'REDIS_URL'),
      ),
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: host,
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      OANDA_PRACTICE_URL: practice.url,
      OANDA_LIVE_URL: live.url,
      ...(openai ? { OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: 'demo-fake-openai-key' } : {}),
    },
  });
  server.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`PipSense stopped (${signal ?? `exit code ${code}`}).`);
    void stop(code || 1);
  });
  await waitForHealth(30_000);

  const token = await demoSession();
  const { data: info } = await must('GET', '/api/v1/account/get_info', { token });
  await must('POST', '/api/v1/account/update_info', {
    token,
    body: {
      ...info,
      default_trading_platfrom: 'OANDA',
      ...(openai ? { default_ai_platfrom: 'openai' } : {}),
      oanda: { accessToken: practice.token, accountId: '', mode: 'demo' },
    },
  });
  const accounts = await must('GET', '/api/v1/account/sync_account', { token });
  // First run: the whole history; later runs: only what changed (the same book, so nothing new unless traded).
  const trades = await must('GET', '/api/v1/trade/sync_trade', { token });
  const metatrader = await importMetaTrader(token);

  const inRepo = relative(root, dataDir);
  const shownDataDir = inRepo && !inRepo.startsWith('..') ? inRepo : dataDir;
  const lines = [
    '',
    `PipSense demo is ready: open ${shownUrl}`,
    `  Sign in as:  ${DEMO_USER.username} / ${DEMO_USER.password}`,
    `  Synced:      ${accounts.message}; ${trades.message}`,
    `  OANDA (practice, the demo user's mode): ${practice.url}`,
    ...practice.state.accounts.map((a) => `      ${a.id}  ${a.alias} (${a.currency})`),
    `      token ${practice.token}`,
    `  MetaTrader:  ${metatrader} (pick MetaTrader in the Overview, Trades or Accounts dropdown)`,
    `  OANDA (live, for Settings → Trading Platforms → Live): ${live.url}`,
    `      token ${live.token}`,
    openai
      ? `  AI chat:     fake OpenAI at ${openai.url} (the demo user's default AI platform)`
      : '  AI chat:     the built-in analyst (run with --ai for a fake OpenAI provider)',
    `  Data:        ${shownDataDir} (kept between runs; --reset starts over)`,
    `  History:     simulated up to ${new Date(end).toISOString()}; prices move on from there in real time`,
    '',
    'Ctrl+C stops everything.',
  ];
  console.log(lines.join('\n'));
}

main().catch((error) => {
  console.error(`\nThe demo could not start: ${error instanceof Error ? error.message : String(error)}`);
  void stop(1);
});
