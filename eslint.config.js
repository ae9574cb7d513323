import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const here = import.meta.dirname;
const folders = (dir) =>
  readdirSync(`${here}/${dir}`, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

/**
 * Architecture boundaries (docs/ARCHITECTURE.md), checked on resolved files:
 * - web: a feature never imports another feature; shared folders import neither features nor the app shell;
 * - server: a module, and app.ts, reach a module only through its `index.ts` (its public face): never its services,
 *   repositories or other files; production code imports neither the simulators in tools/ nor the test harness in
 *   src/test/.
 */
const webFeatures = folders('apps/web/src/features');
const serverModules = folders('apps/server/src/modules');
const moduleIndex = `${here}/apps/server/src/modules/*/index.ts`;
const boundaryZones = [
  ...webFeatures.map((feature) => ({
    target: `./apps/web/src/features/${feature}`,
    from: './apps/web/src/features',
    except: [`./${feature}`],
    message: 'A feature does not import another feature: move what both need to a shared folder (components/, lib/).',
  })),
  {
    target: ['./apps/web/src/components', './apps/web/src/lib', './apps/web/src/config', './apps/web/src/test'],
    from: ['./apps/web/src/features', './apps/web/src/app'],
    message: 'Shared web code does not import features or the app shell.',
  },
  ...serverModules.map((mod) => ({
    target: `./apps/server/src/modules/${mod}/**/!(*.test).ts`,
    from: serverModules.filter((m) => m !== mod).map((m) => `./apps/server/src/modules/${m}/**`),
    // Glob exceptions are matched against absolute paths.
    except: [moduleIndex],
    message: 'A server module reaches another module only through its index.ts (what it exports there is public).',
  })),
  {
    // app.ts and the other files beside it (server.ts, context.ts).
    target: './apps/server/src/!(*.test).ts',
    from: './apps/server/src/modules/**',
    except: [moduleIndex],
    message: 'app.ts wires a module through its index.ts only.',
  },
  {
    // Production server code: everything under src/ except tests and the test folders (test/, security/, faults/).
    target: ['./apps/server/src/!(*.test).ts', './apps/server/src/!(test|security|faults)/**/!(*.test).ts'],
    from: ['./tools', './apps/server/src/test'],
    message: 'Server code does not import the simulators (tools/) or the test harness (src/test/): only tests do.',
  },
];

/**
 * Raw SQL over a table (docs/ARCHITECTURE.md, "Tables and their owners"): the typed slices of db/slice.ts cannot see
 * SQL written as text, or run on better-sqlite3's own handle (the hot reads and bulk writes of decision 020), so
 * only these files may: each is the repository of the module owning the tables it names. A file joins the list when
 * its module owns every table its raw SQL names.
 */
const rawSqlFiles = [
  // trading: `trades` and `broker_accounts`.
  'apps/server/src/modules/trading/trade.repository.ts',
  'apps/server/src/modules/trading/sqlite-trade-writer.ts',
  'apps/server/src/modules/trading/sqlite-trade.worker.ts',
  // sync-jobs: pg-boss's own schema (its queue), no table of the application.
  'apps/server/src/modules/sync-jobs/pg-boss-queue.ts',
  // trade-views: the fast SQLite reads of the trade list and the Overview's book (decision 020), over the tables it reads.
  'apps/server/src/modules/trade-views/trade-list.repository.ts',
  'apps/server/src/modules/trade-views/book-rows.ts',
  // coach: runs the read side's compiled pattern read (book-rows.ts `patternRowParts`) on a thread of its own, no SQL
  // of its own (docs/decisions/026-pattern-book-on-threads.md).
  'apps/server/src/modules/coach/pattern-book.worker.ts',
];
const rawSqlMessage =
  "Raw SQL over a table only in the repository of the module that owns it (eslint.config.js's rawSqlFiles, docs/ARCHITECTURE.md): use the module's typed Kysely.";
const rawSqlImports = {
  paths: [
    { name: 'better-sqlite3', message: rawSqlMessage, allowTypeImports: true },
    { name: 'kysely', importNames: ['CompiledQuery'], message: rawSqlMessage, allowTypeImports: true },
  ],
  patterns: [{ group: ['**/db/client'], importNames: ['sqliteHandleOf', 'onSqliteClose'], message: rawSqlMessage }],
};

/**
 * What a worker thread loads (docs/decisions/026-pattern-book-on-threads.md): each idle thread holds every module its
 * bundle evaluates, so the threads and the files they load import values only from domain/, files of their own
 * module and the contract's light entries ('@pipsense/contract/decimal', '/import-constants'): never the contract's
 * index (every zod schema) or a module's index (its services and everything they import). Types come from anywhere.
 */
const leanThreadFiles = [
  'apps/server/src/modules/coach/pattern-book.worker.ts',
  'apps/server/src/modules/coach/pattern-book.ts',
  'apps/server/src/modules/trading/sqlite-trade.worker.ts',
  'apps/server/src/modules/trading/trade-upsert.ts',
  'apps/server/src/modules/trading/trade-content.ts',
  'apps/server/src/modules/trading/trade-pack.ts',
  'apps/server/src/modules/import/report-parse.worker.ts',
  'apps/server/src/modules/import/import-plan.ts',
  'apps/server/src/modules/import/symbols.ts',
  'apps/server/src/modules/import/parse/**/*.ts',
  'apps/server/src/domain/**/*.ts',
];
const leanMessage =
  "A worker thread and what it loads import values only from domain/, their own module's files and the contract's light entries (eslint.config.js's leanThreadFiles, docs/decisions/026-pattern-book-on-threads.md); `import type` for the rest.";
const leanImports = {
  paths: [{ name: '@pipsense/contract', message: leanMessage, allowTypeImports: true }],
  patterns: [
    {
      // A module's index: `../trading`, `../../trading/index`, `../modules/coach`, or the file's own `.`/`./index`.
      regex: `^((\\.\\./)+(modules/)?(${serverModules.join('|')})|\\.)(/index)?$`,
      message: leanMessage,
      allowTypeImports: true,
    },
  ],
};

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '.test-results/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false, arguments: false } },
      ],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/only-throw-error': 'off',
    },
  },
  {
    files: ['apps/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })] },
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: here, zones: boundaryZones }] },
  },
  {
    // A module's Kysely is typed to the tables it owns (db/slice.ts): the whole schema is named only in its tables.ts.
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/server/src/modules/*/tables.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/db/schema'],
              importNames: ['Database'],
              message:
                "A module names its tables in its tables.ts (docs/ARCHITECTURE.md, 'Adding a module'), never the whole Database.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts', ...rawSqlFiles],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', rawSqlImports],
      'no-restricted-syntax': [
        'error',
        {
          // A `sql` template whose text names a table (`from x`, `join x`, `into x`, `update x`): a fragment inside a
          // typed query (`sql\`lower(${ref})\``) stays allowed.
          selector:
            "TaggedTemplateExpression[tag.name='sql'] TemplateElement[value.raw=/\\b(from|join|into|update)\\s+([a-z_]|$)/i]",
          message: rawSqlMessage,
        },
      ],
    },
  },
  {
    // The lean rule beside the raw SQL one (a later setting of a rule replaces an earlier one: both are given here).
    files: leanThreadFiles,
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [...rawSqlImports.paths, ...leanImports.paths],
          patterns: [...rawSqlImports.patterns, ...leanImports.patterns],
        },
      ],
    },
  },
  {
    // The threads with a SQLite connection of their own are rawSqlFiles: the lean rule alone.
    files: leanThreadFiles.filter((f) => rawSqlFiles.includes(f)),
    rules: { '@typescript-eslint/no-restricted-imports': ['error', leanImports] },
  },
  {
    // Plain JavaScript (the scripts, the server's build, this file): the recommended rules, without type information.
    files: ['**/*.{js,mjs}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'e2e/**', 'bench/**', 'tools/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
