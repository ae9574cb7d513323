import type { Candle, Granularity } from '@pipsense/contract';

/** A candle as the chart draws it: time in seconds on the chart's clock, prices as numbers. */
export interface ChartBar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

export interface ChartMarker {
  time: number;
  position: 'aboveBar' | 'belowBar';
  shape: 'arrowUp' | 'arrowDown' | 'circle' | 'square';
  color: string;
  text: string;
}

export interface ChartPriceLine {
  price: number;
  color: string;
  title: string;
  style: 'solid' | 'dashed' | 'dotted';
}

/** The one palette of the candle charts (CoreUI's success, danger, primary and secondary colours). */
export const CHART_COLORS = {
  up: '#2eb85c',
  down: '#e55353',
  entry: '#321fdb',
  exit: '#6b7785',
  stopLoss: '#e55353',
  takeProfit: '#2eb85c',
  mae: '#f9b115',
  mfe: '#3399ff',
} as const;

/**
 * docs/PRODUCT.md, AI chat, names the chat's granularities ('1 Minute', '5 Minutes', '15 Minutes', '1 Hour', '1 Day');
 * every other granularity OANDA has is named the same way.
 */
export const GRANULARITY_LABELS: Record<Granularity, string> = {
  S5: '5 Seconds',
  S10: '10 Seconds',
  S15: '15 Seconds',
  S30: '30 Seconds',
  M1: '1 Minute',
  M2: '2 Minutes',
  M4: '4 Minutes',
  M5: '5 Minutes',
  M10: '10 Minutes',
  M15: '15 Minutes',
  M30: '30 Minutes',
  H1: '1 Hour',
  H2: '2 Hours',
  H3: '3 Hours',
  H4: '4 Hours',
  H6: '6 Hours',
  H8: '8 Hours',
  H12: '12 Hours',
  D: '1 Day',
  W: '1 Week',
  M: '1 Month',
};

export const granularityLabel = (granularity: string): string =>
  GRANULARITY_LABELS[granularity as Granularity] ?? granularity;

/** Daily, weekly and monthly candles start at midnight: their time of day says nothing, so the axis shows dates. */
export const isIntraday = (granularity: string) => !['D', 'W', 'M'].includes(granularity);

/**
 * lightweight-charts draws times as UTC; shifting each instant by the local offset at that instant makes the axis read
 * in the user's local time, as the rest of the screen does (the library's documented way to show a time zone).
 */
export function toChartTime(instantMs: number): number {
  const offsetMinutes = new Date(instantMs).getTimezoneOffset();
  return Math.floor(instantMs / 1000) - offsetMinutes * 60;
}

/** The instant as it is, in seconds: an axis that reads in UTC, the broker's clock. */
export const utcChartTime = (instantMs: number): number => Math.floor(instantMs / 1000);

/**
 * OANDA candles (mid prices) as bars, oldest first, one per time (the chart rejects anything else: of two candles at
 * one time the later one, the more complete, is kept), skipping candles without mid prices or a readable time.
 */
export function candlesToBars(candles: readonly Candle[], chartTime: (instantMs: number) => number = toChartTime) {
  const byTime = new Map<number, ChartBar>();
  for (const candle of candles) {
    const instant = Date.parse(candle.time);
    if (!candle.mid || Number.isNaN(instant)) continue;
    const time = chartTime(instant);
    byTime.set(time, {
      time,
      open: Number(candle.mid.o),
      high: Number(candle.mid.h),
      low: Number(candle.mid.l),
      close: Number(candle.mid.c),
    });
  }
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}

/**
 * The decimals the instrument is quoted with (3 for JPY pairs, 5 for most others), so the axis reads like the broker.
 */
export function pricePrecision(candles: readonly Candle[], price?: string | null): number {
  const decimals = (value: string | undefined | null) => (value?.split('.')[1] ?? '').length;
  let precision = decimals(price);
  for (const { mid } of candles)
    if (mid) precision = Math.max(precision, decimals(mid.o), decimals(mid.h), decimals(mid.l), decimals(mid.c));
  return Math.min(Math.max(precision, 1), 8);
}

/** A level outside the candles' range: not drawn (the scale fits the candles) but named at the chart's edge. */
export interface EdgeLabel {
  title: string;
  price: number;
  color: string;
  /** Above the highest high (the top edge) or below the lowest low (the bottom edge). */
  edge: 'top' | 'bottom';
  /** 'SL 1.09500 ↓'. */
  text: string;
}

/**
 * The price scale fits the candles alone, so they never flatten into a line; a level within the candles' range is
 * drawn as a line, one beyond it becomes a label at the edge it lies past, with an arrow pointing to it.
 */
export function fitLevels(
  bars: readonly ChartBar[],
  lines: readonly ChartPriceLine[],
  precision: number,
): { lines: ChartPriceLine[]; edges: EdgeLabel[] } {
  if (bars.length === 0) return { lines: [], edges: [] };
  let low = Infinity;
  let high = -Infinity;
  for (const bar of bars) {
    low = Math.min(low, bar.low);
    high = Math.max(high, bar.high);
  }
  const inRange: ChartPriceLine[] = [];
  const edges: EdgeLabel[] = [];
  for (const line of lines) {
    if (line.price >= low && line.price <= high) inRange.push(line);
    else {
      const edge = line.price > high ? 'top' : 'bottom';
      const arrow = edge === 'top' ? '↑' : '↓';
      edges.push({
        title: line.title,
        price: line.price,
        color: line.color,
        edge,
        text: `${line.title} ${line.price.toFixed(precision)} ${arrow}`,
      });
    }
  }
  return { lines: inRange, edges };
}
