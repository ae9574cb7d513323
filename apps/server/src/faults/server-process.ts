import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { httpApi, type ApiCall } from '../test/oanda-user';

/*
 * The real server as a child process, for the fault tests that need a process of its own (SIGKILL, SIGTERM, two
 * processes on one data directory). The server is bundled once per test file the way `npm run build` does it
 * (apps/server/build.mjs) into a throw-away folder under apps/server/dist, where the bundle's imports find
 * node_modules: it starts in well under a second, where the TypeScript sources through tsx take many.
 */

const serverRoot = new URL('../../', import.meta.url);

export interface ServerBundle {
  /** dist's server.js. */
  readonly entry: string;
  /** The bundle of src/<entry>.ts, for entries asked for beside the server. */
  file(entry: string): string;
  remove(): void;
}

/** Bundles the server, and `extra` entries (paths under src) beside it. */
export async function buildServerBundle(extra: string[] = []): Promise<ServerBundle> {
  const dir = join(serverRoot.pathname, 'dist', `faults-${process.pid}-${Date.now()}`);
  const { buildServer } = (await import(pathToFileURL(join(serverRoot.pathname, 'build.mjs')).href)) as {
    buildServer: (outDir: string, entries: string[]) => Promise<void>;
  };
  await buildServer(dir, ['server.ts', ...extra]);
  return {
    entry: join(dir, 'server.js'),
    file: (entry) => join(dir, basename(entry).replace(/\.ts$/, '.js')),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface ServerProcess {
  readonly child: ChildProcess;
  /** http://127.0.0.1:port, once listening. */
  readonly url: string;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null when ended by a signal) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The API as a signed-in user, over HTTP. */
  api(token: string): ApiCall;
}

export function tempDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'pipsense-faults-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface NodeProcess {
  readonly child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  readonly exited: ServerProcess['exited'];
  /** Resolves with the URL once the output says the server listens; rejects if the process ends first. */
  readonly listening: Promise<string>;
}

/** Spawns the bundled server on a free port, without waiting. */
export const spawnServer = (bundle: ServerBundle, env: Record<string, string>) => spawnNode(bundle.entry, env);

/** Runs a bundled script (the server or another entry) with the server's environment plus `env`. */
export function spawnNode(script: string, env: Record<string, string>): NodeProcess {
  const child = spawn(process.execPath, [script], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      BACKGROUND_SYNC: 'off',
      EXCURSION_REQUESTS_PER_MINUTE: '0',
      AUTH_RATE_LIMIT: '1000',
      ...env,
    },
  });
  let text = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (match) resolve(match[1]!);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(({ code, signal }) =>
      reject(new Error(`the server ended before listening (${signal ?? `exit code ${code}`}):\n${text}`)),
    );
  });
  listening.catch(() => undefined);
  return { child, output: () => text, exited, listening };
}

/** Starts the bundled server and waits until it listens. */
export async function startServer(bundle: ServerBundle, env: Record<string, string>): Promise<ServerProcess> {
  const spawned = spawnServer(bundle, env);
  const url = await spawned.listening;
  return { ...spawned, url, api: (token) => httpApi(url, token) };
}

/** Registers a user over HTTP and signs it in; returns the session token. */
export async function registerUser(url: string, name: string): Promise<string> {
  const body = { username: name, email: `${name}@example.com`, password: PASSWORD };
  const reg = await httpApi(url, undefined)({ method: 'POST', path: '/api/v1/auth/register', body });
  if (reg.status !== 200) throw new Error(`register failed: ${reg.text}`);
  return signIn(url, name);
}

/** Signs in a user registered by registerUser, over HTTP. */
async function signIn(url: string, name: string): Promise<string> {
  const body = { username: name, password: PASSWORD };
  const login = await httpApi(url, undefined)({ method: 'POST', path: '/api/v1/auth/login', body });
  if (login.status !== 200) throw new Error(`login failed: ${login.text}`);
  return (JSON.parse(login.text) as { token: string }).token;
}

const PASSWORD = 'correct horse battery';
