import { useEffect, useRef } from 'react';
import {
  CandlestickSeries,
  ColorType,
  createChart,
  createSeriesMarkers,
  LineStyle,
  type AutoscaleInfo,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { Candle, TradeItem } from '@pipsense/contract';
import {
  candlesToBars,
  CHART_COLORS,
  pricePrecision,
  tradeMarkers,
  tradePriceLines,
  type ChartPriceLine,
} from '../model/chart-series';

const LINE_STYLES: Record<ChartPriceLine['style'], LineStyle> = {
  solid: LineStyle.Solid,
  dashed: LineStyle.Dashed,
  dotted: LineStyle.Dotted,
};

export interface CandleChartProps {
  candles: readonly Candle[];
  trade: TradeItem;
  /** Whether the candles are intraday, so the time axis shows hours. */
  intraday: boolean;
  label: string;
}

/** The instrument's candles with the trade's entry and exit marked (arrows) and its price levels drawn (lines). */
export function CandleChart({ candles, trade, intraday, label }: CandleChartProps) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const styles = getComputedStyle(element);
    const chart = createChart(element, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: 'transparent' },
        textColor: styles.color || '#4f5d73',
        fontSize: 11,
        attributionLogo: true,
      },
      grid: { vertLines: { color: 'rgba(128, 128, 128, 0.12)' }, horzLines: { color: 'rgba(128, 128, 128, 0.12)' } },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false, timeVisible: intraday, secondsVisible: false },
    });
    const precision = pricePrecision(candles, trade.price);
    const lines = tradePriceLines(trade);
    const levels = lines.map((line) => line.price);
    const series = chart.addSeries(CandlestickSeries, {
      upColor: CHART_COLORS.up,
      downColor: CHART_COLORS.down,
      borderVisible: false,
      wickUpColor: CHART_COLORS.up,
      wickDownColor: CHART_COLORS.down,
      // The last price keeps its axis label, but no line of its own that could pass for the trade's levels.
      priceLineVisible: false,
      priceFormat: { type: 'price', precision, minMove: 10 ** -precision },
      // The price scale fits the candles by default; widen it so the entry, exit, stop and target are all in view.
      autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
        const info = original();
        if (!info?.priceRange || levels.length === 0) return info;
        const { minValue, maxValue } = info.priceRange;
        return {
          ...info,
          priceRange: { minValue: Math.min(minValue, ...levels), maxValue: Math.max(maxValue, ...levels) },
        };
      },
    });
    const bars = candlesToBars(candles);
    series.setData(bars.map((bar) => ({ ...bar, time: bar.time as UTCTimestamp })));
    createSeriesMarkers(
      series,
      tradeMarkers(trade, bars).map((marker) => ({ ...marker, time: marker.time as UTCTimestamp })),
    );
    for (const line of lines)
      series.createPriceLine({
        price: line.price,
        color: line.color,
        title: line.title,
        lineWidth: 1,
        lineStyle: LINE_STYLES[line.style],
        axisLabelVisible: true,
      });
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [candles, trade, intraday]);

  return <div ref={container} className="trade-chart-canvas" role="img" aria-label={label} />;
}
