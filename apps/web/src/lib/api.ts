import { getToken, logout } from './token';

/**
 * The one way a call fails: the user-facing message (the server's, 'Unexpected response code: {status}', the
 * network error's own, or 'An error occurred'), with the HTTP status and the server's error code when there was one.
 */
export class ApiError extends Error {
  readonly status: number | undefined;
  readonly code: string | undefined;
  /** What the server says the client needs to act on the failure (errorBody's `details`, e.g. MISSING_COLUMN's). */
  readonly details: Record<string, unknown> | undefined;
  /** A refused body's problems by field (the server's VALIDATION_FAILED `issues`: path as `a.b.0`, message). */
  readonly issues: readonly FieldIssue[];
  constructor(
    message: string,
    status?: number,
    code?: string,
    details?: Record<string, unknown>,
    issues: readonly FieldIssue[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.issues = issues;
  }
}

export interface FieldIssue {
  path: string;
  message: string;
}

type Method = 'GET' | 'POST';
type Payload = Record<string, unknown> | undefined;

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

export function withQuery(url: string, payload: Payload): string {
  if (!payload) return url;
  const params = new URLSearchParams();
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  // A list repeats the parameter (`tag=a&tag=b`), as the server's repeatable filters read it.
  for (const [k, v] of Object.entries(payload))
    if (Array.isArray(v)) for (const item of v.filter(scalar)) params.append(k, String(item));
    else if (scalar(v)) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

const field = (body: unknown, name: string): string | undefined => {
  const value = (body as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'string' && value ? value : undefined;
};

const detailsOf = (body: unknown): Record<string, unknown> | undefined => {
  const value = (body as Record<string, unknown> | null | undefined)?.details;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
};

const issuesOf = (body: unknown): FieldIssue[] => {
  const value = (body as Record<string, unknown> | null | undefined)?.issues;
  if (!Array.isArray(value)) return [];
  return value.flatMap((issue: unknown) => {
    const { path, message } = (issue ?? {}) as Record<string, unknown>;
    return typeof path === 'string' && typeof message === 'string' ? [{ path, message }] : [];
  });
};

/**
 * docs/PRODUCT.md, Messages: a non-200 answer fails with the server's message, or 'Unexpected response code: {status}'.
 */
export function httpError(status: number, body: unknown): ApiError {
  return new ApiError(
    field(body, 'message') ?? `Unexpected response code: ${status}`,
    status,
    field(body, 'code'),
    detailsOf(body),
    issuesOf(body),
  );
}

/** A request that never got an answer fails with the error's own message, or 'An error occurred'. Aborts pass. */
export function networkError(error: unknown): ApiError {
  if (isAbort(error)) throw error;
  return new ApiError((error instanceof Error && error.message) || 'An error occurred');
}

/**
 * `fetch` with the bearer token. The one place a rejected session (HTTP 401) ends: it logs out, as the spec's
 * authenticated helper does.
 */
export async function authFetch(url: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const response = await fetch(url, { ...init, headers: { ...init.headers, ...authHeader() } });
  endRejectedSession(response.status);
  return response;
}

/** The bearer token's header, when signed in. */
function authHeader(): Record<string, string> {
  const token = getToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** A rejected session (HTTP 401) ends here, for `authFetch` and `authUpload` alike. */
function endRejectedSession(status: number) {
  if (status !== 401) return;
  console.warn('Session rejected by the server; signing out.');
  logout();
}

export interface UploadOptions {
  /** Bytes sent so far of `total` (the whole request body), as the browser reports them. */
  onProgress?: (sent: number, total: number) => void;
  /** Called once the body is all sent: the server is reading it now. */
  onSent?: () => void;
  signal?: AbortSignal;
}

/**
 * POST `form` as multipart/form-data with the bearer token, reporting upload progress (XMLHttpRequest: `fetch` has no
 * upload progress). Resolves with the JSON body of an HTTP 200; fails with the same ApiError as `authRequest`, and a
 * 401 logs out as `authFetch` does. An abort rejects with an AbortError.
 */
export function authUpload<T>(url: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  const { onProgress, onSent, signal } = options;
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was aborted.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(authHeader())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded, event.total);
    };
    xhr.upload.onload = () => onSent?.();
    xhr.onload = () => {
      endRejectedSession(xhr.status);
      let body: unknown = undefined;
      try {
        body = JSON.parse(xhr.responseText) as unknown;
      } catch {
        body = undefined;
      }
      // docs/PRODUCT.md, Request helpers: success only when the HTTP status is exactly 200.
      if (xhr.status === 200) resolve(body as T);
      else reject(httpError(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError('The upload failed: the server could not be reached.'));
    xhr.onabort = () => reject(new DOMException('The upload was aborted.', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/**
 * GET a binary resource (an attached image) with the bearer token in its header, never in its URL, so an `<img>` shows
 * it through an object URL. Fails with the same ApiError as `authRequest`; a 401 logs out as `authFetch` does.
 */
export async function authBlob(url: string, signal?: AbortSignal): Promise<Blob> {
  let response: Response;
  try {
    response = await authFetch(url, signal ? { signal } : {});
  } catch (error) {
    throw networkError(error);
  }
  if (response.status !== 200) {
    let body: unknown = undefined;
    try {
      body = await response.json();
    } catch (error) {
      if (isAbort(error)) throw error;
    }
    throw httpError(response.status, body);
  }
  return response.blob();
}

async function send<T>(auth: boolean, method: Method, url: string, payload: Payload, signal?: AbortSignal) {
  const isGet = method === 'GET';
  const init = {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(isGet ? {} : { body: JSON.stringify(payload ?? {}) }),
    ...(signal ? { signal } : {}),
  };
  const target = isGet ? withQuery(url, payload) : url;
  let response: Response;
  try {
    response = await (auth ? authFetch(target, init) : fetch(target, init));
  } catch (error) {
    throw networkError(error);
  }
  let body: unknown = undefined;
  try {
    body = await response.json();
  } catch (error) {
    if (isAbort(error)) throw error;
    body = undefined;
  }
  // docs/PRODUCT.md, Request helpers: success only when the HTTP status is exactly 200.
  if (response.status !== 200) throw httpError(response.status, body);
  return body as T;
}

/**
 * The request helper without auth (docs/PRODUCT.md, Request helpers): JSON, GET payload as query. Resolves with the
 * body; fails with an ApiError.
 */
export const publicRequest = <T>(method: Method, url: string, payload?: Payload, signal?: AbortSignal) =>
  send<T>(false, method, url, payload, signal);

/** The request helper with the bearer token (see `authFetch` for a rejected session). */
export const authRequest = <T>(method: Method, url: string, payload?: Payload, signal?: AbortSignal) =>
  send<T>(true, method, url, payload, signal);

/** The message a form shows for a failure: the call's own, or the form's fallback for anything else. */
export const failureMessage = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.message ? error.message : fallback;

/**
 * A refused form's messages by field: each of the server's issues under the first segment of its path (`stop`,
 * `groups`), the first message a field gets kept; `''` holds a message of no field.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(error instanceof ApiError)) return out;
  for (const issue of error.issues) {
    const key = issue.path.split('.')[0] ?? '';
    out[key] ??= issue.message;
  }
  return out;
}
