import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/**
 * Fresh temporary directories for a test file, removed after each test: call once at the top of the file, then
 * the returned function gives a new directory named `pipsense-<prefix>-…`.
 */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), `pipsense-${prefix}-`));
    dirs.push(dir);
    return dir;
  };
}
