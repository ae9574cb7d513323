import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/*
 * One way to start a worker thread, from the sources and from the bundle alike.
 *
 * A worker is a TypeScript module named `*.worker.ts` anywhere under src. apps/server/build.mjs bundles each one as
 * an entry of its own into dist/workers/<name>.worker.js, beside dist/server.js; from the bundle the thread runs
 * that file. From the sources (tests, `npm run dev`, the benchmarks) Node 20 cannot load .ts in a thread, and a
 * loader given as `execArgv: ['--import', 'tsx']` does not reach the thread's entry module on Node 20. So the thread
 * runs a two-line ES module first that registers tsx's loader (its `register` API) and then imports the worker.
 */

/** True when this code runs from dist (esbuild output), false from the TypeScript sources. */
const bundled = !import.meta.url.endsWith('.ts');

/**
 * What to hand `new Worker` for the worker whose source is `source`:
 * `new URL('./name.worker.ts', import.meta.url)` in the module that starts it.
 */
function workerEntry(source: URL): URL {
  const name = basename(fileURLToPath(source));
  if (!name.endsWith('.worker.ts')) throw new Error(`a worker module is named *.worker.ts, not ${name}`);
  if (bundled) return new URL(`./workers/${name.replace(/\.ts$/, '.js')}`, import.meta.url);
  const tsx = tsxRegisterApi().href;
  const boot = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(source.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}

/** tsx's ES module `register` API (the package's `tsx/esm/api` import export), as a URL a data: module can import. */
function tsxRegisterApi(): URL {
  const manifest = pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json'));
  const exports = (
    JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }
  ).exports;
  return new URL(exports['./esm/api']!.import.default, manifest);
}

/** Starts the worker whose source is `source` (see workerEntry) with these options. */
export function startWorker(source: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  return new Worker(workerEntry(source), options);
}
