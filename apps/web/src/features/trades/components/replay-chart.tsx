import { useEffect, useRef } from 'react';
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import {
  candleChartOptions,
  candleSeriesOptions,
  followMarkerTexts,
  followPriceMargins,
  LINE_STYLES,
  seriesMarkers,
} from '../../../components/charts/candle-chart';
import type { ChartBar, ChartMarker, ChartPriceLine, EdgeLabel } from '../../../components/charts/candle-series';
import { EdgeLabels } from '../../../components/charts/edge-labels';
import { replayRange, type MarkerSpot } from '../model/replay-frame';

/** The price scale's width before the chart has measured it (5-decimal prices at 11 px). */
const PRICE_SCALE_PX = 60;

export interface ReplayChartProps {
  /** The candles up to the current one. */
  bars: readonly ChartBar[];
  /** How many candles the whole replay has: the time axis holds room for all of them from the start. */
  total: number;
  lines: readonly ChartPriceLine[];
  /** The levels beyond the candles, named at the chart's edges (candle-series.ts `fitLevels`). */
  edges: readonly EdgeLabel[];
  markers: readonly ChartMarker[];
  /** The whole replay's markers, at their candles: the time range keeps room for their text from the start. */
  spots: readonly MarkerSpot[];
  precision: number;
  intraday: boolean;
  label: string;
  className: string;
}

interface Drawn {
  chart: IChartApi;
  series: ISeriesApi<'Candlestick'>;
  markers: ISeriesMarkersPluginApi<Time>;
  lines: IPriceLine[];
}

/**
 * The replay's candle chart: the shared candle chart's look (components/charts/candle-chart.tsx), built once and fed
 * a frame at a time, so that playing does not rebuild it. As there, the price scale fits the candles shown: pass the
 * levels within their range (`fitLevels`) and name the others beside the chart.
 */
export function ReplayChart({
  bars,
  total,
  lines,
  edges,
  markers,
  spots,
  precision,
  intraday,
  label,
  className,
}: ReplayChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const drawn = useRef<Drawn | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const chart = createChart(element, candleChartOptions(element, intraday, false));
    const series = chart.addSeries(CandlestickSeries, candleSeriesOptions(precision));
    drawn.current = { chart, series, markers: createSeriesMarkers(series, []), lines: [] };
    return () => {
      drawn.current = null;
      chart.remove();
    };
  }, [precision, intraday]);

  useEffect(() => {
    const d = drawn.current;
    if (!d) return;
    d.series.setData(bars.map((bar) => ({ ...bar, time: bar.time as UTCTimestamp })));
    // The whole replay's width from the start: the candles to come are blank space on the right, with room for the
    // markers' text at either end (on a phone the exit's would run under the price scale).
    const measured = d.chart.timeScale().width();
    const plotWidth = measured > 0 ? measured : (container.current?.clientWidth ?? 0) - PRICE_SCALE_PX;
    d.chart.timeScale().setVisibleLogicalRange(replayRange(Math.max(total, bars.length), plotWidth, spots));
  }, [bars, total, spots, precision, intraday]);

  useEffect(() => {
    drawn.current?.markers.setMarkers(seriesMarkers(markers));
  }, [markers, precision, intraday]);

  useEffect(() => {
    const d = drawn.current;
    if (!d) return;
    for (const line of d.lines) d.series.removePriceLine(line);
    d.lines = lines.map((line) =>
      d.series.createPriceLine({
        price: line.price,
        color: line.color,
        title: line.title,
        lineWidth: 1,
        lineStyle: LINE_STYLES[line.style],
        axisLabelVisible: true,
      }),
    );
  }, [lines, precision, intraday]);

  useEffect(() => {
    const d = drawn.current;
    const element = container.current;
    if (!d || !element) return;
    return followPriceMargins(d.chart, d.series, element, markers);
  }, [edges, markers, lines, precision, intraday]);

  // After the candles, the time range and the margins of this frame: the texts' places follow them.
  useEffect(() => {
    const d = drawn.current;
    const element = container.current;
    if (!d || !element) return;
    return followMarkerTexts(d.chart, d.series, d.markers, element, markers, bars);
  }, [bars, edges, markers, lines, precision, intraday]);

  return (
    <>
      <div ref={container} className={className} role="img" aria-label={label} />
      <EdgeLabels edges={edges} />
    </>
  );
}
