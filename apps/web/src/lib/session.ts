import type { Envelope } from '@pipsense/contract';
import { config } from '../config/env';
import { authRequest } from './api';
import { clearSession, logout } from './token';

const auth = `${config.backend}/api/v1/auth`;

/**
 * Logout: the server revokes this token, then the browser forgets it. A server that cannot be reached
 * does not keep anyone signed in here: the browser is cleared either way.
 */
export async function signOut(): Promise<void> {
  try {
    await authRequest<Envelope>('POST', `${auth}/logout`);
  } catch (error) {
    console.warn('The server could not revoke the session; it ends in this browser.', error);
  }
  logout();
}

/** Log out everywhere: every session of the account ends. Fails (and keeps this one) when the server refuses. */
export async function signOutEverywhere(): Promise<void> {
  const result = await authRequest<Envelope>('POST', `${auth}/logout_all`);
  clearSession('/login', result.message);
}
