/**
 * lightweight-charts draws on a canvas, which jsdom lacks: tests of the charts replace it with this module
 * (`vi.mock('lightweight-charts', () => import('…/test/lightweight-charts-fake'))`), which records each chart's
 * options and series in `charts` instead, and each series' kind, pane, title, options and data; a candlestick series'
 * price lines, markers and price scale margins too. Only the calls the app makes are here, shaped as the library's.
 */
export interface RecordedSeries {
  /** The series definition's type: 'Line', 'Candlestick', 'Baseline' or 'Histogram'. */
  type: string;
  /** The index of the pane the series was added to (0, the chart's first pane, unless given). */
  pane: number;
  title: string;
  options: Record<string, unknown>;
  /** The data last set. */
  data: { time: number; value?: number }[];
  /** The price lines in place now (created and not removed), by their options. */
  priceLines: { title: string; price: number }[];
  /** The markers last set. */
  markers: { time: number; text: string; shape?: string; position?: string }[];
  /** The price scale's margins last set. */
  scaleMargins?: { top: number; bottom: number };
}

export interface RecordedChart {
  /** The options the chart was created with. */
  options: Record<string, unknown>;
  /** Its series, in the order added (each is in `charts.series` too). */
  series: RecordedSeries[];
  /** Its panes' stretch factors, by pane index (the library's default is 1). */
  stretchFactors: number[];
  /** The crosshair move handlers subscribed now. */
  crosshairMoves: Set<(param: unknown) => void>;
}

export const charts = {
  /** Every chart created, first one first; a removed chart stays. */
  created: [] as RecordedChart[],
  /** Every series added, across the charts, first one first. */
  series: [] as RecordedSeries[],
  /** The width the time scale reports (the candles' pane), and the visible ranges set, last one last. */
  plotWidth: 300,
  /** The candles' pane height the chart reports. */
  paneHeight: 260,
  ranges: [] as { from: number; to: number }[],
};

export const LineSeries = { type: 'Line' };
export const CandlestickSeries = { type: 'Candlestick' };
export const BaselineSeries = { type: 'Baseline' };
export const HistogramSeries = { type: 'Histogram' };
export const LineType = { Simple: 0, WithSteps: 1 };
export const LineStyle = { Solid: 0, Dotted: 1, Dashed: 2 };
export const ColorType = { Solid: 'solid' };

export function createChart(_container: HTMLElement, options: Record<string, unknown> = {}) {
  const chart: RecordedChart = { options, series: [], stretchFactors: [1], crosshairMoves: new Set() };
  charts.created.push(chart);
  const pane = (index: number) => ({
    paneIndex: () => index,
    getStretchFactor: () => chart.stretchFactors[index] ?? 1,
    setStretchFactor: (factor: number) => void (chart.stretchFactors[index] = factor),
  });
  return {
    addSeries: (definition: { type: string }, options: { title?: string } = {}, paneIndex = 0) => {
      const series: RecordedSeries = {
        type: definition.type,
        pane: paneIndex,
        title: options.title ?? '',
        options,
        data: [],
        priceLines: [],
        markers: [],
      };
      charts.series.push(series);
      chart.series.push(series);
      // As the library does, adding a series to a pane past the last one makes the panes up to it.
      while (chart.stretchFactors.length <= paneIndex) chart.stretchFactors.push(1);
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
    panes: () => chart.stretchFactors.map((_factor, index) => pane(index)),
    paneSize: () => ({ width: charts.plotWidth, height: charts.paneHeight }),
    timeScale: () => ({
      fitContent: () => undefined,
      width: () => charts.plotWidth,
      setVisibleLogicalRange: (range: { from: number; to: number }) => charts.ranges.push(range),
    }),
    subscribeCrosshairMove: (handler: (param: unknown) => void) => chart.crosshairMoves.add(handler),
    unsubscribeCrosshairMove: (handler: (param: unknown) => void) => chart.crosshairMoves.delete(handler),
    remove: () => undefined,
  };
}

export function createSeriesMarkers(series: { _recorded: RecordedSeries }, markers: RecordedSeries['markers'] = []) {
  series._recorded.markers = markers;
  return { setMarkers: (next: RecordedSeries['markers']) => (series._recorded.markers = next) };
}

/** Forgets every chart, series and visible range recorded, and puts the reported sizes back; for a test's beforeEach. */
export function resetCharts() {
  charts.created.length = 0;
  charts.series.length = 0;
  charts.ranges.length = 0;
  charts.plotWidth = 300;
  charts.paneHeight = 260;
}
