// `npm test`: every unit and integration test (Vitest), the PostgreSQL run when a server is reachable, and the
// end-to-end tests in Chromium when it is installed; ends with one line `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import net from 'node:net';
import { stripVTControlCharacters } from 'node:util';
import { buildIfStale, root } from './build-if-stale.mjs';

const out = join(root, '.test-results');
mkdirSync(out, { recursive: true });
const env = { ...process.env };
let passed = 0;
let failed = 0;
const notes = [];
// The names of failed tests, repeated above the last line: a CI log is often read from its end.
const failures = [];
const firstLine = (text = '') => stripVTControlCharacters(text).split('\n')[0].slice(0, 300);

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1000 });
    socket.on('connect', () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => (socket.destroy(), resolve(false)));
  });
}

if (!env.PIPSENSE_TEST_PG_URL && (await reachable('127.0.0.1', 5432)))
  env.PIPSENSE_TEST_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
if (!env.PIPSENSE_TEST_PG_URL)
  notes.push('PostgreSQL not reachable on 127.0.0.1:5432: the PostgreSQL run was skipped.');

// Vitest
const vitestJson = join(out, 'vitest.json');
const vitest = spawnSync(
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
  {
    cwd: root,
    stdio: 'inherit',
    env,
  },
);
if (existsSync(vitestJson)) {
  const r = JSON.parse(readFileSync(vitestJson, 'utf8'));
  passed += r.numPassedTests;
  // A file that fails to load has no test results of its own: count it as one failure.
  failed +=
    r.numFailedTests + r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  for (const file of r.testResults) {
    const where = relative(root, file.name);
    if (file.status === 'failed' && file.assertionResults.length === 0)
      failures.push(`${where}: did not load: ${firstLine(file.message)}`);
    for (const t of file.assertionResults)
      if (t.status === 'failed') failures.push(`${where} › ${t.fullName}: ${firstLine(t.failureMessages[0])}`);
  }
} else failed += 1;
if (vitest.status !== 0 && failed === 0) failed += 1;

// Playwright
const chromium = env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(chromium) && env.PIPSENSE_SKIP_E2E !== '1') {
  buildIfStale();
  const pwJson = join(out, 'playwright.json');
  const pw = spawnSync('npx', ['playwright', 'test'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson },
  });
  if (existsSync(pwJson)) {
    const report = JSON.parse(readFileSync(pwJson, 'utf8'));
    const s = report.stats;
    const walk = (suite) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests)
          if (t.status === 'unexpected')
            failures.push(
              `${spec.file}:${spec.line} › ${spec.title} (${t.projectName}): ${firstLine(t.results.at(-1)?.error?.message)}`,
            );
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of report.suites) walk(suite);
    passed += s.expected + s.flaky;
    failed += s.unexpected;
    if (s.unexpected === 0 && pw.status !== 0) failed += 1;
  } else failed += 1;
} else if (env.PIPSENSE_SKIP_E2E === '1') {
  notes.push('PIPSENSE_SKIP_E2E=1: the end-to-end tests were skipped.');
} else {
  notes.push(`Chromium not found at ${chromium}: the end-to-end tests were skipped (apt-get install chromium).`);
}

for (const n of notes) console.log(`note: ${n}`);
for (const f of failures) console.log(`failed: ${f}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
