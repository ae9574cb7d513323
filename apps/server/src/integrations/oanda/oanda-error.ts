import type { Mode } from '@pipsense/contract';

/**
 * Why a call to OANDA failed:
 * - auth: 401, the token is wrong, revoked or belongs to the other environment;
 * - forbidden: 403, the token may not touch this account or action;
 * - not_found / bad_request / rejected: OANDA answered 404 / 400 / another 4xx;
 * - rate_limited, unavailable: 429 / 5xx that outlasted the retries;
 * - timeout: no complete answer within the per-request time limit;
 * - network: no connection, or it broke before the answer began;
 * - truncated: the connection broke while the answer was being read;
 * - malformed: a complete answer that is not the JSON v20 documents.
 */
export type OandaErrorKind =
  | 'auth'
  | 'forbidden'
  | 'not_found'
  | 'bad_request'
  | 'rejected'
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  | 'network'
  | 'truncated'
  | 'malformed';

export interface OandaErrorDetails {
  kind: OandaErrorKind;
  mode: Mode;
  /** Method and path of the request (never headers: the token stays out of errors and logs). */
  request: string;
  status?: number | undefined;
  /** OANDA's own `errorMessage` / `errorCode`, when the body carried them. */
  oandaMessage?: string | undefined;
  oandaCode?: string | undefined;
  requestId?: string | undefined;
  /** Seconds OANDA asked us to wait (429 Retry-After). */
  retryAfterSeconds?: number | undefined;
  attempts: number;
}

/** A typed failure from the v20 client; services turn it into an AppError with a message for the user. */
export class OandaError extends Error {
  readonly kind: OandaErrorKind;
  readonly mode: Mode;
  readonly request: string;
  readonly status: number | undefined;
  readonly oandaMessage: string | undefined;
  readonly oandaCode: string | undefined;
  readonly requestId: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly attempts: number;

  constructor(details: OandaErrorDetails, message: string) {
    super(message);
    this.name = 'OandaError';
    this.kind = details.kind;
    this.mode = details.mode;
    this.request = details.request;
    this.status = details.status;
    this.oandaMessage = details.oandaMessage;
    this.oandaCode = details.oandaCode;
    this.requestId = details.requestId;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.attempts = details.attempts;
  }
}
