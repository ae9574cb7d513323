// The node:http front: routing, bearer-token checks, OANDA's response headers, and the
// injected faults. Order of checks: unknown path → 404, wrong method → 405, token → 401,
// account not visible to the token → 403, then the handler's own 400/404/416.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  getAccount,
  getChanges,
  getInstruments,
  getPosition,
  getSummary,
  listPendingOrders,
  listPositions,
} from './account-routes';
import type { Broker } from './broker';
import { CandleRequestError, candlesWire, parseCandleQuery } from './candles';
import type { Faults, LoggedRequest } from './faults';
import { rfc3339, unixTime } from './format';
import { instrumentByName } from './instruments';
import { ERRORS, failureBody, ok, type Reply, error } from './reply';
import type { AccountRouteContext, RouteContext } from './route-context';
import { Rng } from './rng';
import { getTrade, listOpenTrades, listTrades } from './trade-routes';
import { getTransaction, listTransactionPages, transactionIdRange, transactionsSinceId } from './transaction-routes';
import { WireContext } from './wire';

export interface ServerConfig {
  readonly broker: Broker;
  readonly faults: Faults;
  /** token → ids of the accounts it may use. */
  readonly tokens: ReadonlyMap<string, ReadonlySet<string>>;
  readonly requestLog: LoggedRequest[];
  readonly seed: number;
  /** Requests per second above which the sim answers 429 (off when undefined). */
  readonly rateLimit?: number;
}

type AccountHandler = (ctx: AccountRouteContext) => Reply;

interface Route {
  readonly account?: string;
  /** GET /v3/accounts itself. */
  readonly listAccounts?: true;
  readonly run: (ctx: RouteContext) => Reply;
  /** Non-GET methods the real API accepts here; the simulator answers them 405 too. */
  readonly kind: 'get' | 'mutation';
}

/** Maps a decoded path to its handler; undefined when OANDA has no such endpoint. */
function route(segments: string[]): Route | undefined {
  const [v3, root, id, sub, arg, tail] = segments;
  if (v3 !== 'v3') return undefined;
  if (root === 'instruments' && id !== undefined && sub === 'candles' && segments.length === 4) {
    return { kind: 'get', run: (ctx) => candles(ctx, id) };
  }
  if (root !== 'accounts') return undefined;
  if (id === undefined) return { kind: 'get', listAccounts: true, run: () => ERRORS.notFound() };
  const acc = (handler: AccountHandler): Route => ({
    account: id,
    kind: 'get',
    run: (ctx) => handler(ctx as AccountRouteContext),
  });
  if (sub === undefined) return acc(getAccount);
  const n = segments.length;
  switch (sub) {
    case 'summary':
      return n === 4 ? acc(getSummary) : undefined;
    case 'instruments':
      return n === 4 ? acc(getInstruments) : undefined;
    case 'changes':
      return n === 4 ? acc(getChanges) : undefined;
    case 'openTrades':
      return n === 4 ? acc(listOpenTrades) : undefined;
    case 'openPositions':
      return n === 4 ? acc((c) => listPositions(c, true)) : undefined;
    case 'pendingOrders':
      return n === 4 ? acc(listPendingOrders) : undefined;
    case 'positions':
      if (n === 4) return acc((c) => listPositions(c, false));
      if (n === 5 && arg !== undefined) return acc((c) => getPosition(c, arg));
      if (n === 6 && tail === 'close') return { account: id, kind: 'mutation', run: () => ERRORS.methodNotAllowed() };
      return undefined;
    case 'trades':
      if (n === 4) return acc(listTrades);
      if (n === 5 && arg !== undefined) return acc((c) => getTrade(c, arg));
      if (n === 6 && (tail === 'close' || tail === 'orders' || tail === 'clientExtensions')) {
        return { account: id, kind: 'mutation', run: () => ERRORS.methodNotAllowed() };
      }
      return undefined;
    case 'transactions':
      if (n === 4) return acc(listTransactionPages);
      if (n === 5 && arg === 'idrange') return acc(transactionIdRange);
      if (n === 5 && arg === 'sinceid') return acc(transactionsSinceId);
      if (n === 5 && arg !== undefined) return acc((c) => getTransaction(c, arg));
      return undefined;
    case 'orders':
    case 'configuration':
      return n === 4 ? { account: id, kind: 'mutation', run: () => ERRORS.methodNotAllowed() } : undefined;
    default:
      return undefined;
  }
}

function candles(ctx: RouteContext, instrument: string): Reply {
  const spec = instrumentByName(instrument);
  if (!spec) return ERRORS.invalid('instrument');
  try {
    const query = parseCandleQuery(ctx.query, ctx.datetimeFormat, ctx.wire.nowMs);
    return ok(candlesWire(ctx.broker.market.path(spec), query, ctx.wire.nowMs, ctx.wire.fmt));
  } catch (e) {
    if (e instanceof CandleRequestError) return error(400, e.message);
    throw e;
  }
}

function decodeSegments(pathname: string): string[] | undefined {
  try {
    return pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

export interface SimServer {
  readonly server: Server;
  close(): Promise<void>;
}

export function createSimServer(config: ServerConfig): SimServer {
  const { broker, faults, tokens, requestLog } = config;
  const requestIds = new Rng(config.seed, 900);
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let windowStart = 0;
  let windowCount = 0;

  const send = (req: IncomingMessage, res: ServerResponse, logged: LoggedRequest, reply: Reply): void => {
    const json = reply.body === null ? '' : JSON.stringify(reply.body);
    const body = Buffer.from(json);
    const headers: Record<string, string | number> = {
      'Content-Type': 'application/json',
      'Content-Length': body.length,
      RequestID: requestIds.digits(17),
      'Access-Control-Allow-Origin': '*',
      ...reply.headers,
    };
    if (reply.status === 405) headers.Allow = 'GET';
    logged.status = reply.status;
    res.writeHead(reply.status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const answer = (req: IncomingMessage, url: URL): Reply => {
    if (config.rateLimit !== undefined) {
      const second = Math.floor(Date.now() / 1000);
      if (second !== windowStart) {
        windowStart = second;
        windowCount = 0;
      }
      if (++windowCount > config.rateLimit) return ERRORS.rateLimited();
    }
    const segments = decodeSegments(url.pathname);
    const found = segments && route(segments);
    if (!found) return ERRORS.notFound();
    if (req.method !== 'GET' || found.kind === 'mutation') return ERRORS.methodNotAllowed();
    const auth = req.headers.authorization;
    const token = auth?.startsWith('Bearer ') ? auth.slice(7).trim() : undefined;
    const visible = token === undefined ? undefined : tokens.get(token);
    if (!visible) return ERRORS.unauthorized();
    const formatHeader = req.headers['accept-datetime-format'];
    const datetimeFormat =
      formatHeader === undefined || formatHeader === 'RFC3339'
        ? 'RFC3339'
        : formatHeader === 'UNIX'
          ? 'UNIX'
          : undefined;
    if (!datetimeFormat) return ERRORS.invalid('Accept-Datetime-Format');
    const wire = new WireContext(broker.market, broker.now(), datetimeFormat === 'UNIX' ? unixTime : rfc3339);
    const host = req.headers.host ?? '127.0.0.1';
    const base: RouteContext = {
      broker,
      query: url.searchParams,
      wire,
      baseUrl: `http://${host}`,
      pathname: url.pathname,
      datetimeFormat,
    };
    if (found.listAccounts) {
      // GET /v3/accounts: only the accounts this token may use; no alias, currency or balance.
      return ok({ accounts: broker.accounts.filter((a) => visible.has(a.id)).map((a) => ({ id: a.id, tags: [] })) });
    }
    if (found.account !== undefined) {
      const account = broker.account(found.account);
      if (!account || !visible.has(account.id)) return ERRORS.forbidden();
      return found.run({ ...base, account, lastTransactionID: String(account.txs.length) } as AccountRouteContext);
    }
    return found.run(base);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://sim.invalid');
    const logged: LoggedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
    };
    requestLog.push(logged);
    const fault = faults.takeResponseFault(logged);
    const delay = faults.takeDelay(logged);
    const respond = () => {
      if (res.destroyed) return;
      if (fault?.kind === 'hang') {
        logged.fault = 'hang';
        return;
      }
      if (fault?.kind === 'fail') {
        logged.fault = 'fail';
        const headers: Record<string, string> = {};
        if (fault.retryAfter !== undefined) headers['Retry-After'] = String(fault.retryAfter);
        send(req, res, logged, { status: fault.status, body: fault.body ?? failureBody(fault.status), headers });
        return;
      }
      let reply: Reply;
      try {
        reply = answer(req, url);
      } catch (e) {
        console.error('[oanda-sim] handler failed', e);
        reply = { status: 500, body: failureBody(500) };
      }
      if (fault?.kind === 'cut' || fault?.kind === 'garble') {
        logged.fault = fault.kind;
        const full = Buffer.from(JSON.stringify(reply.body));
        const keep = Math.max(
          1,
          Math.min(
            full.length - 1,
            fault.kind === 'cut' ? (fault.afterBytes ?? Math.floor(full.length / 2)) : Math.floor(full.length / 2),
          ),
        );
        const headers = { 'Content-Type': 'application/json', RequestID: requestIds.digits(17), ...reply.headers };
        if (fault.kind === 'garble') {
          logged.status = reply.status;
          res.writeHead(reply.status, { ...headers, 'Content-Length': keep });
          res.end(full.subarray(0, keep));
          return;
        }
        // Promise the whole body, deliver part of it, then drop the connection.
        res.writeHead(reply.status, { ...headers, 'Content-Length': full.length });
        res.write(full.subarray(0, keep), () => res.socket?.destroy());
        return;
      }
      send(req, res, logged, reply);
    };
    // Drain any request body so keep-alive connections stay usable.
    req.resume();
    if (delay > 0) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        respond();
      }, delay);
      timers.add(timer);
    } else {
      respond();
    }
  };

  const server = createServer(handle);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  return {
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close((err) => (err ? reject(err) : resolve()));
        for (const socket of sockets) socket.destroy();
      }),
  };
}
