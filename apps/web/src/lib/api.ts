import { getToken, logout } from './token';

export type ApiResult<T> =
  { success: true; data: T; message: string } | { success: false; message: string; status?: number; code?: string };

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Payload = Record<string, unknown> | undefined;

function withQuery(url: string, payload: Payload): string {
  if (!payload) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(payload))
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

async function send<T>(
  method: Method,
  url: string,
  payload: Payload,
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<ApiResult<T>> {
  try {
    const isGet = method === 'GET';
    const response = await fetch(isGet ? withQuery(url, payload) : url, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      ...(isGet ? {} : { body: JSON.stringify(payload ?? {}) }),
      ...(signal ? { signal } : {}),
    });
    let body: unknown = undefined;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    if (response.status === 200) {
      const message = (body as { message?: unknown } | undefined)?.message;
      return { success: true, data: body as T, message: typeof message === 'string' ? message : '' };
    }
    const serverMessage = (body as { message?: unknown } | undefined)?.message;
    const code = (body as { code?: unknown } | undefined)?.code;
    return {
      success: false,
      status: response.status,
      ...(typeof code === 'string' ? { code } : {}),
      message:
        typeof serverMessage === 'string' && serverMessage
          ? serverMessage
          : `Unexpected response code: ${response.status}`,
    };
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    return { success: false, message: error instanceof Error && error.message ? error.message : 'An error occurred' };
  }
}

/** SPEC §7's helper without auth: JSON, GET payload as query, success only on HTTP 200. */
export function publicRequest<T>(method: Method, url: string, payload?: Payload): Promise<ApiResult<T>> {
  return send<T>(method, url, payload, {});
}

/** SPEC §7's helper with the bearer token; a 401 means the session is over, so it logs out. */
export async function authRequest<T>(
  method: Method,
  url: string,
  payload?: Payload,
  signal?: AbortSignal,
): Promise<ApiResult<T>> {
  const token = getToken();
  const result = await send<T>(method, url, payload, token ? { Authorization: `Bearer ${token}` } : {}, signal);
  if (!result.success && result.status === 401) {
    console.warn('Session rejected by the server; signing out.');
    logout();
  }
  return result;
}

/** For TanStack Query: throws the user-facing message on failure. */
export async function unwrap<T>(promise: Promise<ApiResult<T>>): Promise<T> {
  const result = await promise;
  if (!result.success) throw new Error(result.message);
  return result.data;
}
