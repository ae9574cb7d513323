import type { Candle, CandlesResult } from '@pipsense/contract';
import { round } from '../../../domain/rounding';
import { compareDecimals, decimalPlaces, roundDecimal, subtractDecimals, sumDecimals } from '../../../domain/decimal';

interface CandleBar {
  time: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: number;
  complete: boolean;
}

export interface CandleStats {
  instrument: string;
  granularity: string;
  count: number;
  firstTime: string | null;
  lastTime: string | null;
  /** Open of the first candle, close of the last. */
  open: string | null;
  close: string | null;
  /** close − open, exact, and as a percent of open (3 decimals). */
  change: string | null;
  changePercent: number | null;
  high: string | null;
  highTime: string | null;
  low: string | null;
  lowTime: string | null;
  /** high − low, exact, and as a percent of the low (3 decimals). */
  range: string | null;
  rangePercent: number | null;
  /** Mean high − low of a candle, at the instrument's precision. */
  averageCandleRange: string | null;
  /** Standard deviation of close-to-close returns, percent per candle (4 decimals). */
  volatilityPercent: number | null;
  upCandles: number;
  downCandles: number;
  /** True when the last candle is still forming. */
  lastIncomplete: boolean;
  /** The most recent candles, oldest first. */
  recent: CandleBar[];
}

/** Mid prices (the default); a candle with only bid/ask is skipped. */
function bars(candles: ReadonlyArray<Candle>): CandleBar[] {
  const out: CandleBar[] = [];
  for (const c of candles) {
    const p = c.mid ?? undefined;
    if (!p) continue;
    out.push({ time: c.time, open: p.o, high: p.h, low: p.l, close: p.c, volume: c.volume, complete: c.complete });
  }
  return out;
}

export function candleStats(result: CandlesResult, recentCount = 5): CandleStats {
  const list = bars(result.candles);
  const base = {
    instrument: result.instrument,
    granularity: result.granularity,
    count: list.length,
    upCandles: list.filter((b) => compareDecimals(b.close, b.open) > 0).length,
    downCandles: list.filter((b) => compareDecimals(b.close, b.open) < 0).length,
    lastIncomplete: list.length > 0 && !list[list.length - 1]!.complete,
    recent: list.slice(-recentCount),
  };
  const first = list[0];
  const last = list[list.length - 1];
  if (!first || !last) {
    return {
      ...base,
      firstTime: null,
      lastTime: null,
      open: null,
      close: null,
      change: null,
      changePercent: null,
      high: null,
      highTime: null,
      low: null,
      lowTime: null,
      range: null,
      rangePercent: null,
      averageCandleRange: null,
      volatilityPercent: null,
    };
  }
  let high = first;
  let low = first;
  for (const b of list) {
    if (compareDecimals(b.high, high.high) > 0) high = b;
    if (compareDecimals(b.low, low.low) < 0) low = b;
  }
  const places = Math.max(...list.map((b) => decimalPlaces(b.close)));
  const change = subtractDecimals(last.close, first.open);
  const range = subtractDecimals(high.high, low.low);
  const ranges = list.map((b) => subtractDecimals(b.high, b.low));
  const meanRange = Number(sumDecimals(ranges)) / list.length;

  const returns: number[] = [];
  for (let i = 1; i < list.length; i += 1) {
    const previous = Number(list[i - 1]!.close);
    if (previous > 0) returns.push((Number(list[i]!.close) / previous - 1) * 100);
  }
  let volatility: number | null = null;
  if (returns.length >= 2) {
    const mean = returns.reduce((s, r) => s + r, 0) / returns.length;
    const variance = returns.reduce((s, r) => s + (r - mean) ** 2, 0) / (returns.length - 1);
    volatility = round(Math.sqrt(variance), 4);
  }

  // The summary first and the candles last: readers (and models) meet the figures that matter first.
  return {
    instrument: base.instrument,
    granularity: base.granularity,
    count: base.count,
    firstTime: first.time,
    lastTime: last.time,
    open: first.open,
    close: last.close,
    change,
    changePercent: round((Number(change) / Number(first.open)) * 100, 3),
    high: high.high,
    highTime: high.time,
    low: low.low,
    lowTime: low.time,
    range,
    rangePercent: round((Number(range) / Number(low.low)) * 100, 3),
    averageCandleRange: roundDecimal(meanRange.toFixed(places + 2), places),
    volatilityPercent: volatility,
    upCandles: base.upCandles,
    downCandles: base.downCandles,
    lastIncomplete: base.lastIncomplete,
    recent: base.recent,
  };
}
