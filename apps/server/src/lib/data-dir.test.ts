import { chmodSync, existsSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { envWith } from '../config/env';
import { buildApp } from '../app';
import { DataDirPermissionError, describeModeChanges, secureDataDir } from './data-dir';
import { tempDirs } from '../test/temp-dirs';

/*
 * SECURITY.md, Secrets at rest: an existing DATA_DIR open to other users is tightened at the start (0700, its files
 * 0600), said in one warn line; a mode that cannot be changed stops the start with what to do.
 */
const tempDir = tempDirs('datadir');
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** A DATA_DIR as an older PipSense (default umask) or a careless `cp -r` left it. */
function looseDataDir() {
  const root = tempDir();
  const dataDir = join(root, 'data');
  mkdirSync(dataDir);
  chmodSync(dataDir, 0o755);
  writeFileSync(join(dataDir, 'jwt-secret'), `${'s'.repeat(48)}\n`, { mode: 0o644 });
  writeFileSync(join(dataDir, 'encryption-key'), `${'ab'.repeat(32)}\n`, { mode: 0o640 });
  writeFileSync(join(dataDir, 'already-tight'), 'x', { mode: 0o600 });
  // Left alone: a subdirectory, and a link to a file outside (its target is not PipSense's to change).
  mkdirSync(join(dataDir, 'backups'), { mode: 0o755 });
  chmodSync(join(dataDir, 'backups'), 0o755);
  const outside = join(root, 'outside.txt');
  writeFileSync(outside, 'not ours', { mode: 0o644 });
  chmodSync(outside, 0o644);
  symlinkSync(outside, join(dataDir, 'link'));
  return { dataDir, outside };
}

describe('secureDataDir', () => {
  it('creates a missing DATA_DIR 0700 and reports nothing changed', () => {
    const dataDir = join(tempDir(), 'new', 'data');
    expect(secureDataDir(dataDir)).toEqual([]);
    expect(mode(dataDir)).toBe('700');
  });

  it('tightens an existing DATA_DIR to 0700 and its files to 0600, and leaves links and subdirectories', () => {
    const { dataDir, outside } = looseDataDir();
    const changes = secureDataDir(dataDir);
    expect(changes.map((c) => [c.path, c.from.toString(8), c.to.toString(8)])).toEqual(
      expect.arrayContaining([
        [dataDir, '755', '700'],
        [join(dataDir, 'jwt-secret'), '644', '600'],
        [join(dataDir, 'encryption-key'), '640', '600'],
      ]),
    );
    expect(changes).toHaveLength(3);
    expect(mode(dataDir)).toBe('700');
    expect(mode(join(dataDir, 'jwt-secret'))).toBe('600');
    expect(mode(join(dataDir, 'encryption-key'))).toBe('600');
    expect(mode(join(dataDir, 'backups')), 'a subdirectory is left as it is').toBe('755');
    expect(mode(outside), "a link's target outside DATA_DIR is left as it is").toBe('644');
    expect(secureDataDir(dataDir), 'a second start finds nothing to change').toEqual([]);
  });

  it('says what was changed in one line', () => {
    const { dataDir } = looseDataDir();
    const line = describeModeChanges(dataDir, secureDataDir(dataDir));
    expect(line).toMatch(new RegExp(`^DATA_DIR ${dataDir} was open to other users; tightened to its owner only: `));
    expect(line).toContain(`${dataDir} 0755 → 0700`);
    expect(line).toContain('jwt-secret 0644 → 0600');
    expect(line).toContain('encryption-key 0640 → 0600');
  });

  it('refuses a DATA_DIR that is a file', () => {
    const file = join(tempDir(), 'data');
    writeFileSync(file, '');
    expect(() => secureDataDir(file)).toThrow(DataDirPermissionError);
    expect(() => secureDataDir(file)).toThrow(`DATA_DIR ${file} is not a directory.`);
  });

  // /proc/self is 0555 and the kernel refuses any chmod of it, even by root: a directory whose mode cannot change.
  it.skipIf(process.platform !== 'linux')('refuses, saying what to do, when the mode cannot be changed', () => {
    expect(() => secureDataDir('/proc/self')).toThrow(DataDirPermissionError);
    expect(() => secureDataDir('/proc/self')).toThrow(
      /^\/proc\/self is open to other users \(mode 0555\) and this process cannot change it to 0500 \(EPERM\)\. .*run `chmod 0500 \/proc\/self`, or point DATA_DIR at a directory this user owns\.$/,
    );
  });
});

describe('the server start', () => {
  const start = (dataDir: string, lines: string[]) =>
    buildApp({
      env: envWith({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        WEB_DIST: join(dataDir, 'no-web'),
        EXCURSION_REQUESTS_PER_MINUTE: '0',
      }),
      logStream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
          done();
        },
      }),
    });

  it('tightens a loose DATA_DIR with one warn line, and says nothing once it is tight', async () => {
    const { dataDir } = looseDataDir();
    writeFileSync(join(dataDir, 'pipsense.db'), '', { mode: 0o644 });
    const lines: string[] = [];
    const app = await start(dataDir, lines);
    await app.close();
    const about = lines
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .filter((l) => l.msg.includes('DATA_DIR'));
    expect(
      about.map((l) => l.level),
      'one warn line (pino level 40) about DATA_DIR',
    ).toEqual([40]);
    const [line] = about;
    expect(line!.msg).toContain(`DATA_DIR ${dataDir} was open to other users`);
    for (const part of [`${dataDir} 0755 → 0700`, 'jwt-secret 0644 → 0600', 'pipsense.db 0644 → 0600'])
      expect(line!.msg).toContain(part);
    expect(mode(dataDir)).toBe('700');
    for (const name of ['pipsense.db', 'jwt-secret', 'encryption-key'])
      expect({ name, mode: mode(join(dataDir, name)) }).toEqual({ name, mode: '600' });

    const again: string[] = [];
    await (await start(dataDir, again)).close();
    expect(
      again.filter((l) => l.includes('DATA_DIR')),
      'a tight DATA_DIR is not mentioned',
    ).toEqual([]);
  });

  it.skipIf(process.platform !== 'linux')(
    'stops before the database is opened when the mode cannot be changed',
    async () => {
      await expect(start('/proc/self', [])).rejects.toThrow(DataDirPermissionError);
      expect(existsSync('/proc/self/pipsense.db')).toBe(false);
    },
  );
});
