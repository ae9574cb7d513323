import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** v1: no associated data (older values; read only by the upgrade at startup). v2: bound to associated data. */
const LEGACY = 'v1';
const VERSION = 'v2';

/**
 * AES-256-GCM with a random 96-bit nonce; output is `v2:<iv>:<tag>:<ciphertext>` in base64url. `boundTo` (the owning
 * user's id) is authenticated as associated data: the ciphertext decrypts only with the same value, so a ciphertext
 * copied into another user's row does not decrypt (docs/decisions/014-secrets-at-rest.md).
 */
export function createCipher(key: Buffer) {
  if (key.length !== 32) throw new Error('encryption key must be 32 bytes');

  function open(sealed: string, version: string, boundTo: string | undefined): string {
    const [v, iv, tag, body] = sealed.split(':');
    if (v !== version || !iv || !tag || body === undefined) throw new Error('unrecognised ciphertext');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    if (boundTo !== undefined) decipher.setAAD(Buffer.from(boundTo, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  return {
    encrypt(plain: string, boundTo: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(boundTo, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join(':');
    },
    /** Throws when the key differs, the value was changed, or it was sealed for another `boundTo`. */
    decrypt: (sealed: string, boundTo: string): string => open(sealed, VERSION, boundTo),
    isLegacy: (sealed: string): boolean => sealed.startsWith(`${LEGACY}:`),
    /** A v1 ciphertext (no associated data): only to re-seal it as v2 at startup. */
    decryptLegacy: (sealed: string): string => open(sealed, LEGACY, undefined),
  };
}
export type Cipher = ReturnType<typeof createCipher>;

/** Shows only the last four characters, as the info record returns secrets. */
export function mask(secret: string): string {
  if (!secret) return '';
  return `••••${secret.slice(-4)}`;
}
export const isMasked = (value: string) => value.startsWith('••••');
