import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/** AES-256-GCM with a random 96-bit nonce; output is `v1:<iv>:<tag>:<ciphertext>` in base64url. */
export function createCipher(key: Buffer) {
  if (key.length !== 32) throw new Error('encryption key must be 32 bytes');
  return {
    encrypt(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join(':');
    },
    decrypt(sealed: string): string {
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('unrecognised ciphertext');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
export type Cipher = ReturnType<typeof createCipher>;

/** Shows only the last four characters, as the info record returns secrets. */
export function mask(secret: string): string {
  if (!secret) return '';
  return `••••${secret.slice(-4)}`;
}
export const isMasked = (value: string) => value.startsWith('••••');
