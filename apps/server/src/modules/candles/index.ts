/**
 * The candle store's public face (docs/ARCHITECTURE.md; docs/decisions/023-candle-store.md): the one owner of OANDA
 * candles. Nothing else asks OANDA for candles; every reader names its priority.
 *
 * Built once in app.ts: `createCandleStore({ db, oanda, budget, now, credentials })` with
 * `createCandleBudget({ counter })`, the counter `redisWindowCounter(REDIS_URL)` (shared by every instance) or
 * `memoryWindowCounter(now)` (this instance's own).
 *
 * Reads (prices are OANDA's exact decimal strings; times the stored UTC form, `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`):
 * - `store.read({ credentials, instrument, granularity, price?: 'M'|'B'|'A', from, to, priority, wait? })`
 *   → `Promise<Candle[]>`, `Candle = { time, o, h, l, c, volume, complete }`: every candle overlapping [from, to) in
 *   time order; only the forming candle has `complete: false`. Stored candles are not asked for again.
 * - `store.readForUser(userId, { instrument, granularity, price?, from, to, priority })` → `Promise<Candle[] | null>`:
 *   null when the user has no OANDA connection (no candle source: say so, never guess).
 * - `store.latest({ credentials, instrument, granularity, price?, count, from?, to?, priority })` → the newest
 *   `count` candles (OANDA's counted request), the forming one last.
 * - `store.dailyClose({ credentials, instrument, day: 'YYYY-MM-DD', priority })` and
 *   `store.dailyCloseForUser(userId, { instrument, day, priority })` → `Promise<{ time, close } | null>`: the mid
 *   close of the daily candle that closed during that UTC day (17:00 New York), a weekend's being Friday's; the
 *   rate of a conversion on that day.
 * Priorities: `interactive` (a screen waits for it), `rebuild` (the background equity rebuild), `batch` (MAE/MFE;
 * with `wait: false` a spent budget rejects with `CandleBudgetSpent` and the work is left for a later run).
 * OANDA failures reject with the client's OandaError, as the client's calls do.
 */
export { createCandleStore, type Candle, type CandleStore, type PriceComponent } from './candle-store';
export { CandleBudgetSpent, createCandleBudget } from './candle-budget';
export { dailyClosesFor } from './daily-closes';
export { memoryWindowCounter, redisWindowCounter, type WindowCounter } from './window-counter';
export type { CandlesTables } from './tables';
