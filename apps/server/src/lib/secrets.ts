import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../config/env';

/** A secret that cannot be used: the server refuses to start and says what to do (never makes a new one silently). */
class SecretsError extends Error {}

interface SecretSpec {
  name: 'jwt-secret' | 'encryption-key';
  make: () => string;
  /** Why the value cannot be used, or undefined when it can. */
  problem: (value: string) => string | undefined;
  /** What to do about a damaged file. */
  remedy: string;
}

const JWT: SecretSpec = {
  name: 'jwt-secret',
  make: () => randomBytes(48).toString('base64url'),
  problem: (v) =>
    v.length < 32
      ? `it holds ${v.length} characters, at least 32 are needed`
      : /\s/.test(v)
        ? 'it holds whitespace inside the secret'
        : undefined,
  remedy:
    'Restore the file from a backup, or set JWT_SECRET (e.g. `openssl rand -base64 48`). Deleting the file makes a new secret and signs every user out.',
};

const ENCRYPTION: SecretSpec = {
  name: 'encryption-key',
  make: () => randomBytes(32).toString('hex'),
  problem: (v) =>
    /^[0-9a-fA-F]{64}$/.test(v) ? undefined : `it holds ${v.length} characters, 64 hexadecimal characters are needed`,
  remedy:
    'Restore the file from a backup, or set ENCRYPTION_KEY to the key in use. Deleting the file makes a new key that cannot read the saved OANDA tokens: every user would have to enter theirs again.',
};

/** Creates DATA_DIR readable by its owner only (0700) when it does not exist yet. */
function ensureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
}

/**
 * Reads `<dataDir>/<name>`, generating it there once with mode 0600. An existing file is checked, never replaced:
 * a short, empty or damaged file stops the start with a message naming the file and what to do.
 */
function secretFile(dataDir: string, spec: SecretSpec): string {
  ensureDataDir(dataDir);
  const file = join(dataDir, spec.name);
  let value: string;
  try {
    value = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    value = spec.make();
    try {
      writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
    } catch (raced) {
      // Another process made it first: use theirs.
      if ((raced as NodeJS.ErrnoException).code !== 'EEXIST') throw raced;
      return secretFile(dataDir, spec);
    }
  }
  const problem = spec.problem(value);
  if (problem) throw new SecretsError(`The secret file ${file} is damaged: ${problem}. ${spec.remedy}`);
  // An existing file readable by others is tightened at the start, with the rest of DATA_DIR (lib/data-dir.ts).
  return value;
}

export interface Secrets {
  jwtSecret: string;
  encryptionKey: Buffer;
}

/** From env (checked by config/env.ts), else from the files in DATA_DIR (SQLite only: env.ts requires both on PostgreSQL). */
export function loadSecrets(env: Env): Secrets {
  const jwtSecret = env.JWT_SECRET ?? secretFile(env.DATA_DIR, JWT);
  const keyHex = env.ENCRYPTION_KEY ?? secretFile(env.DATA_DIR, ENCRYPTION);
  return { jwtSecret, encryptionKey: Buffer.from(keyHex, 'hex') };
}
