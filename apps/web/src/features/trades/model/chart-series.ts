import type { TradeItem } from '@pipsense/contract';
import {
  CHART_COLORS,
  toChartTime,
  type ChartBar,
  type ChartMarker,
  type ChartPriceLine,
} from '../../../components/charts/candle-series';

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
