import { useEffect, useRef } from 'react';
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  LineStyle,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { CHART_COLORS, type ChartBar, type ChartMarker, type ChartPriceLine } from './candle-series';
import { edgeBands, priceMargins } from './price-margins';

export interface CandleChartProps {
  bars: readonly ChartBar[];
  /** Decimals of the price axis. */
  precision: number;
  /** Whether the candles are intraday, so the time axis shows hours. */
  intraday: boolean;
  /** What the chart shows, for screen readers. */
  label: string;
  /** Sizes the chart (it fills its element). */
  className: string;
  /** Arrows on bars (a trade's entry and exit). */
  markers?: readonly ChartMarker[];
  /**
   * Horizontal price levels (a trade's entry, exit, stop loss, take profit). The price axis fits the candles only:
   * pass the levels within their range (`fitLevels`) and show the others beside the chart.
   */
  priceLines?: readonly ChartPriceLine[];
  /** Whether the mouse wheel zooms and scrolls the chart; off where the chart sits in a scrolling list. */
  wheel?: boolean;
}

/** The palette, axes and grid of every candle chart (the replay's too). */
export function candleChartOptions(element: HTMLElement, intraday: boolean, wheel = true) {
  const styles = getComputedStyle(element);
  const text = styles.getPropertyValue('--cui-secondary-color').trim() || '#6b7785';
  const grid = styles.getPropertyValue('--cui-border-color-translucent').trim() || 'rgba(8, 10, 12, 0.1)';
  return {
    autoSize: true,
    layout: { background: { color: 'transparent' }, textColor: text, fontSize: 11 },
    grid: { vertLines: { color: grid }, horzLines: { color: grid } },
    rightPriceScale: { borderVisible: false },
    timeScale: { borderVisible: false, timeVisible: intraday, secondsVisible: false },
    handleScroll: { mouseWheel: wheel },
    handleScale: { mouseWheel: wheel },
  };
}

/** The candles' colours and the price format of `precision` decimals. */
export const candleSeriesOptions = (precision: number) => ({
  upColor: CHART_COLORS.up,
  downColor: CHART_COLORS.down,
  wickUpColor: CHART_COLORS.up,
  wickDownColor: CHART_COLORS.down,
  borderVisible: false,
  // The last price keeps its axis label, but no line of its own that could pass for a marked level.
  priceLineVisible: false,
  priceFormat: { type: 'price' as const, precision, minMove: 1 / 10 ** precision },
  // No autoscale provider here: the price scale fits the candles alone (price lines never widen it).
});

/** lightweight-charts' line styles by the names ChartPriceLine uses. */
export const LINE_STYLES = { solid: LineStyle.Solid, dashed: LineStyle.Dashed, dotted: LineStyle.Dotted } as const;

/**
 * Keeps the price scale's margins (price-margins.ts) right for `markers` and the edge labels laid out beside
 * `element`, the chart's element, so that neither runs into the candles on a short or narrow chart: set now, and again
 * after each change of the element's size (the pane's height and the labels' rows follow it). Returns the clean-up.
 */
export function followPriceMargins(
  chart: IChartApi,
  series: ISeriesApi<'Candlestick'>,
  element: HTMLElement,
  markers: readonly Pick<ChartMarker, 'time' | 'position'>[],
): () => void {
  const fit = () => {
    const height = chart.paneSize().height;
    series.priceScale().applyOptions({ scaleMargins: priceMargins(markers, edgeBands(element, height), height) });
  };
  fit();
  if (typeof ResizeObserver === 'undefined') return () => undefined;
  // After the chart has taken the new size (its own observer may run after this one).
  let frame = 0;
  const resized = new ResizeObserver(() => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(fit);
  });
  resized.observe(element);
  return () => {
    resized.disconnect();
    cancelAnimationFrame(frame);
  };
}

const NO_MARKERS: readonly ChartMarker[] = [];
const NO_LINES: readonly ChartPriceLine[] = [];

/** The app's one candlestick chart: the palette, axes and grid every candle chart shares (lightweight-charts). */
export function CandleChart({
  bars,
  precision,
  intraday,
  label,
  className,
  markers = NO_MARKERS,
  priceLines = NO_LINES,
  wheel = true,
}: CandleChartProps) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element || bars.length === 0) return;
    const chart = createChart(element, candleChartOptions(element, intraday, wheel));
    const series = chart.addSeries(CandlestickSeries, candleSeriesOptions(precision));
    series.setData(bars.map((bar) => ({ ...bar, time: bar.time as UTCTimestamp })));
    if (markers.length > 0)
      createSeriesMarkers(
        series,
        markers.map((marker) => ({ ...marker, time: marker.time as UTCTimestamp })),
      );
    if (priceLines.length > 0) {
      for (const line of priceLines)
        series.createPriceLine({
          price: line.price,
          color: line.color,
          title: line.title,
          lineWidth: 1,
          lineStyle: LINE_STYLES[line.style],
          axisLabelVisible: true,
        });
    }
    chart.timeScale().fitContent();
    const margins = followPriceMargins(chart, series, element, markers);
    return () => {
      margins();
      chart.remove();
    };
  }, [bars, precision, intraday, markers, priceLines, wheel]);

  return <div ref={container} className={className} role="img" aria-label={label} />;
}
