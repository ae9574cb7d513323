import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    max = Math.max(max, newest(join(path, entry)));
  }
  return max;
}

function workerModules() {
  return readdirSync(join(root, 'apps/server/src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.worker.ts'))
    .map((f) => basename(f));
}

const targets = [
  {
    name: 'web app',
    output: 'apps/web/dist/index.html',
    inputs: [
      'apps/web/src',
      'apps/web/index.html',
      'apps/web/public',
      'apps/web/vite.config.ts',
      'apps/web/build',
      'packages/contract/src',
      'package-lock.json',
    ],
    command: ['npm', ['run', 'build', '-w', '@pipsense/web']],
  },
  {
    name: 'server',
    output: 'apps/server/dist/server.js',
    // Each worker thread module (src/**/*.worker.ts) is bundled beside it (apps/server/build.mjs).
    alsoOutputs: () => workerModules().map((name) => `apps/server/dist/workers/${name.replace(/\.ts$/, '.js')}`),
    inputs: ['apps/server/src', 'apps/server/build.mjs', 'packages/contract/src', 'package-lock.json'],
    command: ['npm', ['run', 'build', '-w', '@pipsense/server']],
  },
];

/** Builds whatever is missing or older than its sources. */
export function buildIfStale({ force = false } = {}) {
  for (const t of targets) {
    const outputs = [t.output, ...(t.alsoOutputs?.() ?? [])].map((o) => join(root, o));
    const stale =
      force ||
      !outputs.every((o) => existsSync(o)) ||
      Math.max(...t.inputs.map((i) => newest(join(root, i)))) > Math.min(...outputs.map((o) => statSync(o).mtimeMs));
    if (!stale) continue;
    console.log(`Building the ${t.name}…`);
    execFileSync(t.command[0], t.command[1], { cwd: root, stdio: 'inherit' });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildIfStale({ force: process.argv.includes('--force') });
