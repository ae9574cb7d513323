import { defineConfig } from '@playwright/test';

/** End-to-end tests drive Debian's Chromium against the built app, the OANDA simulator and a fake LLM. */
const port = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'e2e',
  // Limits with room for a loaded machine (two cores shared with a build, a typecheck or another suite): each step
  // waits for a condition, and these only end a test whose condition never comes. One limit for every journey, set
  // here rather than per spec; the longest journeys ran past two minutes on a busy machine.
  timeout: 240_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
    },
  },
  outputDir: '.test-results/e2e',
  webServer: {
    command: 'node scripts/build-if-stale.mjs && npx tsx e2e/stack/start-stack.ts',
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    // The first start builds the app when it is stale, which takes minutes on a busy machine.
    timeout: 300_000,
    env: { E2E_PORT: String(port) },
    stdout: 'ignore',
    stderr: 'pipe',
    // Let the stack stop its servers and remove its data dir.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5000 },
  },
});
