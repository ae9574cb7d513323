/** The session token lives in localStorage under `token`, as JSON text (docs/PRODUCT.md, Data shapes). */
const KEY = 'token';

export function getToken(): string | null {
  const raw = localStorage.getItem(KEY);
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'string' && value ? value : null;
  } catch {
    return null;
  }
}

export const hasToken = () => localStorage.getItem(KEY) !== null;
export const setToken = (token: string) => localStorage.setItem(KEY, JSON.stringify(token));
const removeToken = () => localStorage.removeItem(KEY);

function decodePayload(token: string): { exp?: unknown } | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(
      part
        .replaceAll('-', '+')
        .replaceAll('_', '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    const payload: unknown = JSON.parse(json);
    return payload && typeof payload === 'object' ? payload : null;
  } catch {
    return null;
  }
}

type TokenState = 'missing' | 'invalid' | 'expired' | 'valid';

/** docs/PRODUCT.md, Session: undecodable, or `exp` × 1000 earlier than now, means the session is over. */
export function tokenState(now = Date.now()): TokenState {
  if (!hasToken()) return 'missing';
  const token = getToken();
  const payload = token ? decodePayload(token) : null;
  if (!payload || typeof payload.exp !== 'number') return 'invalid';
  return payload.exp * 1000 < now ? 'expired' : 'valid';
}

/** Set once the page is on its way to another after `clearSession`: a late 401 must not send it elsewhere. */
let leaving = false;

/** Logout as the spec has it: remove the token, go to `/` and reload. */
export function logout(): void {
  removeToken();
  if (!leaving) window.location.assign('/');
}

const FLASH = 'pipsense-flash';

/** Ends the session in this browser and loads `to`, where `message` is shown once (the sign-in page reads it). */
export function clearSession(to: string, message?: string): void {
  removeToken();
  if (message) sessionStorage.setItem(FLASH, message);
  leaving = true;
  window.location.assign(to);
}

let flash: { message: string | undefined } | undefined;

/**
 * The message `clearSession` left for this page load: read and removed from storage once, then the same answer for
 * the rest of the load (a screen may mount more than once while its chunks arrive).
 */
export function takeFlash(): string | undefined {
  if (!flash) {
    flash = { message: sessionStorage.getItem(FLASH) ?? undefined };
    sessionStorage.removeItem(FLASH);
  }
  return flash.message;
}
