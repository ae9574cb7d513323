import type { Candle } from '@pipsense/contract';
import { candlesToBars, pricePrecision, utcChartTime, type ChartBar } from '../../../components/charts/candle-series';

export interface CandleSeries {
  /** Times in seconds since the epoch, UTC: the broker's clock, which the answer's text speaks in. */
  points: ChartBar[];
  /** Decimals the broker quotes this pair with (3 for JPY pairs, 5 for most others). */
  precision: number;
}

/** The chart's data from OANDA mid candles (see candlesToBars), on the UTC clock. */
export function candleSeries(candles: readonly Candle[]): CandleSeries {
  return { points: candlesToBars(candles, utcChartTime), precision: pricePrecision(candles) };
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
