// The architecture rules in eslint.config.js fail when they are broken: each probe below writes a file that breaks
// one rule into the real tree, lints it with the project's own configuration, and expects that rule's error.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const written = [];
const eslint = new ESLint({ cwd: root });

async function lintProbe(relativePath, code) {
  const file = join(root, relativePath);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, code);
  written.push(file);
  const [result] = await eslint.lintFiles([file]);
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

afterAll(() => {
  for (const file of written) rmSync(file, { force: true });
});

describe('architecture lint rules', { timeout: 120_000 }, () => {
  it('a web feature importing another feature is an error', async () => {
    const messages = await lintProbe(
      'apps/web/src/features/faq/zz-lint-probe.ts',
      "import '../trades/model/trade-format';\n",
    );
    expect(messages.join('\n')).toMatch(/import-x\/no-restricted-paths: .*A feature does not import another feature/);
  });

  it('shared web code importing a feature is an error', async () => {
    const messages = await lintProbe(
      'apps/web/src/lib/zz-lint-probe.ts',
      "import '../features/trades/model/trade-format';\n",
    );
    expect(messages.join('\n')).toMatch(/Shared web code does not import features/);
  });

  it("a server module reaching past another module's index.ts is an error, its index.ts is not", async () => {
    const messages = await lintProbe(
      'apps/server/src/modules/auth/zz-lint-probe.ts',
      [
        "import '../trading/trade.repository';",
        "import '../trading/trading.service';",
        "import '../trading/trade-sync.service';",
        "import '../trading';",
        "import '../trading/index';",
        '',
      ].join('\n'),
    );
    const boundary = messages.filter((m) => m.startsWith('import-x/no-restricted-paths'));
    expect(boundary).toHaveLength(3);
    for (const message of boundary) expect(message).toMatch(/reaches another module only through its index\.ts/);
  });

  it("app.ts's folder wires a module through its index.ts only", async () => {
    const messages = await lintProbe(
      'apps/server/src/zz-lint-probe.ts',
      "import './modules/trading/trading.service';\nimport './modules/trading';\n",
    );
    const boundary = messages.filter((m) => m.startsWith('import-x/no-restricted-paths'));
    expect(boundary).toHaveLength(1);
    expect(boundary[0]).toMatch(/app\.ts wires a module through its index\.ts only/);
  });

  it("a module naming the whole Database outside its tables.ts is an error, a table's row type is not", async () => {
    const messages = await lintProbe(
      'apps/server/src/modules/analytics/zz-lint-probe.ts',
      "import type { Database, TradesTable } from '../../db/schema';\nexport type Both = [Database, TradesTable];\n",
    );
    const restricted = messages.filter((m) => m.startsWith('no-restricted-imports'));
    expect(restricted).toHaveLength(1);
    expect(restricted[0]).toMatch(/names its tables in its tables\.ts/);
  });

  it('raw SQL over a table outside the listed repositories is an error; a typed fragment is not', async () => {
    const messages = await lintProbe(
      'apps/server/src/modules/analytics/zz-lint-probe.ts',
      [
        "import { sql, type CompiledQuery, type Kysely } from 'kysely';",
        "import { sqliteHandleOf } from '../../db/client';",
        'export const handle = (db: Kysely<object>) => sqliteHandleOf(db);',
        'export const raw = sql`select count(*) from trades`;',
        'export const fragment = (x: string) => sql`lower(${x})`;',
        'export type Compiled = CompiledQuery;',
        '',
      ].join('\n'),
    );
    const raw = messages.filter((m) => /Raw SQL over a table only in the repository/.test(m));
    expect(raw.map((m) => m.split(':')[0]).sort()).toEqual([
      '@typescript-eslint/no-restricted-imports',
      'no-restricted-syntax',
    ]);
  });

  it('server code importing the simulators or the test harness is an error, a test and the harness may', async () => {
    const imports = "import '@pipsense/fake-llm';\nimport '../../test/until';\n";
    const production = await lintProbe('apps/server/src/integrations/llm/zz-lint-probe.ts', imports);
    const boundary = production.filter((m) => m.startsWith('import-x/no-restricted-paths'));
    expect(boundary).toHaveLength(2);
    for (const message of boundary)
      expect(message).toMatch(/does not import the simulators \(tools\/\) or the test harness/);
    const atTheTop = await lintProbe('apps/server/src/zz-lint-probe.ts', "import './test/until';\n");
    expect(atTheTop.join('\n')).toMatch(/does not import the simulators/);

    const test = await lintProbe('apps/server/src/integrations/llm/zz-lint-probe.test.ts', imports);
    const harness = await lintProbe('apps/server/src/test/zz-lint-probe.ts', "import '@pipsense/fake-llm';\n");
    expect([...test, ...harness].filter((m) => m.startsWith('import-x/no-restricted-paths'))).toEqual([]);
  });

  it('the plain JavaScript scripts are linted', async () => {
    const messages = await lintProbe('scripts/zz-lint-probe.mjs', 'const unused = 1;\n');
    expect(messages.join('\n')).toMatch(/no-unused-vars/);
  });
});
