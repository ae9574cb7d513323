import { promisify } from 'node:util';
import { gunzip, inflate } from 'node:zlib';
import { Agent, request } from 'undici';
import type { z } from 'zod';
import type { Mode } from '@pipsense/contract';
import { errorResponse } from './wire-schemas';
import { OandaError, type OandaErrorKind } from './oanda-error';
import { createFairPool, type FairPool } from './fair-pool';

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);

export interface OandaLogger {
  warn(fields: object, message: string): void;
  debug?(fields: object, message: string): void;
}

export interface TransportOptions {
  /** Limit for one attempt, from sending the request to the last byte of the answer. */
  timeoutMs: number;
  /** Extra attempts after a 429, a 5xx or a broken connection. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited out: the caller gets a rate-limit error instead. */
  maxRetryAfterMs: number;
  /**
   * Keep-alive connections per OANDA host; OANDA rejects more than 2 new connections per second. Shared fairly
   * between tokens (fair-pool.ts): at most this many requests are in flight per host.
   */
  connections: number;
  /** Ask for gzip: a 10,000-trade history is about 12 MB of JSON. */
  compression: boolean;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  log?: OandaLogger | undefined;
}

export interface Target {
  baseUrl: string;
  token: string;
  mode: Mode;
  /** Whose turn a request waits for in the host's fair pool (fair-pool.ts): a digest of the token. */
  caller: string;
}

export interface RequestSpec {
  /** Under /v3, e.g. `/accounts/101-004-1-001/trades`; segments already encoded. */
  path: string;
  query?: Record<string, string | number | undefined> | undefined;
  /** `GET /v3/accounts` does not take Accept-Datetime-Format; everything else does. */
  datetimeFormat?: boolean | undefined;
}

type Failure = { ok: false; error: OandaError; retryable: boolean; delayMs?: number | undefined };
type Outcome =
  { ok: true; status: number; headers: Record<string, string | string[] | undefined>; text: string } | Failure;

/**
 * A 2xx answer's body as JSON. A body that is not JSON (cut short on the way, garbled) is retried like a 5xx:
 * the next answer is usually whole; once the retries are spent the caller gets a `malformed` error.
 */
function readJson(
  outcome: Extract<Outcome, { ok: true }>,
  mode: Mode,
  label: string,
  attempts: number,
): { ok: true; status: number; json: unknown } | Failure {
  try {
    return { ok: true, status: outcome.status, json: JSON.parse(outcome.text) };
  } catch (error) {
    const detail = outcome.text.length === 0 ? 'an empty body' : (error as Error).message;
    const tries = attempts === 1 ? '' : ` (${attempts} attempts)`;
    return {
      ok: false,
      retryable: true,
      error: new OandaError(
        { kind: 'malformed', mode, request: label, status: outcome.status, attempts },
        `${label}: OANDA sent a body that is not valid JSON (${detail})${tries}`,
      ),
    };
  }
}

const headerText = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

/** Retry-After is either delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function networkKind(error: unknown): OandaErrorKind {
  const code = (error as { code?: string } | undefined)?.code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return 'timeout';
  return 'network';
}

/** The HTTP layer of the v20 client: keep-alive pool, timeouts, bounded retries, JSON + schema checks. */
export function createTransport(options: TransportOptions) {
  // One fair pool per host (practice, live): the agent keeps `connections` per origin.
  const pools = new Map<string, FairPool>();
  const poolOf = (url: string): FairPool => {
    const origin = new URL(url).origin;
    let pool = pools.get(origin);
    if (!pool) {
      pool = createFairPool(options.connections);
      pools.set(origin, pool);
    }
    return pool;
  };
  const agent = new Agent({
    connections: options.connections,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 120_000,
    connect: { timeout: Math.min(options.timeoutMs, 10_000) },
  });

  function backoff(attempt: number): number {
    const cap = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
    // Equal jitter: never zero, never in lock-step with other clients.
    return Math.round(cap / 2 + (options.random() * cap) / 2);
  }

  /** One attempt on a connection of the caller's turn; the time limit runs from when it has one. */
  async function attempt(target: Target, url: string, spec: RequestSpec, label: string, n: number): Promise<Outcome> {
    const release = await poolOf(url).acquire(target.caller);
    try {
      return await attemptOnConnection(target, url, spec, label, n);
    } finally {
      release();
    }
  }

  async function attemptOnConnection(
    target: Target,
    url: string,
    spec: RequestSpec,
    label: string,
    n: number,
  ): Promise<Outcome> {
    const details = (kind: OandaErrorKind, extra: Partial<ConstructorParameters<typeof OandaError>[0]> = {}) => ({
      kind,
      mode: target.mode,
      request: label,
      attempts: n,
      ...extra,
    });
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs);
    const timeoutError = () =>
      new OandaError(details('timeout'), `${label}: no complete answer from OANDA within ${options.timeoutMs} ms`);

    try {
      const headers: Record<string, string> = {
        authorization: `Bearer ${target.token}`,
        accept: 'application/json',
      };
      if (spec.datetimeFormat !== false) headers['accept-datetime-format'] = 'RFC3339';
      if (options.compression) headers['accept-encoding'] = 'gzip, deflate';

      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(url, {
          method: 'GET',
          headers,
          dispatcher: agent,
          signal: controller.signal,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        });
      } catch (error) {
        if (timedOut) return { ok: false, error: timeoutError(), retryable: false };
        const kind = networkKind(error);
        const reason = (error as { code?: string }).code ?? (error as Error).message;
        return {
          ok: false,
          error: new OandaError(
            details(kind),
            `${label}: ${kind === 'timeout' ? 'timed out' : 'could not reach OANDA'} (${reason})`,
          ),
          retryable: kind === 'network',
        };
      }

      const { statusCode, headers: resHeaders, body } = response;
      let raw: Buffer;
      try {
        const chunks: Buffer[] = [];
        for await (const chunk of body) chunks.push(chunk as Buffer);
        raw = Buffer.concat(chunks);
        const encoding = headerText(resHeaders['content-encoding'])?.toLowerCase();
        if (encoding === 'gzip') raw = await gunzipAsync(raw);
        else if (encoding === 'deflate') raw = await inflateAsync(raw);
      } catch (error) {
        if (timedOut) return { ok: false, error: timeoutError(), retryable: false };
        const reason = (error as { code?: string }).code ?? (error as Error).message;
        return {
          ok: false,
          error: new OandaError(
            details('truncated', { status: statusCode }),
            `${label}: the answer from OANDA was cut off (${reason})`,
          ),
          retryable: true,
        };
      }
      const text = raw.toString('utf8');
      const requestId = headerText(resHeaders['requestid']);

      if (statusCode >= 200 && statusCode < 300) return { ok: true, status: statusCode, headers: resHeaders, text };

      let oandaMessage: string | undefined;
      let oandaCode: string | undefined;
      try {
        const parsed = errorResponse.safeParse(JSON.parse(text));
        if (parsed.success) {
          oandaMessage = parsed.data.errorMessage ?? undefined;
          oandaCode = parsed.data.errorCode ?? undefined;
        }
      } catch {
        // Error bodies are undocumented for 405/429/5xx: the status alone decides.
      }
      const base = { status: statusCode, oandaMessage, oandaCode, requestId };
      const said = oandaMessage ? `: ${oandaMessage}` : '';
      if (statusCode === 401)
        return {
          ok: false,
          retryable: false,
          error: new OandaError(details('auth', base), `${label}: HTTP 401${said}`),
        };
      if (statusCode === 403)
        return {
          ok: false,
          retryable: false,
          error: new OandaError(details('forbidden', base), `${label}: HTTP 403${said}`),
        };
      if (statusCode === 404)
        return {
          ok: false,
          retryable: false,
          error: new OandaError(details('not_found', base), `${label}: HTTP 404${said}`),
        };
      if (statusCode === 400)
        return {
          ok: false,
          retryable: false,
          error: new OandaError(details('bad_request', base), `${label}: HTTP 400${said}`),
        };
      if (statusCode === 429) {
        const waitMs = parseRetryAfter(headerText(resHeaders['retry-after']));
        const retryAfterSeconds = waitMs === undefined ? undefined : Math.ceil(waitMs / 1000);
        return {
          ok: false,
          retryable: waitMs === undefined || waitMs <= options.maxRetryAfterMs,
          delayMs: waitMs,
          error: new OandaError(details('rate_limited', { ...base, retryAfterSeconds }), `${label}: HTTP 429${said}`),
        };
      }
      if (statusCode >= 500) {
        const waitMs = parseRetryAfter(headerText(resHeaders['retry-after']));
        return {
          ok: false,
          retryable: waitMs === undefined || waitMs <= options.maxRetryAfterMs,
          delayMs: waitMs,
          error: new OandaError(details('unavailable', base), `${label}: HTTP ${statusCode}${said}`),
        };
      }
      return {
        ok: false,
        retryable: false,
        error: new OandaError(details('rejected', base), `${label}: HTTP ${statusCode}${said}`),
      };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    /** GET a v20 resource and check it against `schema`; retries what is worth retrying, within bounds. */
    async get<S extends z.ZodType>(target: Target, spec: RequestSpec, schema: S): Promise<z.output<S>> {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(spec.query ?? {}))
        if (value !== undefined) search.set(key, String(value));
      const qs = search.toString();
      const pathAndQuery = `/v3${spec.path}${qs ? `?${qs}` : ''}`;
      const url = `${target.baseUrl.replace(/\/+$/, '')}${pathAndQuery}`;
      const label = `GET ${pathAndQuery}`;

      for (let n = 1; ; n += 1) {
        const started = performance.now();
        const outcome = await attempt(target, url, spec, label, n);
        const read = outcome.ok ? readJson(outcome, target.mode, label, n) : outcome;
        if (read.ok) {
          options.log?.debug?.(
            { request: label, mode: target.mode, status: read.status, ms: Math.round(performance.now() - started) },
            'OANDA request',
          );
          // Valid JSON in another shape is not retried: OANDA would send the same again.
          const parsed = schema.safeParse(read.json);
          if (!parsed.success) {
            const issue = parsed.error.issues[0];
            const where = issue?.path.length ? issue.path.join('.') : 'body';
            throw new OandaError(
              { kind: 'malformed', mode: target.mode, request: label, status: read.status, attempts: n },
              `${label}: OANDA's answer is not in the v20 format (${where}: ${issue?.message ?? 'invalid'})`,
            );
          }
          return parsed.data;
        }
        if (!read.retryable || n > options.retries) throw read.error;
        const delayMs = Math.max(backoff(n - 1), read.delayMs ?? 0);
        options.log?.warn(
          {
            request: label,
            mode: target.mode,
            status: read.error.status,
            kind: read.error.kind,
            attempt: n,
            delayMs,
          },
          'OANDA request failed; retrying',
        );
        await options.sleep(delayMs);
      }
    },

    close: () => agent.close(),
  };
}
