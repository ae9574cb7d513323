import { AppError } from '../../lib/errors';
import { OandaError } from '../../integrations/oanda/oanda-error';
import { BrokerDataError } from './broker-data';

export const SETTINGS = 'Settings → Trading Platforms';

export const notConfigured = () =>
  new AppError(400, 'OANDA_NOT_CONFIGURED', `Connect your OANDA account in ${SETTINGS} first.`);

export interface FailureContext {
  /** The OANDA account the failing request was about, when it was about one. */
  accountId?: string | undefined;
  /** A sync keeps what it stored so far; say so, so that nobody fears for their data. */
  sync?: boolean;
}

/**
 * Turns a v20 client failure into the message a trader can act on. Upstream failures answer 502/503/504, never
 * 401: the web app signs the user out on 401, and a rejected OANDA token is not an expired PipSense session.
 */
export function oandaFailure(error: unknown, context: FailureContext = {}): unknown {
  const retry = context.sync ? ' Nothing stored was lost; sync again to finish.' : '';
  if (error instanceof BrokerDataError)
    return withCause(
      new AppError(502, 'OANDA_BAD_RESPONSE', `OANDA sent data PipSense cannot store (${error.message}).${retry}`),
      error,
    );
  if (!(error instanceof OandaError)) return error;
  const mode = error.mode;
  const host = mode === 'live' ? 'live' : 'practice (demo)';
  const account = context.accountId;
  const make = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
    withCause(new AppError(status, code, message, headers), error);

  switch (error.kind) {
    case 'auth':
      return make(502, 'OANDA_AUTH', `OANDA rejected the access token for ${mode} mode. Check it in ${SETTINGS}.`);
    case 'forbidden':
      return make(
        502,
        'OANDA_FORBIDDEN',
        account
          ? `OANDA does not let this token use account ${account} in ${mode} mode. Check the Account ID and the token in ${SETTINGS}.`
          : `OANDA refused the request for ${mode} mode. Check the token in ${SETTINGS}.`,
      );
    case 'not_found':
      return account
        ? make(
            502,
            'OANDA_ACCOUNT_NOT_FOUND',
            `OANDA has no account ${account} in ${mode} mode. Check the Account ID and the mode in ${SETTINGS}.`,
          )
        : make(
            502,
            'OANDA_NOT_FOUND',
            `OANDA could not find what was asked for${error.oandaMessage ? `: ${error.oandaMessage}` : ''}.`,
          );
    case 'bad_request':
      return make(400, 'OANDA_BAD_REQUEST', `OANDA rejected the request: ${error.oandaMessage ?? error.message}`);
    case 'rejected':
      return make(502, 'OANDA_REJECTED', `OANDA refused the request (HTTP ${error.status ?? '?'}). Try again later.`);
    case 'rate_limited': {
      const wait = error.retryAfterSeconds;
      return make(
        503,
        'OANDA_RATE_LIMITED',
        `OANDA is limiting requests right now. Try again in ${wait ? `${wait} seconds` : 'a minute'}.${retry}`,
        wait ? { 'retry-after': String(wait) } : {},
      );
    }
    case 'unavailable':
      return make(
        502,
        'OANDA_UNAVAILABLE',
        `OANDA is not answering properly right now (HTTP ${error.status ?? '5xx'}). Try again in a few minutes.${retry}`,
      );
    case 'timeout':
      return make(504, 'OANDA_TIMEOUT', `OANDA did not answer in time. Try again in a moment.${retry}`);
    case 'network':
      return make(502, 'OANDA_UNREACHABLE', `Could not reach OANDA's ${host} server. Try again in a moment.${retry}`);
    case 'truncated':
      return make(502, 'OANDA_BAD_RESPONSE', `OANDA's answer was cut off. Try again in a moment.${retry}`);
    case 'malformed':
      return make(502, 'OANDA_BAD_RESPONSE', `OANDA sent an answer PipSense could not read. Try again later.${retry}`);
  }
}

/** Runs a step about one OANDA account, so that a failure names that account. */
export async function aboutAccount<T>(accountId: string, sync: boolean, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw oandaFailure(error, { accountId, sync });
  }
}

/** Keeps the technical reason (request path, OANDA's words, never the token) for the server log. */
function withCause(appError: AppError, cause: Error): AppError {
  Object.defineProperty(appError, 'cause', { value: cause, enumerable: false });
  return appError;
}
