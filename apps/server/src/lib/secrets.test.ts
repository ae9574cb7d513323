import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envWith, loadEnv } from '../config/env';
import { buildApp } from '../app';
import { loadSecrets } from './secrets';
import { tempDirs } from '../test/temp-dirs';

/* SECURITY.md, Secrets at rest: secrets shared by every instance on PostgreSQL, secret files checked and never silently
 * replaced, DATA_DIR and the SQLite files readable by their owner only (an existing loose DATA_DIR: data-dir.test.ts).
 * */
const tempDir = tempDirs('secrets');
const mode = (path: string) => statSync(path).mode & 0o777;

describe('PostgreSQL without shared secrets', () => {
  const url = 'postgres://postgres@127.0.0.1:5432/pipsense';

  it('refuses to start, naming both secrets and how to make them', () => {
    expect(() => loadEnv({ DATABASE_URL: url })).toThrow(
      /DATABASE_URL: PostgreSQL needs JWT_SECRET and ENCRYPTION_KEY set, the same in every instance \(missing: JWT_SECRET and ENCRYPTION_KEY\)\. .*openssl rand -base64 48.*openssl rand -hex 32/,
    );
    expect(() => loadEnv({ DATABASE_URL: url, JWT_SECRET: 'x'.repeat(40) })).toThrow(/missing: ENCRYPTION_KEY\)/);
    expect(() => loadEnv({ DATABASE_URL: url, ENCRYPTION_KEY: 'ab'.repeat(32) })).toThrow(/missing: JWT_SECRET\)/);
  });

  it('starts with both set, and SQLite still starts with neither', () => {
    expect(
      loadEnv({ DATABASE_URL: url, JWT_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32) }).DATABASE_URL,
    ).toBe(url);
    expect(loadEnv({}).JWT_SECRET).toBeUndefined();
  });
});

describe('the secret files in DATA_DIR', () => {
  it('are generated once, mode 0600, in a DATA_DIR created 0700, and read back the same', () => {
    const dataDir = join(tempDir(), 'new', 'data');
    const first = loadSecrets(envWith({ DATA_DIR: dataDir }));
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'jwt-secret'))).toBe(0o600);
    expect(mode(join(dataDir, 'encryption-key'))).toBe(0o600);
    const again = loadSecrets(envWith({ DATA_DIR: dataDir }));
    expect(again.jwtSecret).toBe(first.jwtSecret);
    expect(again.encryptionKey.equals(first.encryptionKey)).toBe(true);
  });

  it('stop the start on a short or damaged file, with the file and what to do, and never replace it', () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'jwt-secret'), 'short\n');
    expect(() => loadSecrets(envWith({ DATA_DIR: dataDir }))).toThrow(
      /The secret file .*jwt-secret is damaged: it holds 5 characters, at least 32 are needed\. Restore the file from a backup, or set JWT_SECRET/,
    );
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8')).toBe('short\n');

    const other = tempDir();
    writeFileSync(join(other, 'encryption-key'), `${'z'.repeat(64)}\n`);
    expect(() => loadSecrets(envWith({ DATA_DIR: other }))).toThrow(
      /The secret file .*encryption-key is damaged: it holds 64 characters, 64 hexadecimal characters are needed\. .*cannot read the saved OANDA tokens/,
    );
    writeFileSync(join(other, 'encryption-key'), '');
    expect(() => loadSecrets(envWith({ DATA_DIR: other }))).toThrow(/encryption-key is damaged: it holds 0 characters/);
    expect(readFileSync(join(other, 'encryption-key'), 'utf8')).toBe('');
  });

  it('a damaged file stops buildApp before the database is opened', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'jwt-secret'), '\n');
    await expect(buildApp({ env: envWith({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), logger: false })).rejects.toThrow(
      /jwt-secret is damaged/,
    );
    expect(existsSync(join(dataDir, 'pipsense.db'))).toBe(false);
  });
});

describe('the SQLite files', () => {
  it('are created in a DATA_DIR of mode 0700, the database, its -wal and -shm files 0600', async () => {
    const dataDir = join(tempDir(), 'fresh');
    const app = await buildApp({
      env: envWith({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        WEB_DIST: join(dataDir, 'no-web'),
        EXCURSION_REQUESTS_PER_MINUTE: '0',
      }),
      logger: false,
    });
    try {
      // A write, so the -wal and -shm files exist.
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: { username: 'perm_user', email: 'perm@example.com', password: 'correct horse battery' },
      });
      expect(res.statusCode).toBe(200);
      expect(mode(dataDir)).toBe(0o700);
      for (const name of ['pipsense.db', 'pipsense.db-wal', 'pipsense.db-shm'])
        expect({ name, mode: mode(join(dataDir, name)).toString(8) }).toEqual({ name, mode: '600' });
    } finally {
      await app.close();
    }
  });
});
