import { useEffect, useRef } from 'react';
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  LineStyle,
  type IChartApi,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type MouseEventParams,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { CHART_COLORS, type ChartBar, type ChartMarker, type ChartPriceLine } from './candle-series';
import { MARKER_CHAR_PX, spaceMarkerTexts, type MarkerView } from './marker-texts';
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

/** Markers as lightweight-charts takes them: times on its clock, and their index as the id a hover reports. */
export const seriesMarkers = (markers: readonly ChartMarker[]) =>
  markers.map((marker, index) => ({ ...marker, time: marker.time as UTCTimestamp, id: String(index) }));

/**
 * Keeps the texts of `markers`, drawn by `plugin` on `series`, clear of one another (marker-texts.ts) as the chart
 * draws them: set now, and again after each change of the element's size and each zoom or scroll (the candles'
 * spacing and the price scale follow them). A text shortened there shows in full as the element's tooltip while the
 * pointer is on its marker. Without layout (no ResizeObserver) there is nothing to measure: the markers stay as they
 * were set. Returns the clean-up.
 */
export function followMarkerTexts(
  chart: IChartApi,
  series: ISeriesApi<'Candlestick'>,
  plugin: ISeriesMarkersPluginApi<Time>,
  element: HTMLElement,
  markers: readonly ChartMarker[],
  bars: readonly ChartBar[],
): () => void {
  if (typeof ResizeObserver === 'undefined' || markers.length === 0) return () => undefined;
  const byTime = new Map(bars.map((bar) => [bar.time, bar]));
  const { fontSize, fontFamily } = chart.options().layout;
  const measure = document.createElement('canvas').getContext('2d');
  if (measure) measure.font = `${fontSize}px ${fontFamily}`;
  const view = (): MarkerView => ({
    barSpacing: chart.timeScale().options().barSpacing,
    fontSize,
    candle: (time) => {
      const bar = byTime.get(time);
      const x = chart.timeScale().timeToCoordinate(time as UTCTimestamp);
      const high = bar && series.priceToCoordinate(bar.high);
      const low = bar && series.priceToCoordinate(bar.low);
      return x === null || high == null || low == null ? null : { x, high, low };
    },
    textWidth: (text) => (measure ? measure.measureText(text).width : text.length * MARKER_CHAR_PX),
  });
  let shown: readonly ChartMarker[] | null = null;
  const place = () => {
    const next = spaceMarkerTexts(markers, view());
    const changed = !shown || next.some((marker, i) => marker.text !== shown![i]?.text);
    shown = next;
    if (changed) plugin.setMarkers(seriesMarkers(next));
  };
  place();
  let frame = 0;
  const later = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(place);
  };
  const resized = new ResizeObserver(later);
  resized.observe(element);
  chart.timeScale().subscribeVisibleLogicalRangeChange(later);
  const hover = ({ hoveredObjectId }: MouseEventParams) => {
    const i = typeof hoveredObjectId === 'string' ? Number(hoveredObjectId) : NaN;
    const full = markers[i]?.text;
    if (full && full !== shown?.[i]?.text) element.title = full;
    else element.removeAttribute('title');
  };
  chart.subscribeCrosshairMove(hover);
  return () => {
    resized.disconnect();
    cancelAnimationFrame(frame);
    chart.timeScale().unsubscribeVisibleLogicalRangeChange(later);
    chart.unsubscribeCrosshairMove(hover);
    element.removeAttribute('title');
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
    const plugin = markers.length > 0 ? createSeriesMarkers(series, seriesMarkers(markers)) : null;
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
    // After the margins: the texts' places follow the price scale.
    const texts = plugin ? followMarkerTexts(chart, series, plugin, element, markers, bars) : () => undefined;
    return () => {
      texts();
      margins();
      chart.remove();
    };
  }, [bars, precision, intraday, markers, priceLines, wheel]);

  return <div ref={container} className={className} role="img" aria-label={label} />;
}
