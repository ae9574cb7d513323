import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';

/*
 * One server process per SQLite data directory (docs/decisions/017-one-process-per-data-dir.md).
 *
 * The lock is an exclusive SQLite transaction held open on `<DATA_DIR>/pipsense.lock` for the life of the process:
 * SQLite takes a POSIX advisory lock on the file, which the kernel drops the moment the process ends, however it
 * ends (SIGKILL, a crash, a power cut). So there is never a stale lock to clean up, and a recycled pid (PID 1 in
 * every container start) cannot make a dead process look alive. `pipsense.lock.owner` only says who holds it, for
 * the message the second process prints.
 */

const LOCK_FILE = 'pipsense.lock';
const OWNER_FILE = 'pipsense.lock.owner';

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: string | undefined,
  ) {
    super(
      `Another PipSense server${owner ? ` (${owner})` : ''} is already using the data directory ${dataDir}. ` +
        'Two processes on one SQLite database would corrupt it: stop the other one first, give this one its own ' +
        'DATA_DIR, or set DATABASE_URL (PostgreSQL) to run several instances.',
    );
    this.name = 'DataDirInUseError';
  }
}

export interface DataDirLock {
  /** Gives the data directory up (the process's end does too). */
  release(): void;
}

const isBusy = (error: unknown) => {
  const code = (error as { code?: string } | undefined)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
};

/** Takes the data directory for this process, or throws DataDirInUseError when another process holds it. */
export function lockDataDir(dataDir: string): DataDirLock {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Created 0600 like every file of DATA_DIR (SQLite would use the umask's mode); 'a' leaves an existing one as it is.
  const lockPath = join(dir, LOCK_FILE);
  closeSync(openSync(lockPath, 'a', 0o600));
  // timeout 0: a held lock answers SQLITE_BUSY at once instead of waiting for it.
  const db = new SQLite(lockPath, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if (!isBusy(error)) throw error;
    throw new DataDirInUseError(dir, readOwner(dir));
  }
  const ownerPath = join(dir, OWNER_FILE);
  writeFileSync(ownerPath, `pid ${process.pid} on ${hostname()}, since ${new Date().toISOString()}\n`, {
    mode: 0o600,
  });
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      rmSync(ownerPath, { force: true });
      db.close();
    },
  };
}

function readOwner(dir: string): string | undefined {
  try {
    return readFileSync(join(dir, OWNER_FILE), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
