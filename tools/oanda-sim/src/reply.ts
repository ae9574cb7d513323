// What a route handler answers, and OANDA's error bodies (texts from the reference fixtures).

export interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export function ok(body: unknown, headers?: Record<string, string>): Reply {
  return { status: 200, body, headers };
}

export function error(status: number, errorMessage: string, extra?: Record<string, string>): Reply {
  return { status, body: { ...extra, errorMessage } };
}

export const ERRORS = {
  unauthorized: () => error(401, 'Insufficient authorization to perform request.'),
  forbidden: () => error(403, 'The provided request was forbidden.'),
  methodNotAllowed: () => error(405, 'Method Not Allowed'),
  notFound: () => error(404, 'The requested resource was not found.'),
  missing: () => error(400, 'The request was missing required data'),
  invalid: (name: string) => error(400, `Invalid value specified for '${name}'`),
  maxExceeded: (name: string) => error(400, `Maximum value for '${name}' exceeded`),
  rateLimited: () => error(429, 'Requests are being rate limited'),
  noSuchTrade: (lastTransactionID: string) =>
    ({
      status: 404,
      body: { lastTransactionID, errorMessage: 'The trade ID specified does not exist', errorCode: 'NO_SUCH_TRADE' },
    }) as Reply,
  noSuchTransaction: (lastTransactionID: string) =>
    ({
      status: 404,
      body: {
        lastTransactionID,
        errorMessage: 'The transaction ID specified does not exist',
        errorCode: 'NO_SUCH_TRANSACTION',
      },
    }) as Reply,
  rangeNotSatisfiable: () => error(416, 'The requested range of transactions is not satisfiable'),
};

/** Default bodies of injected server failures (OANDA documents none). */
export function failureBody(status: number): unknown {
  switch (status) {
    case 429:
      return { errorMessage: 'Requests are being rate limited' };
    case 500:
      return { errorMessage: 'An internal server error occurred' };
    case 502:
      return { errorMessage: 'Bad Gateway' };
    case 503:
      return { errorMessage: 'Service Unavailable' };
    default:
      return { errorMessage: 'Gateway Timeout' };
  }
}
