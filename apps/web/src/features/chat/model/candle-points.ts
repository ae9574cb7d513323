import type { Candle } from '@pipsense/contract';

export interface CandlePoint {
  /** Seconds since the epoch, UTC: lightweight-charts' time unit. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

export interface CandleSeries {
  points: CandlePoint[];
  /** Decimals the broker quotes this pair with (3 for JPY pairs, 5 for most others). */
  precision: number;
}

const decimalsOf = (value: string) => value.split('.')[1]?.length ?? 0;

/**
 * The chart's data from OANDA mid candles: strictly ascending, one point per time (the chart library rejects
 * anything else), candles without mid prices or with an unreadable time left out.
 */
export function candleSeries(candles: readonly Candle[]): CandleSeries {
  const byTime = new Map<number, CandlePoint>();
  let precision = 0;
  for (const candle of candles) {
    const mid = candle.mid;
    const ms = Date.parse(candle.time);
    if (!mid || Number.isNaN(ms)) continue;
    precision = Math.max(precision, decimalsOf(mid.o), decimalsOf(mid.h), decimalsOf(mid.l), decimalsOf(mid.c));
    byTime.set(Math.floor(ms / 1000), {
      time: Math.floor(ms / 1000),
      open: Number(mid.o),
      high: Number(mid.h),
      low: Number(mid.l),
      close: Number(mid.c),
    });
  }
  const points = [...byTime.values()].sort((a, b) => a.time - b.time);
  return { points, precision };
}

export interface CandleSummary {
  lastClose: string;
  /** Close of the last candle minus open of the first, signed, at the pair's precision. */
  change: string;
  changePercent: string;
  high: string;
  low: string;
}

/** A change rounded for display, with its sign; a change that rounds to zero has none (never '-0.000'). */
function signed(value: number, decimals: number): string {
  const digits = Math.abs(value).toFixed(decimals);
  if (Number(digits) === 0) return digits;
  return `${value > 0 ? '+' : '-'}${digits}`;
}

export function summarizeCandles({ points, precision }: CandleSeries): CandleSummary | null {
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return null;
  const change = last.close - first.open;
  const pct = first.open === 0 ? 0 : (change / first.open) * 100;
  return {
    lastClose: last.close.toFixed(precision),
    change: signed(change, precision),
    changePercent: `${signed(pct, 2)}%`,
    high: Math.max(...points.map((p) => p.high)).toFixed(precision),
    low: Math.min(...points.map((p) => p.low)).toFixed(precision),
  };
}
