import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
// Workspace packages are TypeScript source: bundle them; everything else stays in node_modules.
const external = Object.keys(pkg.dependencies ?? {}).filter((d) => !d.startsWith('@pipsense/'));
const src = new URL('./src/', import.meta.url).pathname;
const dist = new URL('./dist/', import.meta.url).pathname;

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
};

// Worker threads (src/**/*.worker.ts) are entries of their own: dist/workers/<name>.worker.js, where
// src/lib/workers.ts looks for them when it runs from the bundle.
const workers = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.worker.ts'))
  .map((f) => join(src, f));
const names = workers.map((f) => basename(f));
if (new Set(names).size !== names.length) throw new Error(`two worker modules share a name: ${names.join(', ')}`);

/**
 * Bundles the server into `outDir` (server.js and workers/*.worker.js). Tests build throw-away copies, with more
 * entries beside server.js (`entries`: paths under src).
 */
export async function buildServer(outDir = dist, entries = ['server.ts']) {
  await Promise.all([
    ...entries.map((entry) =>
      build({
        ...common,
        entryPoints: [join(src, entry)],
        outfile: join(outDir, basename(entry).replace(/\.ts$/, '.js')),
      }),
    ),
    ...workers.map((f) =>
      build({ ...common, entryPoints: [f], outfile: join(outDir, 'workers', basename(f).replace(/\.ts$/, '.js')) }),
    ),
  ]);
}

/**
 * Each worker's bundle built in memory: its source files (relative to the repository) and the packages it imports
 * from node_modules. A test holds the threads lean with it (docs/ARCHITECTURE.md, Lean threads).
 */
export async function workerBundles() {
  return Promise.all(
    workers.map(async (file) => {
      const { metafile } = await build({ ...common, entryPoints: [file], outdir: dist, write: false, metafile: true });
      const output = Object.values(metafile.outputs).find((o) => o.entryPoint);
      return {
        worker: basename(file),
        inputs: Object.keys(metafile.inputs),
        packages: [...new Set((output?.imports ?? []).filter((i) => i.external).map((i) => i.path))],
      };
    }),
  );
}

// Run as a script (`npm run build`), not imported by a test.
if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url)))
  await buildServer();
