import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultReply } from './default-reply';
import type { FakeHandler, FakeLlmServer, FakeProvider, FakeReply, FakeRequest, FakeServerOptions } from './types';

/** Writes one HTTP answer, honouring delays and stopping quietly if the client went away. */
class Responder {
  constructor(
    private readonly res: ServerResponse,
    readonly chunkDelayMs: number,
  ) {}

  get gone(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  /** Resolves after `ms`, or at once when the client disconnects. */
  sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.gone) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.res.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.res.once('close', done);
    });
  }

  /** A JSON body; a string body is sent as it is (for hand-made wire text such as a cut stream). */
  json(status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (this.gone) return;
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    this.res.writeHead(status, { 'content-type': 'application/json', ...headers });
    this.res.end(text);
  }

  /** Sends the head and then each piece as written, `chunkDelayMs` apart. */
  async stream(status: number, headers: Record<string, string>, pieces: string[]): Promise<void> {
    if (this.gone) return;
    this.res.writeHead(status, headers);
    this.res.flushHeaders();
    for (const [i, piece] of pieces.entries()) {
      if (i > 0) await this.sleep(this.chunkDelayMs);
      if (this.gone) return;
      this.res.write(piece);
    }
    this.res.end();
  }
}

export interface RouteMatch {
  /** Model named in the URL (Vertex). */
  model?: string;
  stream: boolean;
  /** Vertex `?alt=sse`. */
  sse: boolean;
}

/** What differs between the fakes: URLs, auth, request shape, validation and the response format. */
export interface WireAdapter {
  provider: FakeProvider;
  route(method: string, url: URL): RouteMatch | undefined;
  authorized(req: IncomingMessage, apiKey: string): boolean;
  normalize(
    body: Record<string, unknown>,
    route: RouteMatch,
    base: Pick<FakeRequest, 'method' | 'path' | 'headers'>,
  ): FakeRequest;
  /** An error reply when the real API would reject the request. */
  validate(request: FakeRequest): FakeReply | undefined;
  respond(out: Responder, request: FakeRequest, reply: FakeReply, route: RouteMatch): Promise<void>;
  /** The provider's body for a status with a message (unknown path, unreadable JSON, handler failure). */
  plainError(status: number, message: string): unknown;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function isReply(value: unknown): value is FakeReply {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Starts a fake on loopback with the scripting, request log and control endpoints both fakes share. */
export async function startFake(
  adapter: WireAdapter,
  options: FakeServerOptions,
  urlSuffix: string,
): Promise<FakeLlmServer> {
  const requests: FakeRequest[] = [];
  const queue: FakeReply[] = [...(options.replies ?? [])];
  let handler: FakeHandler | undefined = options.handler;

  /**
   * For tests in another process (Playwright against the CLI):
   * GET /_fake/requests, POST /_fake/replies (one reply or an array), POST /_fake/reset.
   */
  async function control(req: IncomingMessage, url: URL, out: Responder): Promise<void> {
    if (req.method === 'GET' && url.pathname === '/_fake/requests') return out.json(200, requests);
    if (req.method === 'POST' && url.pathname === '/_fake/replies') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readBody(req));
      } catch {
        return out.json(400, { error: 'body must be a reply or an array of replies' });
      }
      const replies = Array.isArray(parsed) ? parsed : [parsed];
      if (!replies.every(isReply)) return out.json(400, { error: 'body must be a reply or an array of replies' });
      queue.push(...replies);
      return out.json(200, { queued: queue.length });
    }
    if (req.method === 'POST' && url.pathname === '/_fake/reset') {
      requests.length = 0;
      queue.length = 0;
      handler = undefined;
      return out.json(200, { ok: true });
    }
    return out.json(404, { error: 'unknown control endpoint' });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const out = new Responder(res, options.chunkDelayMs ?? 0);
    if (url.pathname.startsWith('/_fake/')) return control(req, url, out);

    const route = adapter.route(req.method ?? 'GET', url);
    if (!route) return out.json(404, adapter.plainError(404, `Invalid URL (${req.method ?? 'GET'} ${url.pathname})`));
    const text = await readBody(req);
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      return out.json(400, adapter.plainError(400, 'We could not parse the JSON body of your request.'));
    }

    const request = adapter.normalize(body, route, {
      method: req.method ?? 'POST',
      path: `${url.pathname}${url.search}`,
      headers: req.headers,
    });
    requests.push(request);

    let reply: FakeReply;
    if (options.apiKey !== undefined && !adapter.authorized(req, options.apiKey)) {
      reply = { error: 'invalid_api_key' };
    } else {
      try {
        reply = adapter.validate(request) ?? queue.shift() ?? (await handler?.(request)) ?? defaultReply(request);
      } catch (error) {
        const message = `fake-llm handler failed: ${error instanceof Error ? error.message : String(error)}`;
        return out.json(500, adapter.plainError(500, message));
      }
    }
    await out.sleep((options.latencyMs ?? 0) + (reply.delayMs ?? 0));
    const responder = reply.chunkDelayMs !== undefined ? new Responder(res, reply.chunkDelayMs) : out;
    await adapter.respond(responder, request, reply, route);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`fake-llm: ${error instanceof Error ? error.message : String(error)}`);
      } else {
        res.destroy();
      }
    });
  });
  // Streams may be held open on purpose (stall tests); never let Node's own timeouts cut them.
  server.requestTimeout = 0;
  server.headersTimeout = 0;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;

  return {
    url: `http://${host}:${port}${urlSuffix}`,
    port,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    setHandler: (next) => {
      handler = next;
    },
    reset: () => {
      requests.length = 0;
      queue.length = 0;
      handler = undefined;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
