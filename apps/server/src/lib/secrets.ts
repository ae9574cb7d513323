import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../config/env';

/** Reads a secret from env, else from `<dataDir>/<name>`, generating it there once with mode 0600. */
function secretFile(dataDir: string, name: string, make: () => string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const value = make();
  writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return value;
}

export interface Secrets {
  jwtSecret: string;
  encryptionKey: Buffer;
}

export function loadSecrets(env: Env): Secrets {
  const jwtSecret =
    env.JWT_SECRET ?? secretFile(env.DATA_DIR, 'jwt-secret', () => randomBytes(48).toString('base64url'));
  const keyHex =
    env.ENCRYPTION_KEY ?? secretFile(env.DATA_DIR, 'encryption-key', () => randomBytes(32).toString('hex'));
  return { jwtSecret, encryptionKey: Buffer.from(keyHex, 'hex') };
}
