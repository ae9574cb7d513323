import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Recorded v20 exchanges, kept in the repository with the simulator (tools/oanda-sim/fixtures/NOTES.md). */
const FIXTURES_DIR = fileURLToPath(new URL('../../../../tools/oanda-sim/fixtures/', import.meta.url));

interface Exchange {
  method: string;
  path: string;
  query: Record<string, string>;
  request_headers?: Record<string, string>;
  status: number;
  headers: Record<string, string>;
  body: string;
  note?: string;
}

export function readFixture<T = unknown>(name: string): T {
  return JSON.parse(readFileSync(join(FIXTURES_DIR, name), 'utf8')) as T;
}

interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
}

/** Returns true when it answered the request itself. */
type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => boolean | Promise<boolean>;

export interface FixtureServerOptions {
  token?: string;
  /** Trades served by the dynamic pager for `GET …/trades` queries no recorded exchange matches. */
  trades?: Array<{ id: string } & Record<string, unknown>>;
  /** Treat beforeID as inclusive, as a careless server might. */
  inclusiveBeforeId?: boolean;
}

export interface FixtureServer {
  url: string;
  token: string;
  requests: SeenRequest[];
  /** TCP connections opened so far (keep-alive check). */
  connections(): number;
  /** Handlers run before the fixtures, newest first. */
  use(handler: Handler): void;
  close(): Promise<void>;
}

const ACCOUNT_ID = '101-004-27183640-001';

function send(
  res: ServerResponse,
  req: IncomingMessage,
  status: number,
  body: string,
  headers: Record<string, string> = {},
) {
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) && body.length > 256;
  const payload = gzip ? gzipSync(body) : Buffer.from(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    ...headers,
    ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    'Content-Length': String(payload.length),
  });
  res.end(payload);
}

const sameQuery = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/** A tiny node:http server that replays the recorded OANDA exchanges; tests add faults through `use`. */
export async function startFixtureServer(options: FixtureServerOptions = {}): Promise<FixtureServer> {
  const token = options.token ?? 'fixture-token-1234';
  const index = readFixture<{ exchanges: Exchange[] }>('index.json');
  // The recorded 429 shares its request with a 200; it is served only when a test injects it.
  const exchanges = index.exchanges.filter((e) => e.status !== 429 && !e.request_headers);
  const unauthorized = readFileSync(join(FIXTURES_DIR, 'errors/401.insufficient-authorization.json'), 'utf8');
  const allTrades: Array<{ id: string } & Record<string, unknown>> =
    options.trades ?? readFixture<{ trades: Array<{ id: string }> }>('trades.state-ALL.json').trades;
  const handlers: Handler[] = [];
  const requests: SeenRequest[] = [];
  let connections = 0;

  const numeric = (id: string) => BigInt(id);

  function dynamicTrades(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    if (req.method !== 'GET' || url.pathname !== `/v3/accounts/${ACCOUNT_ID}/trades`) return false;
    const q = url.searchParams;
    const state = q.get('state') ?? 'OPEN';
    const count = Number(q.get('count') ?? '50');
    if (count > 500) {
      send(res, req, 400, JSON.stringify({ errorMessage: "Maximum value for 'count' exceeded" }));
      return true;
    }
    const ids = q.get('ids')?.split(',');
    const before = q.get('beforeID');
    let list = allTrades.filter((t) => state === 'ALL' || t['state'] === state);
    if (ids) list = list.filter((t) => ids.includes(t.id));
    if (before)
      list = list.filter((t) =>
        options.inclusiveBeforeId ? numeric(t.id) <= numeric(before) : numeric(t.id) < numeric(before),
      );
    list = [...list].sort((a, b) => (numeric(b.id) > numeric(a.id) ? 1 : -1)).slice(0, count);
    send(res, req, 200, JSON.stringify({ trades: list, lastTransactionID: '5318' }), { RequestID: '1' });
    return true;
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
      });
      for (const handler of [...handlers].reverse()) if (await handler(req, res, url)) return;
      if (req.headers.authorization !== `Bearer ${token}`)
        return send(res, req, 401, unauthorized, { RequestID: '17395675885652550' });
      const query = Object.fromEntries(url.searchParams);
      const hit = exchanges.find(
        (e) => e.method === req.method && e.path === url.pathname && sameQuery(e.query, query),
      );
      if (hit) return send(res, req, hit.status, readFileSync(join(FIXTURES_DIR, hit.body), 'utf8'), hit.headers);
      if (dynamicTrades(req, res, url)) return;
      send(
        res,
        req,
        404,
        JSON.stringify({ errorMessage: `no fixture for ${req.method} ${url.pathname}?${url.searchParams}` }),
      );
    })();
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    connections: () => connections,
    use: (handler) => handlers.push(handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
