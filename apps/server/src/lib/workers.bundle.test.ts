import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * Every idle worker thread holds whatever its bundle evaluates, so a thread imports values only from domain/, its own
 * module's files and the contract's light entries (docs/ARCHITECTURE.md, Lean threads). The lint rule checks the
 * files it lists; this checks what each worker's bundle really pulls in, whichever file brought it.
 */

interface WorkerBundle {
  worker: string;
  inputs: string[];
  packages: string[];
}

const buildScript = pathToFileURL(new URL('../../build.mjs', import.meta.url).pathname).href;

describe('worker bundles', () => {
  it('hold no module index, no contract index and no zod', async () => {
    const { workerBundles } = (await import(buildScript)) as { workerBundles: () => Promise<WorkerBundle[]> };
    const bundles = await workerBundles();
    expect(bundles.map((b) => b.worker).sort()).toEqual(
      expect.arrayContaining(['pattern-book.worker.ts', 'report-parse.worker.ts', 'sqlite-trade.worker.ts']),
    );
    for (const { worker, inputs, packages } of bundles) {
      const heavy = inputs.filter(
        (input) => /packages\/contract\/src\/index\.ts$/.test(input) || /src\/modules\/[^/]+\/index\.ts$/.test(input),
      );
      expect({ worker, heavy }).toEqual({ worker, heavy: [] });
      expect({ worker, packages: packages.filter((p) => /^(zod|fastify|kysely|pg)(\/|$)/.test(p)) }).toEqual({
        worker,
        packages: [],
      });
    }
  }, 60_000);
});
