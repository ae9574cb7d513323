import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** DATA_DIR cannot be used safely (not a directory, or readable by others and its mode cannot be changed). */
export class DataDirPermissionError extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'DataDirPermissionError';
  }
}

/** One mode changed by `secureDataDir`. */
export interface ModeChange {
  path: string;
  from: number;
  to: number;
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

/** Strips the group and other bits of `path` (the owner's are kept: 0755 → 0700, 0644 → 0600). */
function tighten(path: string, mode: number, changes: ModeChange[]): void {
  if ((mode & 0o077) === 0) return;
  const to = mode & 0o700;
  try {
    chmodSync(path, to);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new DataDirPermissionError(
      `${path} is open to other users (mode ${octal(mode)}) and this process cannot change it to ${octal(to)} ` +
        `(${reason}). PipSense keeps the database and its secret keys in DATA_DIR, readable by their owner only: ` +
        `as the owner of ${path}, run \`chmod ${octal(to)} ${path}\`, or point DATA_DIR at a directory this user owns.`,
      { cause: error },
    );
  }
  changes.push({ path, from: mode & 0o777, to });
}

/**
 * DATA_DIR readable by its owner only (SECURITY.md, Secrets at rest): created 0700 when missing; an existing one
 * that group or others may read is tightened to 0700, and each regular file directly inside it (the database and its
 * -wal/-shm, the secret keys, the lock) to 0600. Symbolic links and subdirectories are left as they are. Returns what
 * was changed, for the start's one warn line (`describeModeChanges`); nothing when all was already tight. A mode this
 * process cannot change (not the owner, a read-only file system) stops the start with DataDirPermissionError.
 */
export function secureDataDir(dataDir: string): ModeChange[] {
  const dir = resolve(dataDir);
  const changes: ModeChange[] = [];
  let mode: number;
  try {
    const stat = statSync(dir);
    if (!stat.isDirectory())
      throw new DataDirPermissionError(
        `DATA_DIR ${dir} is not a directory. Point DATA_DIR at a directory (it is created, mode 0700, when missing).`,
      );
    mode = stat.mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return changes;
  }
  tighten(dir, mode, changes);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(dir, entry.name);
    tighten(path, lstatSync(path).mode, changes);
  }
  return changes;
}

/** "DATA_DIR /srv/data was open to other users; tightened: /srv/data 0755 → 0700, pipsense.db 0644 → 0600". */
export function describeModeChanges(dataDir: string, changes: ModeChange[]): string {
  const dir = resolve(dataDir);
  const list = changes
    .map((c) => `${c.path === dir ? dir : c.path.slice(dir.length + 1)} ${octal(c.from)} → ${octal(c.to)}`)
    .join(', ');
  return `DATA_DIR ${dir} was open to other users; tightened to its owner only: ${list}`;
}
