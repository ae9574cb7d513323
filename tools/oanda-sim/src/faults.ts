// Scheduled misbehaviour for resilience tests: error statuses, slow answers, bodies cut off
// mid-stream, bodies that are not JSON, and requests that are never answered.

export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Status sent, once answered (undefined while pending, or when the connection was cut). */
  status?: number;
  /** The fault applied to this request, if any. */
  fault?: 'fail' | 'cut' | 'garble' | 'hang';
}

/** Which requests a fault applies to: a substring of the path, a RegExp on the path, or a predicate. */
export type FaultMatcher = string | RegExp | ((request: LoggedRequest) => boolean);

export interface FaultOptions {
  readonly match?: FaultMatcher;
}

export interface FailOptions extends FaultOptions {
  /** Retry-After header value (seconds, or an HTTP date string). */
  readonly retryAfter?: number | string;
  /** Body to send instead of the default `{ errorMessage }`. */
  readonly body?: unknown;
}

export interface DelayOptions extends FaultOptions {
  /** Only the next N matching requests are delayed; unlimited when omitted. */
  readonly next?: number;
}

export interface CutOptions extends FaultOptions {
  /** Bytes of the body sent before the socket is destroyed (default: half of it). */
  readonly afterBytes?: number;
}

export type FailStatus = 429 | 500 | 502 | 503 | 504;

export interface FaultControl {
  /** The next `next` matching requests answer `status` with an error body. */
  fail(next: number, status: FailStatus, options?: FailOptions): void;
  /** Matching responses are held back `ms` milliseconds before being sent. */
  delay(ms: number, options?: DelayOptions): void;
  /** The next `next` matching requests get their headers and part of the body, then the socket is destroyed. */
  cut(next: number, options?: CutOptions): void;
  /** The next `next` matching requests get a complete 200 response whose body is truncated JSON. */
  garble(next: number, options?: FaultOptions): void;
  /** The next `next` matching requests are never answered (until the client gives up or the sim closes). */
  hang(next: number, options?: FaultOptions): void;
  /** Removes every scheduled fault and delay. */
  reset(): void;
  /** Faults still scheduled (limited delays included). */
  readonly pending: number;
}

export type ResponseFault =
  | {
      readonly kind: 'fail';
      readonly status: FailStatus;
      readonly retryAfter?: number | string;
      readonly body?: unknown;
    }
  | { readonly kind: 'cut'; readonly afterBytes?: number }
  | { readonly kind: 'garble' }
  | { readonly kind: 'hang' };

interface Rule {
  remaining: number;
  readonly match?: FaultMatcher;
  readonly fault: ResponseFault;
}

interface DelayRule {
  remaining: number;
  readonly ms: number;
  readonly match?: FaultMatcher;
}

function matches(matcher: FaultMatcher | undefined, request: LoggedRequest): boolean {
  if (matcher === undefined) return true;
  if (typeof matcher === 'string') return request.path.includes(matcher);
  if (matcher instanceof RegExp) return matcher.test(request.path);
  return matcher(request);
}

function count(n: number, what: string): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`${what} must be a non-negative integer, got ${n}`);
  return n;
}

export class Faults implements FaultControl {
  private rules: Rule[] = [];
  private delays: DelayRule[] = [];

  fail(next: number, status: FailStatus, options: FailOptions = {}): void {
    this.add(next, options.match, { kind: 'fail', status, retryAfter: options.retryAfter, body: options.body });
  }

  delay(ms: number, options: DelayOptions = {}): void {
    if (!(ms >= 0)) throw new RangeError(`delay must be ≥ 0 ms, got ${ms}`);
    this.delays.push({
      remaining: options.next === undefined ? Infinity : count(options.next, 'next'),
      ms,
      match: options.match,
    });
  }

  cut(next: number, options: CutOptions = {}): void {
    this.add(next, options.match, { kind: 'cut', afterBytes: options.afterBytes });
  }

  garble(next: number, options: FaultOptions = {}): void {
    this.add(next, options.match, { kind: 'garble' });
  }

  hang(next: number, options: FaultOptions = {}): void {
    this.add(next, options.match, { kind: 'hang' });
  }

  reset(): void {
    this.rules = [];
    this.delays = [];
  }

  get pending(): number {
    return (
      this.rules.reduce((n, r) => n + r.remaining, 0) +
      this.delays.reduce((n, d) => n + (Number.isFinite(d.remaining) ? d.remaining : 0), 0)
    );
  }

  private add(next: number, match: FaultMatcher | undefined, fault: ResponseFault): void {
    const n = count(next, 'next');
    if (n > 0) this.rules.push({ remaining: n, match, fault });
  }

  /** Consumes and returns the fault for a request, oldest rule first. */
  takeResponseFault(request: LoggedRequest): ResponseFault | undefined {
    const rule = this.rules.find((r) => r.remaining > 0 && matches(r.match, request));
    if (!rule) return undefined;
    rule.remaining--;
    this.rules = this.rules.filter((r) => r.remaining > 0);
    return rule.fault;
  }

  /** Consumes and returns the delay (ms) for a request; 0 when none applies. */
  takeDelay(request: LoggedRequest): number {
    const rule = this.delays.find((d) => d.remaining > 0 && matches(d.match, request));
    if (!rule) return 0;
    rule.remaining--;
    this.delays = this.delays.filter((d) => d.remaining > 0);
    return rule.ms;
  }
}
