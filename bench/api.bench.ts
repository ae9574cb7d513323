/*
 * "Fast API": the BUILT server (`apps/server/dist/server.js`, built first) in a child process with its own
 * data dir and a user holding 4,500 trades (the size of `npm run demo`), under autocannon (100 connections), beside
 * a bare Fastify hello-world from the project's own node_modules started next to it (bench/support/bare-fastify.mjs).
 * Goals, as ratios of req/s to the bare server's in the same run:
 *   trade list page (10 rows) ≥ 0.5 with p99 ≤ 25 ms, `/api/v1/auth/me` ≥ 0.6, `/healthz` ≥ 0.9;
 *   on PostgreSQL `/api/v1/auth/me` and the trade list also against a bare Fastify route doing one `pg` query (the
 *   same page of 10): ≥ 0.5 of it.
 * Then a fixed-rate run on the trade list (autocannon `overallRate`): zero errors, resident memory flat.
 * SQLite always; PostgreSQL when PIPSENSE_BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres) answers.
 *
 * Each route is measured in BENCH_API_ROUNDS (default 3) pairs with its yardstick, after BENCH_API_WARMUP_SECONDS
 * (default 3) of load on each URL; the median pair's ratio counts.
 * Env: BENCH_API_SECONDS (each run, default 5), BENCH_API_STEADY_SECONDS (fixed rate, default 60; 0 skips),
 * BENCH_API_RATE (req/s of the fixed-rate run, default 300), BENCH_API_LOG_LEVEL (the server's LOG_LEVEL, default
 * warn; `default` leaves it unset), BENCH_API_CPU_PROF (a directory: the server runs with --cpu-prof there),
 * BENCH_API_SKIP_BUILD=1 (use dist as it is), BENCH_API_SERVER_JS (another build's server.js, e.g. the code before a
 * change built apart, to compare; not built), BENCH_API_DIALECTS (e.g. `sqlite`), BENCH_API_ROUTES (of
 * `health,me,list`).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import pg from 'pg';
import autocannon from 'autocannon';
import { createDb } from '../apps/server/src/db/client';
import { seedAccount, seedTrades, userIdOf, type SeedTrade } from '../apps/server/src/test/seed-trades';
import { cpuMs, goal, heading, mb, runBench } from './support/stats';
import { repoRoot } from './support/sim-process';

const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);
const STEADY_SECONDS = Number(process.env.BENCH_API_STEADY_SECONDS ?? 60);
const RATE = Number(process.env.BENCH_API_RATE ?? 300);
const LOG_LEVEL = process.env.BENCH_API_LOG_LEVEL ?? 'warn';
const CPU_PROF = process.env.BENCH_API_CPU_PROF;
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 100);
const ROUNDS = Math.max(1, Number(process.env.BENCH_API_ROUNDS ?? 3));
/** Load before a URL's first measured run: on a busy machine a second is not enough for the JIT to settle. */
const WARMUP_SECONDS = Number(process.env.BENCH_API_WARMUP_SECONDS ?? 3);
const TRADES = 4_500;
const pgAdmin = process.env.PIPSENSE_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROUTES = (process.env.BENCH_API_ROUTES ?? 'health,me,list').split(',');
const dialects = (process.env.BENCH_API_DIALECTS ?? 'sqlite,postgres').split(',');
/** Another build to measure instead (e.g. the code before a change, built apart): nothing is built then. */
const SERVER_JS = process.env.BENCH_API_SERVER_JS ?? 'apps/server/dist/server.js';

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGTERM');
});

interface Child {
  port: number;
  pid: number;
  /** Lines the process wrote on stdout and stderr since it started listening (its log). */
  logLines: () => number;
  stop(): Promise<void>;
}

/** Starts `node args…` and waits until `ready(line)` returns a port. */
function startChild(args: string[], env: NodeJS.ProcessEnv, ready: (line: string) => number | undefined) {
  return new Promise<Child>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let lines = 0;
    let port: number | undefined;
    const tail: string[] = [];
    const onLine = (line: string) => {
      tail.push(line);
      if (tail.length > 20) tail.shift();
      if (port !== undefined) {
        lines += 1;
        return;
      }
      port = ready(line);
      if (port !== undefined)
        resolve({
          port,
          pid: child.pid!,
          logLines: () => lines,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    child.once('exit', (code) => {
      children.delete(child);
      if (port === undefined) reject(new Error(`${args.join(' ')} exited (${code}):\n${tail.join('\n')}`));
    });
  });
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** With LOG_LEVEL=warn the server says nothing when it listens: poll /healthz instead. */
async function startServer(dataDir: string, databaseUrl: string | undefined): Promise<Child> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    AUTH_RATE_LIMIT: '100000',
    EXCURSION_REQUESTS_PER_MINUTE: '0',
    WEB_DIST: join(dataDir, 'no-web'),
  };
  if (LOG_LEVEL !== 'default') env.LOG_LEVEL = LOG_LEVEL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const args = CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF] : [];
  const child = spawn(process.execPath, [...args, SERVER_JS], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let lines = 0;
  let output = '';
  const count = (chunk: Buffer) => {
    const text = chunk.toString();
    if (output.length < 4000) output += text;
    lines += text.split('\n').length - 1;
  };
  child.stdout.on('data', count);
  child.stderr.on('data', count);
  child.once('exit', () => children.delete(child));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error(`server did not answer /healthz:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const linesAtStart = lines;
  return {
    port,
    pid: child.pid!,
    logLines: () => lines - linesAtStart,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

function startBare(databaseUrl: string | undefined, sameOutput?: string): Promise<Child> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NODE_ENV: 'production' };
  if (databaseUrl) env.BARE_PG_URL = databaseUrl;
  if (sameOutput) env.BARE_SAME = sameOutput;
  return startChild(['bench/support/bare-fastify.mjs'], env, (line) => {
    try {
      return (JSON.parse(line) as { port?: number }).port;
    } catch {
      return undefined;
    }
  });
}

function rss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

interface Load {
  reqPerSec: number;
  /** CPU the serving process used per request, in µs (when its pid was given), and the user-space part of it. */
  cpuUs?: number;
  userUs?: number;
  p99: number;
  p50: number;
  errors: number;
  non2xx: number;
  requests: number;
}

async function load(url: string, headers: Record<string, string>, seconds: number, overallRate?: number) {
  const result = await autocannon({
    url,
    headers,
    connections: CONNECTIONS,
    duration: seconds,
    ...(overallRate ? { overallRate } : {}),
  });
  return {
    reqPerSec: result.requests.average,
    p99: result.latency.p99,
    p50: result.latency.p50,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  } satisfies Load;
}

/** Warm-up (unless told not to), then the measured run; with `pid`, the CPU that process used per request. */
async function measure(url: string, headers: Record<string, string> = {}, pid?: number, warm = true): Promise<Load> {
  if (warm) await load(url, headers, WARMUP_SECONDS);
  const before = pid === undefined ? undefined : cpuMs(pid);
  const result = await load(url, headers, SECONDS);
  if (pid === undefined || before === undefined || result.requests === 0) return result;
  const after = cpuMs(pid);
  const perRequest = (ms: number) => (ms * 1000) / result.requests;
  return {
    ...result,
    cpuUs: perRequest(after.user + after.system - before.user - before.system),
    userUs: perRequest(after.user - before.user),
  };
}

const fmt = (l: Load) =>
  `${l.reqPerSec.toFixed(0).padStart(6)} req/s  p50 ${l.p50.toFixed(1)} ms  p99 ${l.p99.toFixed(1)} ms` +
  (l.cpuUs === undefined ? '' : `  ${l.cpuUs.toFixed(0)} µs CPU a request (user ${l.userUs?.toFixed(0)})`) +
  (l.errors || l.non2xx ? `  errors ${l.errors} non-2xx ${l.non2xx}` : '');

/** 4,500 closed trades over about two years, P/L mixed (what `npm run demo` holds). */
function demoTrades(): SeedTrade[] {
  const start = Date.parse('2024-01-02T08:00:00Z');
  const instruments = ['EUR_USD', 'GBP_USD', 'USD_JPY', 'AUD_USD', 'EUR_GBP'];
  return Array.from({ length: TRADES }, (_, i) => {
    const open = start + i * 4 * 3600_000;
    const pl = ((i * 7919) % 400) - 180;
    return {
      id: String(1000 + i),
      instrument: instruments[i % instruments.length],
      units: i % 3 === 0 ? '-1000' : '1000',
      open: new Date(open).toISOString(),
      close: new Date(open + 90 * 60_000).toISOString(),
      pl: `${pl}.2500`,
      price: '1.10000',
      closePrice: '1.10100',
    };
  });
}

async function pgReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: pgAdmin, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function createPgDatabase() {
  const name = `pipsense_bench_api_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: pgAdmin });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(pgAdmin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: pgAdmin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function json(url: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const data = (await res.json()) as { token?: string; message?: string };
  if (!res.ok) throw new Error(`${url}: ${res.status} ${data.message}`);
  return data;
}

/** The bench's three routes as the yardstick's `/same/…` routes answer them (support/bare-fastify.mjs). */
const SAME_ROUTES = { health: '/healthz', me: '/api/v1/auth/me', list: '/api/v1/trade/get_trade_history?page=1' };
const SAME_PATHS = { health: '/same/healthz', me: '/same/me', list: '/same/list' };
/** Headers that belong to the connection or the moment, not to the answer. */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/**
 * What the app answers on the three routes (headers, and the bodies that do not depend on a read), for the yardstick.
 */
async function captureOutput(base: string, auth: Record<string, string>, dataDir: string, userId: string) {
  const answer = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers: auth });
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    const headers = Object.fromEntries([...res.headers].filter(([name]) => !PER_RESPONSE.has(name)));
    return { headers, body: Buffer.from(await res.arrayBuffer()) };
  };
  const [health, me, list] = await Promise.all(Object.values(SAME_ROUTES).map(answer));
  const file = join(dataDir, 'bare-same.json');
  writeFileSync(
    file,
    JSON.stringify({
      sqliteFile: join(dataDir, 'pipsense.db'),
      userId,
      health: { headers: health!.headers, body: health!.body.toString() },
      me: { headers: me!.headers },
      list: { headers: list!.headers, body: list!.body.toString('base64') },
    }),
  );
  return file;
}

/** The yardstick's `/same/…` answers carry the app's bytes and headers exactly (else the comparison means nothing). */
async function sameBytes(base: string, bareBase: string, auth: Record<string, string>) {
  for (const key of Object.keys(SAME_ROUTES) as Array<keyof typeof SAME_ROUTES>) {
    const [app, bare] = await Promise.all([
      fetch(`${base}${SAME_ROUTES[key]}`, { headers: auth }),
      fetch(`${bareBase}${SAME_PATHS[key]}`),
    ]);
    const strip = (h: Headers) => JSON.stringify([...h].filter(([name]) => !PER_RESPONSE.has(name)));
    const [a, b] = [Buffer.from(await app.arrayBuffer()), Buffer.from(await bare.arrayBuffer())];
    if (!a.equals(b) || strip(app.headers) !== strip(bare.headers))
      throw new Error(`the yardstick's ${SAME_PATHS[key]} does not answer what the app answers on ${SAME_ROUTES[key]}`);
  }
}

async function runDialect(dialect: 'sqlite' | 'postgres') {
  heading(
    `${dialect}: built server, ${TRADES} trades, ${CONNECTIONS} connections, ${SECONDS} s a route, LOG_LEVEL=${LOG_LEVEL}`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'pipsense-bench-api-'));
  const database = dialect === 'postgres' ? await createPgDatabase() : undefined;
  const server = await startServer(dataDir, database?.url);
  const base = `http://127.0.0.1:${server.port}`;
  try {
    const user = { username: 'benchapi', email: 'benchapi@example.com', password: 'bench-password-123' };
    await json(`${base}/api/v1/auth/register`, user);
    const { token } = await json(`${base}/api/v1/auth/login`, { username: user.username, password: user.password });
    const db = createDb({ dataDir, databaseUrl: database?.url });
    const userId = await userIdOf(db.kysely, user.username);
    const key = await seedAccount(db.kysely, userId, '101-001-0000001-001');
    await seedTrades(db.kysely, userId, key, demoTrades());
    await db.close();
    // As bench/list.bench.ts: the test server runs without autovacuum, and a never vacuumed table answers no
    // count from an index alone (a state autovacuum does not leave a table in use in).
    if (database) {
      const c = new pg.Client({ connectionString: database.url });
      await c.connect();
      await c.query('VACUUM ANALYZE');
      await c.end();
    }

    const auth = { authorization: `Bearer ${token}` };
    const listUrl = `${base}/api/v1/trade/get_trade_history?page=1`;
    const check = (await (await fetch(listUrl, { headers: auth })).json()) as { total: number; data: unknown[] };
    if (check.total !== TRADES || check.data.length !== 10)
      throw new Error(`trade list answered total ${check.total}, ${check.data.length} rows`);

    // On SQLite the yardstick also answers what the app answers (support/bare-fastify.mjs `/same/…`): the same headers
    // and bytes after the same database read, without the app's token check, hooks and validation. Information beside
    // the goals (which are against the hello-world): what the app's own pipeline costs over the work itself.
    const sameOutput = database ? undefined : await captureOutput(base, auth, dataDir, userId);
    const bare = await startBare(database?.url, sameOutput);
    const bareBase = `http://127.0.0.1:${bare.port}`;
    if (sameOutput) await sameBytes(base, bareBase, auth);
    try {
      const logBefore = server.logLines();
      // Pairs: the yardstick right before the route measured against it.
      // On a shared machine the yardstick itself swings by a factor of two within a run: each route is measured in
      // ROUNDS pairs, the route right after its yardstick, and the median pair's ratio counts (its route run gives
      // the latencies). The CPU each process used per request is printed beside: it moves far less with the load.
      const ratio = (a: Load, b: Load) => a.reqPerSec / b.reqPerSec;
      let served = 0;
      let failed = 0;
      const pair = async (
        name: string,
        url: string,
        headers: Record<string, string>,
        yardPath = '/hello',
        yardName = 'bare Fastify /hello',
      ) => {
        const pairs: Array<{ yard: Load; route: Load; ratio: number }> = [];
        for (let round = 0; round < ROUNDS; round += 1) {
          const yard = await measure(`${bareBase}${yardPath}`, {}, bare.pid, round === 0);
          const route = await measure(url, headers, server.pid, round === 0);
          console.log(`${yardName.padEnd(25)} ${fmt(yard)}`);
          console.log(`${name.padEnd(25)} ${fmt(route)}  ratio ${ratio(route, yard).toFixed(2)}`);
          served += route.requests;
          failed += route.errors + route.non2xx;
          pairs.push({ yard, route, ratio: ratio(route, yard) });
        }
        pairs.sort((a, b) => a.ratio - b.ratio);
        return pairs[Math.floor(pairs.length / 2)]!;
      };
      const health = ROUTES.includes('health') ? await pair('/healthz', `${base}/healthz`, {}) : undefined;
      const me = ROUTES.includes('me') ? await pair('/api/v1/auth/me', `${base}/api/v1/auth/me`, auth) : undefined;
      const list = ROUTES.includes('list') ? await pair('get_trade_history page 1', listUrl, auth) : undefined;
      // On PostgreSQL the database shares the cores: the routes that read it also against a bare route reading it.
      const pgPath = `/pg?user=${userId}`;
      const yardPg = 'bare Fastify + 1 pg query';
      const mePg =
        database && me ? await pair('/api/v1/auth/me', `${base}/api/v1/auth/me`, auth, pgPath, yardPg) : undefined;
      const listPg =
        database && list ? await pair('get_trade_history page 1', listUrl, auth, pgPath, yardPg) : undefined;
      const yardSame = 'bare, the same output';
      const sameOf = async (key: keyof typeof SAME_ROUTES, name: string, on: boolean) =>
        sameOutput && on ? pair(name, `${base}${SAME_ROUTES[key]}`, auth, SAME_PATHS[key], yardSame) : undefined;
      const same = {
        health: await sameOf('health', '/healthz', health !== undefined),
        me: await sameOf('me', '/api/v1/auth/me', me !== undefined),
        list: await sameOf('list', 'get_trade_history page 1', list !== undefined),
      };
      const logged = server.logLines() - logBefore;
      console.log(
        `server log lines during the runs: ${logged} (${(logged / Math.max(1, served)).toFixed(3)} a request)`,
      );

      goal(`${dialect} no errors or non-2xx`, String(failed), failed === 0, '0');
      if (health) goal(`${dialect} /healthz ÷ bare`, health.ratio.toFixed(2), health.ratio >= 0.9, '≥ 0.9');
      if (me) goal(`${dialect} /auth/me ÷ bare`, me.ratio.toFixed(2), me.ratio >= 0.6, '≥ 0.6');
      if (list) {
        goal(`${dialect} trade list ÷ bare`, list.ratio.toFixed(2), list.ratio >= 0.5, '≥ 0.5');
        goal(`${dialect} trade list p99`, `${list.route.p99.toFixed(1)} ms`, list.route.p99 <= 25, '≤ 25 ms');
      }
      for (const [key, result] of Object.entries(same))
        if (result)
          console.log(
            `info  ${dialect} ${SAME_ROUTES[key as keyof typeof SAME_ROUTES].split('?')[0]} ÷ bare with the same output: ` +
              `${result.ratio.toFixed(2)} (CPU a request ${result.route.cpuUs?.toFixed(0)} µs against ${result.yard.cpuUs?.toFixed(0)})`,
          );
      if (mePg) goal(`${dialect} /auth/me ÷ bare pg query`, mePg.ratio.toFixed(2), mePg.ratio >= 0.5, '≥ 0.5');
      if (listPg) goal(`${dialect} trade list ÷ bare pg query`, listPg.ratio.toFixed(2), listPg.ratio >= 0.5, '≥ 0.5');

      if (STEADY_SECONDS > 0) {
        const rssStart = rss(server.pid);
        const steady = await load(listUrl, auth, STEADY_SECONDS, RATE);
        const rssEnd = rss(server.pid);
        console.log(
          `fixed rate ${RATE} req/s for ${STEADY_SECONDS} s on the trade list: ${fmt(steady)}, ${steady.requests} requests; ` +
            `resident memory ${mb(rssStart)} → ${mb(rssEnd)}`,
        );
        goal(
          `${dialect} fixed rate errors`,
          String(steady.errors + steady.non2xx),
          steady.errors + steady.non2xx === 0,
          '0',
        );
        const growth = rssEnd - rssStart;
        goal(`${dialect} fixed rate memory growth`, mb(growth), growth <= 32 * 1024 * 1024, '≤ 32 MB (flat)');
      }
    } finally {
      await bare.stop();
    }
  } finally {
    await server.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench(async () => {
  if (process.env.BENCH_API_SKIP_BUILD !== '1' && !process.env.BENCH_API_SERVER_JS)
    execFileSync('node', ['apps/server/build.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  if (dialects.includes('sqlite')) await runDialect('sqlite');
  if (dialects.includes('postgres')) {
    if (await pgReachable()) await runDialect('postgres');
    else console.log(`\nPostgreSQL not reachable at ${pgAdmin}: skipped`);
  }
});
