import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
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

await Promise.all([
  build({ ...common, entryPoints: [join(src, 'server.ts')], outfile: join(dist, 'server.js') }),
  ...workers.map((f) =>
    build({ ...common, entryPoints: [f], outfile: join(dist, 'workers', basename(f).replace(/\.ts$/, '.js')) }),
  ),
]);
