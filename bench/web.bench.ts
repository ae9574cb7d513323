/*
 * Lean web: what the browser loads before the /login form is interactive (document, scripts, styles), in
 * brotli and gzip bytes, against ≤ 170 kB; the three.js torus apart (≤ 160 kB, requested only after the form is
 * ready); every route its own chunk, with its bytes; the Largest Contentful Paint of /login and of /overview (a
 * signed-in user with an imported MT4 statement) in Debian's Chromium on loopback, read with PerformanceObserver.
 *
 * The app is built if stale and served by the real server in this process (temporary SQLite data dir, a free port).
 * Sizes are those of the built files compressed at the levels the build uses (brotli 11, gzip 9), so a build without
 * precompressed copies measures the same way; "served" is what Chromium actually received (encodedBodySize).
 * PIPSENSE_BENCH_WEB_DIST measures another build (e.g. one of an older commit) instead of apps/web/dist;
 * PIPSENSE_BENCH_WEB_SHOTS=dir keeps a screenshot of each measured page. /overview opens on MetaTrader, as the
 * import's 'See the trades' link opens it (router state), so that it shows the imported trades.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { createBenchApp } from './support/bench-app';
import { goal, heading, median, runBench } from './support/stats';
import { repoRoot } from './support/sim-process';

const CHROMIUM = process.env.PIPSENSE_BENCH_CHROMIUM ?? '/usr/bin/chromium';
const RUNS = 5;
const KB = 1000;
const GOAL_LOGIN = 170 * KB;
const GOAL_TORUS = 160 * KB;
const dist = process.env.PIPSENSE_BENCH_WEB_DIST ?? join(repoRoot, 'apps/web/dist');
const MT4 = join(repoRoot, 'apps/server/src/modules/import/parse/fixtures/mt4-statement.htm');

interface Sizes {
  raw: number;
  br: number;
  gz: number;
}
const sizeCache = new Map<string, Sizes>();
function sizesOf(file: string): Sizes {
  let s = sizeCache.get(file);
  if (!s) {
    const body = readFileSync(join(dist, file));
    s = {
      raw: body.length,
      br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } })
        .length,
      gz: gzipSync(body, { level: 9 }).length,
    };
    sizeCache.set(file, s);
  }
  return s;
}
const sum = (list: readonly Sizes[]): Sizes =>
  list.reduce((a, b) => ({ raw: a.raw + b.raw, br: a.br + b.br, gz: a.gz + b.gz }), { raw: 0, br: 0, gz: 0 });
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} kB`;
const row = (cells: readonly string[]) => console.log(`| ${cells.join(' | ')} |`);

interface ManifestChunk {
  file: string;
  name?: string;
  css?: string[];
  imports?: string[];
  isDynamicEntry?: boolean;
  isEntry?: boolean;
}

/** The files a chunk brings with it (its static imports, their CSS), from Vite's build manifest. */
function closure(manifest: Record<string, ManifestChunk>, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const css of chunk.css ?? []) into.add(css);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, into);
  return into;
}

/** The lazily loaded screens named in app/screens.ts (their chunk ids). */
function routeChunkIds(): string[] {
  const source = readFileSync(join(repoRoot, 'apps/web/src/app/screens.ts'), 'utf8');
  return [...source.matchAll(/lazyChunk\(\s*'([^']+)'/g)].map((m) => m[1]!);
}

/**
 * In the page before any script: the LCP as it stands, and when the login form first appears (performance.now).
 * Plain text, not a function: tsx would wrap named functions in a helper the page does not have.
 */
const observe = `
  window.__lcp = -1;
  window.__formReady = -1;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new MutationObserver(() => {
    if (window.__formReady < 0 && document.querySelector('#login-password')) window.__formReady = performance.now();
  }).observe(document, { childList: true, subtree: true });
`;

/** A home broadband line as Chrome's tools define one: 10 Mbit/s down, 40 ms round trip. */
const BROADBAND = { offline: false, latency: 40, downloadThroughput: 1_250_000, uploadThroughput: 625_000 };

async function visit(browser: Browser, url: string, token: string | null, waitFor: string[], throttle = false) {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (token) {
    await context.addInitScript((t) => localStorage.setItem('token', JSON.stringify(t)), token);
    // As the import's 'See the trades' link does: the screens open on the imported platform (OANDA otherwise).
    await context.addInitScript({
      content: `history.replaceState({ usr: { platform: 'MetaTrader' }, key: 'bench', idx: 0 }, '');`,
    });
  }
  await context.addInitScript({ content: observe });
  const page = await context.newPage();
  if (throttle) await (await context.newCDPSession(page)).send('Network.emulateNetworkConditions', BROADBAND);
  await page.goto(url, { waitUntil: 'load' });
  for (const selector of waitFor) await page.locator(selector).first().waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  // PIPSENSE_BENCH_WEB_SHOTS=dir: a screenshot of what was measured, to check the page was the one meant.
  const shots = process.env.PIPSENSE_BENCH_WEB_SHOTS;
  if (shots)
    await page.screenshot({
      path: join(shots, `${new URL(url).pathname.slice(1)}${throttle ? '-throttled' : ''}.png`),
    });
  const facts = await page.evaluate(() => {
    const w = window as unknown as { __lcp: number; __formReady: number };
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
      path: new URL(r.name).pathname,
      start: r.startTime,
      encoded: r.encodedBodySize,
    }));
    return { lcp: w.__lcp, formReady: w.__formReady, document: nav.encodedBodySize, resources };
  });
  await context.close();
  return facts;
}

async function main() {
  if (!process.env.PIPSENSE_BENCH_WEB_DIST)
    execFileSync('node', [join(repoRoot, 'scripts/build-if-stale.mjs')], { cwd: repoRoot, stdio: 'inherit' });
  const manifestPath = join(dist, '.vite/manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`no build manifest at ${manifestPath}: build with manifest: true`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;

  const t = await createBenchApp({ WEB_DIST: dist, AUTH_RATE_LIMIT: '10000' });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('the server has no port');
    const origin = `http://127.0.0.1:${address.port}`;

    // A trader with data: the MT4 statement of the import tests, uploaded and confirmed through the API.
    const user = await t.user('webbench');
    const data = new FormData();
    data.append('file', new Blob([readFileSync(MT4)]), 'Statement.htm');
    const encoded = new Response(data);
    const upload = await t.call(user.token, {
      method: 'POST',
      url: '/api/v1/import/upload',
      payload: Buffer.from(await encoded.arrayBuffer()),
      headers: { 'content-type': encoded.headers.get('content-type')! },
    });
    if (upload.statusCode !== 200) throw new Error(`upload failed: ${upload.body}`);
    const importId = upload.json<{ importId: string }>().importId;
    const confirmed = await t.call(user.token, {
      method: 'POST',
      url: `/api/v1/import/confirm/${importId}`,
      payload: {},
    });
    if (confirmed.statusCode !== 200) throw new Error(`confirm failed: ${confirmed.body}`);

    // --- /login: what loads before the form shows, and the torus after it.
    const logins = [];
    for (let i = 0; i < RUNS; i += 1) logins.push(await visit(browser, `${origin}/login`, null, ['#login-password']));
    const first = logins[0]!;
    if (first.formReady < 0) throw new Error('the login form never appeared');
    const isTorus = (path: string) => path.includes('/torus-canvas-');
    const before = first.resources.filter((r) => r.start <= first.formReady && !isTorus(r.path));
    const critical = [
      { path: '/index.html', sizes: sizesOf('index.html'), encoded: first.document },
      ...before.map((r) => ({ path: r.path, sizes: sizesOf(r.path.slice(1)), encoded: r.encoded })),
    ];
    heading(`/login: loaded before the form appears (${critical.length} files, dist ${dist})`);
    row(['file', 'raw', 'brotli', 'gzip', 'served']);
    row(['---', '---', '---', '---', '---']);
    for (const c of critical) row([c.path, kb(c.sizes.raw), kb(c.sizes.br), kb(c.sizes.gz), kb(c.encoded)]);
    const total = sum(critical.map((c) => c.sizes));
    const served = critical.reduce((a, c) => a + c.encoded, 0);
    row(['**total**', kb(total.raw), kb(total.br), kb(total.gz), kb(served)]);
    goal('/login critical path, brotli', kb(total.br), total.br <= GOAL_LOGIN, '≤ 170 kB');
    goal('/login critical path, gzip', kb(total.gz), total.gz <= GOAL_LOGIN, '≤ 170 kB');
    goal('/login critical path as served', kb(served), served <= GOAL_LOGIN, '≤ 170 kB');

    heading('the torus (three.js), apart');
    const torusKey = Object.keys(manifest).find((k) => manifest[k]!.name === 'torus-canvas');
    const torusFiles = torusKey
      ? [...closure(manifest, torusKey)].filter((f) => !critical.some((c) => c.path === `/${f}`))
      : [];
    const torus = sum(torusFiles.map(sizesOf));
    console.log(`files: ${torusFiles.join(', ')}; raw ${kb(torus.raw)}, brotli ${kb(torus.br)}, gzip ${kb(torus.gz)}`);
    goal('torus, brotli', kb(torus.br), torus.br > 0 && torus.br <= GOAL_TORUS, '≤ 160 kB');
    goal('torus, gzip', kb(torus.gz), torus.gz > 0 && torus.gz <= GOAL_TORUS, '≤ 160 kB');
    const torusStarts = logins.map((l) => {
      const request = l.resources.find((r) => isTorus(r.path));
      return request ? request.start - l.formReady : Number.NaN;
    });
    console.log(
      `torus chunk requested ${torusStarts.map((d) => (Number.isNaN(d) ? 'never' : `${d.toFixed(0)} ms`)).join(', ')} after the form appeared`,
    );
    goal(
      'torus requested after the form is ready',
      `${torusStarts.filter((d) => d > 0).length}/${RUNS} runs`,
      torusStarts.every((d) => d > 0),
      'every run',
    );

    // --- Each route its own chunk: its own file, and what it adds beyond the entry.
    heading('route chunks (own file; with the shared chunks it imports that the entry does not)');
    const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
    const entryFiles = closure(manifest, entryKey);
    const ids = routeChunkIds();
    row(['route chunk', 'file', 'brotli', 'gzip', 'with imports, brotli', 'with imports, gzip']);
    row(['---', '---', '---', '---', '---', '---']);
    const files = new Set<string>();
    for (const id of ids) {
      const key = Object.keys(manifest).find((k) => manifest[k]!.name === id && manifest[k]!.isDynamicEntry);
      if (!key) {
        row([id, '**not its own chunk**', '', '', '', '']);
        continue;
      }
      files.add(manifest[key]!.file);
      const own = sizesOf(manifest[key]!.file);
      const added = sum([...closure(manifest, key)].filter((f) => !entryFiles.has(f)).map(sizesOf));
      row([id, manifest[key]!.file, kb(own.br), kb(own.gz), kb(added.br), kb(added.gz)]);
    }
    goal(
      'every route its own chunk',
      `${files.size} chunks for ${ids.length} routes`,
      files.size === ids.length,
      'one each',
    );

    // --- Largest Contentful Paint.
    heading(`Largest Contentful Paint, Chromium on loopback, 1280×800, cold cache, ${RUNS} runs`);
    const overviews = [];
    for (let i = 0; i < RUNS; i += 1)
      overviews.push(
        await visit(browser, `${origin}/overview`, user.token, [
          'text=/Dashboard – MetaTrader/',
          '.overview-as-of',
          'text=/Total trades/i',
        ]),
      );
    const throttled = [];
    for (let i = 0; i < RUNS; i += 1)
      throttled.push(await visit(browser, `${origin}/login`, null, ['#login-password'], true));
    for (const [name, runs] of [
      ['/login', logins],
      ['/overview', overviews],
      ['/login over 10 Mbit/s, 40 ms', throttled],
    ] as const) {
      const values = runs.map((r) => r.lcp).filter((v) => v >= 0);
      console.log(
        `${name}: LCP median ${median(values).toFixed(0)} ms (runs ${values.map((v) => v.toFixed(0)).join(', ')})`,
      );
    }
    console.log(
      `/login form appeared: median ${median(logins.map((l) => l.formReady)).toFixed(0)} ms after navigation start`,
    );
  } finally {
    await browser.close();
    await t.close();
  }
}

runBench(main);
