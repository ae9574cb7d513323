import type { ApiResult } from '../../lib/api';

/** A failed call with the server's user-facing message and, when known, its HTTP status and error code. */
export class ApiError extends Error {
  readonly status: number | undefined;
  readonly code: string | undefined;
  constructor(message: string, status?: number, code?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/** Like lib/api's `unwrap`, but keeps the status (and the error code, once the helper passes it on). */
export async function unwrapApi<T>(promise: Promise<ApiResult<T>>): Promise<T> {
  const result = await promise;
  if (result.success) return result.data;
  const code = (result as { code?: unknown }).code;
  throw new ApiError(result.message, result.status, typeof code === 'string' ? code : undefined);
}

export const OANDA_NOT_CONFIGURED = 'OANDA_NOT_CONFIGURED';

/**
 * Whether a trading call failed because the user has not saved an OANDA configuration yet. The request helper does
 * not hand the error code on today, so a 400 without a code counts as well: these screens only send a valid page and
 * limit, which leaves the missing configuration as the 400 they can meet.
 */
export function isOandaNotConfigured(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.code !== undefined) return error.code === OANDA_NOT_CONFIGURED;
  return error.status === 400;
}
