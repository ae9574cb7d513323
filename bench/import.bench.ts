/*
 * Parsing MetaTrader reports. A 100,000-trade MT4 statement (goal < 5 s, peak resident memory < 300 MB)
 * and the largest MT5 HTML report under the 50 MB upload limit (UTF-16: two bytes a character), plus an MT5 XLSX
 * of as many positions. Each parse runs in a fresh Node process (the parser bundled with esbuild, no TypeScript
 * loader in the heap) that reads the file, collects garbage, resets the kernel's peak-RSS mark and parses once:
 * the printed peak is the process's, file bytes and decoded text included.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { IMPORT_MAX_BYTES } from '@pipsense/contract';
import { encodeUtf16le, mt4Statement, mt5Report, mt5Xlsx } from '../apps/server/src/test/metatrader-reports';
import { goal, heading, mb, median, ms, runBench, spread } from './support/stats';
import { repoRoot } from './support/sim-process';

const MT4_TRADES = 100_000;
const RUNS = 3;
const GOAL_MS = 5000;
const GOAL_BYTES = 300 * 1024 * 1024;

interface ChildResult {
  ms: number;
  rssStart: number;
  peak: number;
  peakReset: boolean;
  heapAfter: number;
  closed: number;
  reportPL: string | null;
}

/** The child: plain JavaScript importing the bundled parser. */
const CHILD = `
import { readFileSync, writeFileSync } from 'node:fs';
const [bundle, file] = process.argv.slice(2);
const { parseReport } = await import(bundle);
const bytes = new Uint8Array(readFileSync(file));
globalThis.gc();
const rssStart = process.memoryUsage().rss;
let peakReset = false;
try { writeFileSync('/proc/self/clear_refs', '5'); peakReset = true; } catch {}
const started = performance.now();
const report = parseReport(bytes);
const took = performance.now() - started;
const peak = peakReset ? process.resourceUsage().maxRSS * 1024 : process.memoryUsage().rss;
const heapAfter = process.memoryUsage().heapUsed;
console.log(JSON.stringify({ ms: took, rssStart, peak, peakReset, heapAfter, closed: report.closedTrades.length, reportPL: report.totals.closedTradePL }));
`;

async function bundleParser(dir: string): Promise<{ bundle: string; child: string }> {
  const bundle = join(dir, 'import-parse.mjs');
  await build({
    entryPoints: [join(repoRoot, 'apps/server/src/modules/import/parse/index.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  const child = join(dir, 'import-parse-child.mjs');
  writeFileSync(child, CHILD);
  return { bundle, child };
}

function parseInChildren(paths: { bundle: string; child: string }, file: string): ChildResult[] {
  return Array.from({ length: RUNS }, () => {
    const out = execFileSync(process.execPath, ['--expose-gc', paths.child, paths.bundle, file], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    return JSON.parse(out.trim().split('\n').at(-1)!) as ChildResult;
  });
}

function report(label: string, size: number, runs: ChildResult[], expectedCount: number, expectedPL: string) {
  for (const r of runs) {
    if (r.closed !== expectedCount) throw new Error(`${label}: ${r.closed} closed trades, expected ${expectedCount}`);
    if (r.reportPL === null || Number(r.reportPL) !== Number(expectedPL))
      throw new Error(`${label}: report P/L ${r.reportPL}, expected ${expectedPL}`);
  }
  const peaks = runs.map((r) => r.peak);
  console.log(
    `file ${mb(size)}; parse ${spread(
      runs.map((r) => r.ms),
      0,
    )}`,
  );
  console.log(
    `resident memory: before parsing ${mb(median(runs.map((r) => r.rssStart)))} (node + file bytes), peak ${mb(median(peaks))} ` +
      `(max ${mb(Math.max(...peaks))}${runs[0]!.peakReset ? '' : ', peak not resettable: rss after parsing'}); ` +
      `heap held after parsing ${mb(median(runs.map((r) => r.heapAfter)))}`,
  );
  return { ms: median(runs.map((r) => r.ms)), peak: Math.max(...peaks) };
}

runBench(async () => {
  const cache = join(repoRoot, 'node_modules/.cache/pipsense-bench');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'pipsense-bench-import-'));
  try {
    const paths = await bundleParser(cache);

    heading(`MT4 statement, ${MT4_TRADES.toLocaleString('en-US')} closed trades (2019–2025 layout, seconds)`);
    let started = performance.now();
    const mt4 = mt4Statement({ trades: MT4_TRADES, seed: 42 });
    const mt4Bytes = new TextEncoder().encode(mt4.html);
    const mt4File = join(dir, 'Statement.htm');
    writeFileSync(mt4File, mt4Bytes);
    console.log(`generated in ${ms(performance.now() - started, 0)}`);
    const mt4Result = report(
      'MT4',
      mt4Bytes.length,
      parseInChildren(paths, mt4File),
      MT4_TRADES,
      mt4.expected.closedTradePL,
    );
    goal('MT4 100k trades: parse time (median)', ms(mt4Result.ms, 0), mt4Result.ms < GOAL_MS, `< ${GOAL_MS} ms`);
    goal(
      'MT4 100k trades: peak resident memory',
      mb(mt4Result.peak),
      mt4Result.peak < GOAL_BYTES,
      `< ${mb(GOAL_BYTES)}`,
    );
    const mt4PerTrade = mt4Bytes.length / MT4_TRADES;
    console.log(
      `${mt4PerTrade.toFixed(0)} bytes a trade: the 50 MB upload limit holds about ${Math.floor(IMPORT_MAX_BYTES / mt4PerTrade).toLocaleString('en-US')} MT4 trades`,
    );

    heading('MT5 HTML report, the most positions under the 50 MB limit (UTF-16LE)');
    const sample = encodeUtf16le(mt5Report({ positions: 1000, seed: 1 }).html).length;
    const base = encodeUtf16le(mt5Report({ positions: 0, seed: 1 }).html).length;
    let positions = Math.floor(((IMPORT_MAX_BYTES - base) / (sample - base)) * 1000 * 0.995);
    started = performance.now();
    let mt5 = mt5Report({ positions, seed: 42 });
    let mt5Bytes = encodeUtf16le(mt5.html);
    while (mt5Bytes.length > IMPORT_MAX_BYTES) {
      positions -= 100;
      mt5 = mt5Report({ positions, seed: 42 });
      mt5Bytes = encodeUtf16le(mt5.html);
    }
    const mt5File = join(dir, 'ReportHistory.html');
    writeFileSync(mt5File, mt5Bytes);
    console.log(
      `${positions.toLocaleString('en-US')} positions (each with 2 orders and 2 deals: ${((sample - base) / 1000 / 1024).toFixed(1)} KB a position) generated in ${ms(performance.now() - started, 0)}`,
    );
    const mt5Result = report(
      'MT5',
      mt5Bytes.length,
      parseInChildren(paths, mt5File),
      positions,
      mt5.expected.closedTradePL,
    );
    goal('MT5 HTML under 50 MB: parse time (median)', ms(mt5Result.ms, 0), mt5Result.ms < GOAL_MS, `< ${GOAL_MS} ms`);
    goal(
      'MT5 HTML under 50 MB: peak resident memory',
      mb(mt5Result.peak),
      mt5Result.peak < GOAL_BYTES,
      `< ${mb(GOAL_BYTES)}`,
    );

    heading(`MT5 XLSX report, ${positions.toLocaleString('en-US')} positions (UTF-16 XML parts)`);
    const xlsx = mt5Xlsx({ positions, seed: 42 });
    const xlsxFile = join(dir, 'ReportHistory.xlsx');
    writeFileSync(xlsxFile, xlsx.bytes);
    const xlsxResult = report(
      'XLSX',
      xlsx.bytes.length,
      parseInChildren(paths, xlsxFile),
      positions,
      xlsx.expected.closedTradePL,
    );
    console.log(`(no goal: for comparison) parse ${ms(xlsxResult.ms, 0)}, peak ${mb(xlsxResult.peak)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
