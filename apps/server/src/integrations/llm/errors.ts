import { withinSentence } from '../../lib/text';
import type { LlmProviderId } from './types';

/**
 * What went wrong, in terms a caller can act on:
 * - `auth`: key or credentials refused (401/403); fix the server configuration.
 * - `quota`: the account is out of credit; retrying does not help.
 * - `rate_limit`: too many requests right now; retry later.
 * - `timeout`: no answer (or no stream progress) within the provider timeout, or the provider's gateway gave up
 *   waiting (408/504).
 * - `unavailable`: the provider failed (409, other 5xx, error in the middle of a stream).
 * - `bad_request`: the provider rejected the request (other 4xx, e.g. 404 for an unknown model).
 * - `refusal`: the model declined or the prompt/answer was blocked by safety filters.
 * - `length`: the answer was cut off at the output token limit (`partialText` holds it).
 * - `network`: the provider could not be reached, or the connection broke.
 * - `invalid_response`: the provider answered something unusable (e.g. broken structured JSON).
 * - `aborted`: the caller cancelled the request.
 */
export type LlmErrorKind =
  | 'auth'
  | 'quota'
  | 'rate_limit'
  | 'timeout'
  | 'unavailable'
  | 'bad_request'
  | 'refusal'
  | 'length'
  | 'network'
  | 'invalid_response'
  | 'aborted';

const RETRYABLE: ReadonlySet<LlmErrorKind> = new Set(['rate_limit', 'timeout', 'unavailable', 'network']);

function defaultMessage(kind: LlmErrorKind, label: string): string {
  switch (kind) {
    case 'auth':
      return `${label} rejected the API key or credentials configured on this server.`;
    case 'quota':
      return `${label} reports that the account configured on this server has run out of quota or credit.`;
    case 'rate_limit':
      return `${label} is receiving too many requests right now. Please try again in a moment.`;
    case 'timeout':
      return `${label} did not answer in time. Please try again.`;
    case 'unavailable':
      return `${label} is temporarily unavailable. Please try again later.`;
    case 'bad_request':
      return `${label} could not process this request.`;
    case 'refusal':
      return `${label} declined to answer this request.`;
    case 'length':
      return `The answer from ${withinSentence(label)} was cut off because it was too long.`;
    case 'network':
      return `The server could not reach ${withinSentence(label)}. Please try again later.`;
    case 'invalid_response':
      return `${label} returned an answer in an unexpected format.`;
    case 'aborted':
      return `The request to ${withinSentence(label)} was cancelled.`;
  }
}

export interface LlmErrorOptions {
  provider: LlmProviderId;
  /** Provider name used in the message, e.g. 'OpenAI'. */
  label: string;
  /** User-facing message; defaults to the kind's standard sentence. */
  message?: string;
  /** HTTP status of the provider's answer, when there was one. */
  status?: number;
  /** The provider's own error text, for logs only: never show it to users. */
  detail?: string;
  /** With kind 'length': the text received before the cut. */
  partialText?: string;
  cause?: unknown;
}

/** The only error the LLM layer throws. `message` is written for the user; `detail` is for logs. */
export class LlmError extends Error {
  readonly kind: LlmErrorKind;
  readonly provider: LlmProviderId;
  readonly status: number | undefined;
  readonly detail: string | undefined;
  readonly partialText: string | undefined;

  constructor(kind: LlmErrorKind, options: LlmErrorOptions) {
    super(options.message ?? defaultMessage(kind, options.label), { cause: options.cause });
    this.name = 'LlmError';
    this.kind = kind;
    this.provider = options.provider;
    this.status = options.status;
    this.detail = options.detail;
    this.partialText = options.partialText;
  }

  /** Whether the same request may succeed later (rate limit, timeout, outage, network). */
  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}

export function isLlmError(value: unknown): value is LlmError {
  return value instanceof LlmError;
}

/**
 * The kind of an HTTP error status, decided once for both providers (decision 004, "One mapping for both
 * providers"). Each provider reads its own error body first (OpenAI's `code`, Google's rpc status) and falls back
 * to this. 408 and 504 are a server or gateway giving up waiting: the trader's remedy is to try again, as for our own
 * deadline. 409 is a conflict inside the provider (Google's ABORTED, OpenAI's retried lock conflict), not a fault
 * in a stateless request: try again later.
 */
export function kindFromHttpStatus(status: number): LlmErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 429) return 'rate_limit';
  if (status === 409 || status >= 500) return 'unavailable';
  return 'bad_request';
}

/** Why an aborted call stopped: our own timeout, or the caller's signal (a TimeoutError reason counts as timeout). */
export function abortKind(timedOut: boolean, callerSignal: AbortSignal | undefined): 'timeout' | 'aborted' {
  if (timedOut) return 'timeout';
  const reason: unknown = callerSignal?.reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') return 'timeout';
  return 'aborted';
}

/** The sentence for a stream that closed in the middle of an answer. */
export const brokenStreamMessage = (label: string): string =>
  `The connection to ${withinSentence(label)} broke before the answer was complete. Please try again.`;

/**
 * A stream that ended without its finish: cut off in the middle when it had sent events, else not a stream of this
 * provider's events at all (a body in another format, e.g. JSON cut short).
 */
export function unfinishedStream(provider: LlmProviderId, label: string, events: number, detail: string): LlmError {
  return events > 0
    ? new LlmError('network', { provider, label, message: brokenStreamMessage(label), detail })
    : new LlmError('invalid_response', { provider, label, detail: `${detail}; no events at all` });
}
