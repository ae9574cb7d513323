import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from './data-dir-lock';
import { tempDirs } from '../test/temp-dirs';

const fresh = tempDirs('lock');

describe('the data directory lock', () => {
  it('is held by one taker at a time, names the holder, and is free again once released', () => {
    const dir = join(fresh(), 'nested', 'data');
    const lock = lockDataDir(dir);
    expect(existsSync(join(dir, 'pipsense.lock'))).toBe(true);
    // Owner-only like the rest of DATA_DIR, or every start would find it open to others (lib/data-dir.ts).
    for (const name of ['pipsense.lock', 'pipsense.lock.owner'])
      expect({ name, mode: (statSync(join(dir, name)).mode & 0o777).toString(8) }).toEqual({ name, mode: '600' });
    let refused: unknown;
    try {
      lockDataDir(dir);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^Another PipSense server \\(pid ${process.pid} on .+, since .+\\) is already using the data directory `,
      ),
    );
    lock.release();
    lock.release();
    lockDataDir(dir).release();
  });

  it('leaves other data directories alone', () => {
    const a = lockDataDir(fresh());
    const b = lockDataDir(fresh());
    a.release();
    b.release();
  });
});
