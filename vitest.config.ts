import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * The server suite runs on SQLite; with PIPSENSE_TEST_PG_URL set (a PostgreSQL server URL) the database-backed
 * tests run again on PostgreSQL, each run in databases of its own.
 */
const pgUrl = process.env.PIPSENSE_TEST_PG_URL;
/**
 * Limits with room for a loaded machine (two cores shared with a build, a typecheck or another suite): a test waits
 * for a condition, and these only end one whose condition never comes. A quick test stays quick; vitest's 5-second
 * default failed sound web tests on a busy machine.
 */
const limits = { testTimeout: 30_000, hookTimeout: 60_000 };
const nodeTest = { environment: 'node' as const, ...limits };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...nodeTest,
          name: 'node',
          include: ['packages/**/*.test.ts', 'apps/server/**/*.test.ts', 'tools/**/*.test.ts', 'scripts/**/*.test.mjs'],
          env: { PIPSENSE_TEST_PG: '' },
        },
      },
      ...(pgUrl
        ? [
            {
              test: {
                ...nodeTest,
                name: 'postgres',
                // The junk corpus too: PostgreSQL refuses what SQLite stores (a NUL in text answered 500 there).
                include: [
                  'apps/server/**/*.{routes,repository,db}.test.ts',
                  'apps/server/src/security/junk-inputs.attack.test.ts',
                ],
                env: { PIPSENSE_TEST_PG: pgUrl },
              },
            },
          ]
        : []),
      {
        plugins: [react()],
        test: {
          ...limits,
          name: 'web',
          environment: 'jsdom',
          include: ['apps/web/**/*.test.{ts,tsx}'],
          setupFiles: ['apps/web/src/test/setup.ts'],
          css: false,
        },
      },
    ],
  },
});
