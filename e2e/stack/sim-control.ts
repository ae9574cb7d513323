import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FailStatus, OandaSim, OpenTradeRequest } from '@pipsense/oanda-sim';
import type { TestSmtp } from '../../apps/server/src/test/smtp';

/**
 * The simulators live in the webServer's process, out of the specs' reach: this small HTTP front lets a spec read
 * the book as OANDA would serve it (to compare with what the screens show), change it, and schedule faults, and read
 * the mails the server sent.
 *
 *   GET    /sims/{env}/summary/{accountId}              the account summary now
 *   GET    /sims/{env}/trades/{accountId}?state=ALL     every trade, newest first
 *   POST   /sims/{env}/trades/{accountId}               open a trade: { instrument, units, takeProfit?, stopLoss? }
 *   POST   /sims/{env}/trades/{accountId}/{id}/close    close (or reduce with { units }) a trade
 *   POST   /sims/{env}/transfers/{accountId}            deposit (amount > 0) or withdraw (amount < 0) now:
 *                                                       { amount, comment? }, a TRANSFER_FUNDS
 *   POST   /sims/{env}/faults                           { kind: fail|delay|cut|garble|hang, n?, status?, ms?,
 *                                                         retryAfter?, afterBytes?, match? (path substring) }
 *   DELETE /sims/{env}/faults                           clear every scheduled fault
 *   GET    /sims/{env}/requests                         what the simulator received; DELETE clears the log
 *   GET    /sims/{env}/price/{instrument}?at={ms}       the bid/mid/ask at an instant (default now)
 *   POST   /sims/{env}/plant/{accountId}                trades at past times, in order: { steps: PlantStep[] }; the
 *                                                       simulator's clock reads each step's `at` while it runs
 *   GET    /mails?to={address}                          the mails the server sent to this address, oldest first
 *                                                       (received by the stack's SMTP server on loopback)
 *
 * {env} is practice or live.
 */
export type SimEnv = 'practice' | 'live';

export interface FaultRequest {
  kind: 'fail' | 'delay' | 'cut' | 'garble' | 'hang';
  /** How many matching requests (fail, cut, garble, hang; delay: only the next n when given). */
  n?: number;
  status?: FailStatus;
  ms?: number;
  retryAfter?: number;
  afterBytes?: number;
  /** A substring of the request path, e.g. '/summary'. */
  match?: string;
}

/**
 * One step of a planted book: open a trade (named by `key` for a later close) or close one, at `at` (ms since the
 * epoch). The simulator stamps a transaction no earlier than the account's last, so steps go oldest first.
 */
export type PlantStep = { at: number; open: OpenTradeRequest; key: string } | { at: number; close: string };

/** Each simulator's clock override (start-stack.ts): null reads real time. */
export type SimClocks = Record<SimEnv, { at: number | null }>;

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Reported below with the rest of the bad bodies.
  }
  throw new ControlError(400, 'the body must be a JSON object');
}

function scheduleFault(sim: OandaSim, f: FaultRequest): void {
  const match = f.match === undefined ? {} : { match: f.match };
  const n = f.n ?? 1;
  switch (f.kind) {
    case 'fail':
      if (f.status === undefined) throw new ControlError(400, 'fail needs a status');
      sim.faults.fail(n, f.status, { ...match, ...(f.retryAfter === undefined ? {} : { retryAfter: f.retryAfter }) });
      return;
    case 'delay':
      if (f.ms === undefined) throw new ControlError(400, 'delay needs ms');
      sim.faults.delay(f.ms, { ...match, ...(f.n === undefined ? {} : { next: f.n }) });
      return;
    case 'cut':
      sim.faults.cut(n, { ...match, ...(f.afterBytes === undefined ? {} : { afterBytes: f.afterBytes }) });
      return;
    case 'garble':
      sim.faults.garble(n, match);
      return;
    case 'hang':
      sim.faults.hang(n, match);
      return;
    default:
      throw new ControlError(400, `unknown fault kind ${String((f as { kind: unknown }).kind)}`);
  }
}

/** Runs a planted book's steps synchronously, the clock set to each step's time, and gives it back after. */
function plant(sim: OandaSim, clock: { at: number | null }, accountId: string, steps: PlantStep[]) {
  const opened = new Map<string, string>();
  try {
    for (const step of steps) {
      if (!Number.isFinite(step.at) || step.at > Date.now()) throw new ControlError(400, 'a step needs a past `at`');
      clock.at = step.at;
      if ('open' in step) opened.set(step.key, sim.openTrade(accountId, step.open).id);
      else {
        const id = opened.get(step.close);
        if (!id) throw new ControlError(400, `no trade opened as ${step.close}`);
        sim.closeTrade(accountId, id);
      }
    }
  } finally {
    clock.at = null;
  }
  return Object.fromEntries(opened);
}

async function handle(
  sims: Record<SimEnv, OandaSim>,
  smtp: TestSmtp,
  clocks: SimClocks,
  req: IncomingMessage,
): Promise<unknown> {
  const url = new URL(req.url ?? '/', 'http://control.invalid');
  if (url.pathname === '/mails' && req.method === 'GET') {
    const to = url.searchParams.get('to');
    if (!to) throw new ControlError(400, 'GET /mails needs ?to=address');
    return smtp.to(to);
  }
  const [root, env, what, accountId, tradeId, action] = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (root !== 'sims' || (env !== 'practice' && env !== 'live')) throw new ControlError(404, 'no such endpoint');
  const sim = sims[env];
  const method = req.method ?? 'GET';
  if (what === 'summary' && accountId && method === 'GET') return sim.state.summary(accountId);
  if (what === 'price' && accountId && method === 'GET') {
    const at = url.searchParams.get('at');
    return sim.state.price(accountId, at === null ? undefined : Number(at));
  }
  if (what === 'plant' && accountId && method === 'POST') {
    const body = await readJson(req);
    if (!Array.isArray(body.steps)) throw new ControlError(400, 'a plant needs steps');
    return plant(sim, clocks[env], accountId, body.steps as PlantStep[]);
  }
  if (what === 'trades' && accountId && tradeId === undefined) {
    if (method === 'GET') {
      const state = url.searchParams.get('state') ?? 'ALL';
      if (state !== 'ALL' && state !== 'OPEN' && state !== 'CLOSED') throw new ControlError(400, 'bad state');
      return sim.state.trades(accountId, state);
    }
    if (method === 'POST') return sim.openTrade(accountId, (await readJson(req)) as unknown as OpenTradeRequest);
  }
  if (what === 'trades' && accountId && tradeId && action === 'close' && method === 'POST') {
    const body = await readJson(req);
    return sim.closeTrade(accountId, tradeId, typeof body.units === 'number' ? { units: body.units } : undefined);
  }
  if (what === 'transfers' && accountId && tradeId === undefined && method === 'POST') {
    const body = await readJson(req);
    if (typeof body.amount !== 'number' && typeof body.amount !== 'string')
      throw new ControlError(400, 'a transfer needs an amount');
    sim.transferFunds(accountId, body.amount, typeof body.comment === 'string' ? body.comment : undefined);
    return sim.state.summary(accountId);
  }
  if (what === 'faults' && accountId === undefined) {
    if (method === 'POST') {
      scheduleFault(sim, (await readJson(req)) as unknown as FaultRequest);
      return { pending: sim.faults.pending };
    }
    if (method === 'DELETE') {
      sim.faults.reset();
      return { pending: 0 };
    }
  }
  if (what === 'requests' && accountId === undefined) {
    if (method === 'GET') return sim.requestLog;
    if (method === 'DELETE') {
      sim.requestLog.length = 0;
      return { cleared: true };
    }
  }
  throw new ControlError(404, `no such endpoint: ${method} ${url.pathname}`);
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** Listens on 127.0.0.1 (a free port); `url` is where the endpoints above answer. */
export async function startSimControl(
  sims: Record<SimEnv, OandaSim>,
  smtp: TestSmtp,
  clocks: SimClocks,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    handle(sims, smtp, clocks, req).then(
      (body) => reply(res, 200, body),
      (error: unknown) => {
        // The simulator's own refusals (SimError, RangeError: unknown account, closed trade) are the caller's mistake.
        const status = error instanceof ControlError ? error.status : error instanceof Error ? 400 : 500;
        reply(res, status, { error: error instanceof Error ? error.message : String(error) });
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
