import type { BuildOptions } from '../../apps/server/src/app';
import type { Env } from '../../apps/server/src/config/env';
import { createTestApp, type TestApp } from '../../apps/server/src/test/harness';

/**
 * The real app in this process, as the route tests build it (apps/server/src/test/harness.ts): temporary SQLite
 * data dir (PostgreSQL only when PIPSENSE_TEST_PG names a server), no logger; users and their OANDA connection
 * through the same set-ups as the route tests (`user`, `oandaUser`).
 */
export type BenchApp = TestApp;

export function createBenchApp(
  overrides: Partial<Record<keyof Env, string>>,
  options: Omit<BuildOptions, 'env'> = {},
): Promise<BenchApp> {
  return createTestApp(overrides, { credentialLimit: 100_000, ...options });
}
