import type { Candle, TradeItem } from '@pipsense/contract';

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
  shape: 'arrowUp' | 'arrowDown';
  color: string;
  text: string;
}

export interface ChartPriceLine {
  price: number;
  color: string;
  title: string;
  style: 'solid' | 'dashed' | 'dotted';
}

export const CHART_COLORS = {
  up: '#2eb85c',
  down: '#e55353',
  entry: '#321fdb',
  exit: '#6b7785',
  stopLoss: '#e55353',
  takeProfit: '#2eb85c',
} as const;

/**
 * lightweight-charts draws times as UTC; shifting each instant by the local offset at that instant makes the axis read
 * in the user's local time, as the rest of the screen does (the library's documented way to show a time zone).
 */
export function toChartTime(instantMs: number): number {
  const offsetMinutes = new Date(instantMs).getTimezoneOffset();
  return Math.floor(instantMs / 1000) - offsetMinutes * 60;
}

/** OANDA candles (mid prices) as bars, oldest first, skipping any candle without mid prices. */
export function candlesToBars(candles: readonly Candle[]): ChartBar[] {
  const bars: ChartBar[] = [];
  for (const candle of candles) {
    const instant = Date.parse(candle.time);
    if (!candle.mid || Number.isNaN(instant)) continue;
    bars.push({
      time: toChartTime(instant),
      open: Number(candle.mid.o),
      high: Number(candle.mid.h),
      low: Number(candle.mid.l),
      close: Number(candle.mid.c),
    });
  }
  bars.sort((a, b) => a.time - b.time);
  // The chart rejects two bars at one time; keep the later one (the more complete candle).
  return bars.filter((bar, index) => bars[index + 1]?.time !== bar.time);
}

/** The number of decimals the instrument is quoted with, so the price axis reads like the broker's prices. */
export function pricePrecision(candles: readonly Candle[], tradePrice: string | null): number {
  const decimals = (value: string | undefined | null) => (value?.split('.')[1] ?? '').length;
  let precision = decimals(tradePrice);
  for (const candle of candles.slice(0, 20)) precision = Math.max(precision, decimals(candle.mid?.c));
  return Math.min(Math.max(precision, 1), 8);
}

/** The time of the bar an instant falls in: the last bar starting at or before it (the first bar if none does). */
export function barTimeAt(bars: readonly ChartBar[], instantMs: number): number | undefined {
  if (bars.length === 0) return undefined;
  const time = toChartTime(instantMs);
  let found = bars[0]!.time;
  for (const bar of bars) {
    if (bar.time > time) break;
    found = bar.time;
  }
  return found;
}

const isShort = (trade: Pick<TradeItem, 'initialUnits'>) => trade.initialUnits.trim().startsWith('-');

/** Entry and exit arrows: a long enters with a buy (up, below the bar) and leaves with a sell; a short the reverse. */
export function tradeMarkers(
  trade: Pick<TradeItem, 'initialUnits' | 'price' | 'openTime' | 'closeTime' | 'averageClosePrice'>,
  bars: readonly ChartBar[],
): ChartMarker[] {
  const short = isShort(trade);
  const markers: ChartMarker[] = [];
  const buy = { position: 'belowBar', shape: 'arrowUp', color: CHART_COLORS.up } as const;
  const sell = { position: 'aboveBar', shape: 'arrowDown', color: CHART_COLORS.down } as const;
  const entryTime = barTimeAt(bars, Date.parse(trade.openTime));
  if (entryTime !== undefined)
    markers.push({
      time: entryTime,
      ...(short ? sell : buy),
      text: `${short ? 'Sell' : 'Buy'} ${trade.price ?? ''}`.trim(),
    });
  if (trade.closeTime) {
    const exitTime = barTimeAt(bars, Date.parse(trade.closeTime));
    if (exitTime !== undefined)
      markers.push({
        time: exitTime,
        ...(short ? buy : sell),
        text: `Close ${trade.averageClosePrice ?? ''}`.trim(),
      });
  }
  return markers.sort((a, b) => a.time - b.time);
}

/** Horizontal lines at the entry price, the close price and the stop-loss / take-profit levels the trade has. */
export function tradePriceLines(
  trade: Pick<TradeItem, 'price' | 'averageClosePrice' | 'stopLossPrice' | 'takeProfitPrice'>,
): ChartPriceLine[] {
  const lines: ChartPriceLine[] = [];
  const add = (value: string | null, title: string, color: string, style: ChartPriceLine['style']) => {
    if (value !== null && value !== '' && Number.isFinite(Number(value)))
      lines.push({ price: Number(value), title, color, style });
  };
  add(trade.price, 'Entry', CHART_COLORS.entry, 'dashed');
  add(trade.averageClosePrice, 'Exit', CHART_COLORS.exit, 'dashed');
  add(trade.stopLossPrice, 'SL', CHART_COLORS.stopLoss, 'dotted');
  add(trade.takeProfitPrice, 'TP', CHART_COLORS.takeProfit, 'dotted');
  return lines;
}
