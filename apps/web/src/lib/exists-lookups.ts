import type { ExistsResponse } from '@pipsense/contract';
import { config } from '../config/env';
import type { publicRequest } from './api';

const base = `${config.backend}/api/v1/auth`;

/**
 * The two existence lookups, through the given helper (the register screen's without auth, the profile screen's with
 * the token). An error during a lookup counts as 'does not exist' (docs/PRODUCT.md, Messages); the server still refuses
 * duplicates.
 */
export function existsLookups(request: typeof publicRequest) {
  const exists = (path: string, payload: Record<string, string>) =>
    request<ExistsResponse>('POST', `${base}/${path}`, payload).then(
      (body) => body.exists,
      () => false,
    );
  return {
    usernameExists: (username: string) => exists('check_username_exist', { username }),
    emailExists: (email: string) => exists('check_email_exist', { email }),
  };
}
