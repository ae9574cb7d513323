/*
 * Run alone in a fresh Node process by bench/analytics.bench.ts (bundled to plain JavaScript first, so no
 * TypeScript loader shares the heap): generates the trades, computes the metrics once, and prints one JSON
 * line with the process's memory at each step. Argument: number of trades. Run with --expose-gc.
 */
import { peakRss, resetPeak } from './peak-rss';
import { computeMetrics } from '../../apps/server/src/modules/analytics/engine';
import { generateSyntheticTrades, syntheticAccounts, SYNTHETIC_NOW } from '../../apps/server/src/test/synthetic-trades';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const n = Number(process.argv[2] ?? 100_000);
const rssStart = process.memoryUsage().rss;
const trades = generateSyntheticTrades(n, 42);
const accounts = syntheticAccounts(trades);
const peakGenerating = peakRss();
// What a server holding these trades would keep after its own collections.
gc();
const rssData = process.memoryUsage().rss;
const heapData = process.memoryUsage().heapUsed;
const peakIsComputeOnly = resetPeak();
const started = performance.now();
const metrics = computeMetrics(trades, accounts, { now: SYNTHETIC_NOW, timeZone: 'America/New_York' });
const computeMs = performance.now() - started;
const rssAfter = process.memoryUsage().rss;
console.log(
  JSON.stringify({
    trades: metrics.tradeCount,
    rssStart,
    peakGenerating,
    rssData,
    heapData,
    rssAfter,
    peakComputing: peakRss(),
    peakIsComputeOnly,
    computeMs,
  }),
);
