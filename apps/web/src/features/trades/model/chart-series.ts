import type { TradeItem, TradeListItem } from '@pipsense/contract';
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

/**
 * MAE and MFE as dots on the bars where the trade was furthest against and for it: among the bars of the trade's life,
 * the one whose low (a long's MAE, a short's MFE) or high (a long's MFE, a short's MAE) is nearest the excursion's price.
 */
export function excursionMarkers(
  trade: Pick<TradeListItem, 'initialUnits' | 'openTime' | 'closeTime' | 'mae' | 'mfe'>,
  bars: readonly ChartBar[],
): ChartMarker[] {
  const start = barTimeAt(bars, Date.parse(trade.openTime));
  if (start === undefined) return [];
  const end = trade.closeTime ? barTimeAt(bars, Date.parse(trade.closeTime)) : bars[bars.length - 1]!.time;
  const life = bars.filter((bar) => bar.time >= start && bar.time <= (end ?? start));
  const short = isShort(trade);
  const markers: ChartMarker[] = [];
  const mark = (value: TradeListItem['mae'], label: 'MAE' | 'MFE', onLow: boolean) => {
    if (!value || life.length === 0) return;
    const price = Number(value.price);
    if (!Number.isFinite(price)) return;
    let best = life[0]!;
    for (const bar of life)
      if (Math.abs((onLow ? bar.low : bar.high) - price) < Math.abs((onLow ? best.low : best.high) - price)) best = bar;
    markers.push({
      time: best.time,
      position: onLow ? 'belowBar' : 'aboveBar',
      shape: 'circle',
      color: label === 'MAE' ? CHART_COLORS.mae : CHART_COLORS.mfe,
      text: `${label} ${value.price}`,
    });
  };
  mark(trade.mae, 'MAE', !short);
  mark(trade.mfe, 'MFE', short);
  return markers;
}

/** Entry, exit, MAE and MFE markers in time order (the chart requires it). */
export const allTradeMarkers = (
  trade: Pick<TradeListItem, 'initialUnits' | 'price' | 'openTime' | 'closeTime' | 'averageClosePrice' | 'mae' | 'mfe'>,
  bars: readonly ChartBar[],
) => [...tradeMarkers(trade, bars), ...excursionMarkers(trade, bars)].sort((a, b) => a.time - b.time);
