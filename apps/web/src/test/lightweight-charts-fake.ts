/**
 * lightweight-charts draws on a canvas, which jsdom lacks: tests of the charts replace it with this module
 * (`vi.mock('lightweight-charts', () => import('…/test/lightweight-charts-fake'))`), which records each series'
 * title, options and data in `charts` instead; a candlestick series' price lines and markers too.
 */
export interface RecordedSeries {
  title: string;
  options: Record<string, unknown>;
  data: { time: number; value?: number }[];
  /** The price lines in place now (created and not removed), by their options. */
  priceLines: { title: string; price: number }[];
  /** The markers last set. */
  markers: { time: number; text: string }[];
  /** The price scale's margins last set. */
  scaleMargins?: { top: number; bottom: number };
}

export const charts = {
  series: [] as RecordedSeries[],
  /** The width the time scale reports (the candles' pane), and the visible ranges set, last one last. */
  plotWidth: 300,
  /** The candles' pane height the chart reports. */
  paneHeight: 260,
  ranges: [] as { from: number; to: number }[],
};

export const LineSeries = { type: 'Line' };
export const CandlestickSeries = { type: 'Candlestick' };
export const LineType = { Simple: 0, WithSteps: 1 };
export const LineStyle = { Solid: 0, Dotted: 1, Dashed: 2 };
export const ColorType = { Solid: 'solid' };

export function createChart() {
  return {
    addSeries: (_definition: unknown, options: { title?: string }) => {
      const series: RecordedSeries = { title: options.title ?? '', options, data: [], priceLines: [], markers: [] };
      charts.series.push(series);
      return {
        setData: (data: RecordedSeries['data']) => (series.data = data),
        applyOptions: (more: Record<string, unknown>) => Object.assign(series.options, more),
        createPriceLine: (line: { title: string; price: number }) => {
          series.priceLines.push(line);
          return line;
        },
        removePriceLine: (line: { title: string; price: number }) => {
          series.priceLines = series.priceLines.filter((l) => l !== line);
        },
        priceScale: () => ({
          applyOptions: (more: { scaleMargins?: RecordedSeries['scaleMargins'] }) =>
            (series.scaleMargins = more.scaleMargins),
        }),
        _recorded: series,
      };
    },
    paneSize: () => ({ width: charts.plotWidth, height: charts.paneHeight }),
    timeScale: () => ({
      fitContent: () => undefined,
      width: () => charts.plotWidth,
      setVisibleLogicalRange: (range: { from: number; to: number }) => charts.ranges.push(range),
    }),
    remove: () => undefined,
  };
}

export function createSeriesMarkers(series: { _recorded: RecordedSeries }, markers: RecordedSeries['markers'] = []) {
  series._recorded.markers = markers;
  return { setMarkers: (next: RecordedSeries['markers']) => (series._recorded.markers = next) };
}
