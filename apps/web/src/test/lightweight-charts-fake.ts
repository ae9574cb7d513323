/**
 * lightweight-charts draws on a canvas, which jsdom lacks: tests of the money charts replace it with this module
 * (`vi.mock('lightweight-charts', () => import('…/test/lightweight-charts-fake'))`), which records each series'
 * title, options and data in `charts` instead.
 */
export interface RecordedSeries {
  title: string;
  options: Record<string, unknown>;
  data: { time: number; value?: number }[];
}

export const charts = { series: [] as RecordedSeries[] };

export const LineSeries = { type: 'Line' };
export const LineType = { Simple: 0, WithSteps: 1 };
export const LineStyle = { Solid: 0, Dashed: 2 };
export const ColorType = { Solid: 'solid' };

export function createChart() {
  return {
    addSeries: (_definition: unknown, options: { title: string }) => {
      const series: RecordedSeries = { title: options.title, options, data: [] };
      charts.series.push(series);
      return { setData: (data: RecordedSeries['data']) => (series.data = data) };
    },
    timeScale: () => ({ fitContent: () => undefined }),
    remove: () => undefined,
  };
}
