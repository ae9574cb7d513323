/** A failure the user can act on: status, a stable code, and a message written for the user. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Sent as the envelope's `details`: what the client needs to act on the failure. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') => new AppError(400, code, message);
export const unauthorized = (message = 'Your session has expired. Please sign in again.') =>
  new AppError(401, 'UNAUTHORIZED', message);
export const notFound = (message: string) => new AppError(404, 'NOT_FOUND', message);
export const conflict = (message: string, code = 'CONFLICT') => new AppError(409, code, message);
/** 429 in the envelope; `retryAfterSeconds` also goes out as Retry-After when the wait is known. */
export const tooManyRequests = (message: string, code = 'RATE_LIMITED', retryAfterSeconds?: number) =>
  new AppError(
    429,
    code,
    message,
    retryAfterSeconds === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );
