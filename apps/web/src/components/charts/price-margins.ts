import type { ChartMarker } from './candle-series';

/*
 * The room a candle chart's price scale keeps above and below the candles, so that the markers' text and the edge
 * labels (edge-labels.tsx) stay clear of the candles and of each other on any screen: the trade modal's chart and
 * its replay both take their margins from here.
 */

/** A marker's text line with its gap, in pixels (lightweight-charts' 11 px font), on the wide side. */
const MARKER_LINE_PX = 18;
/** The price scale's own margins in lightweight-charts: what a side keeps at least. */
const CHART_MARGINS = { top: 0.2, bottom: 0.1 } as const;
/** The share of the pane's height the candles keep, whatever the margins ask for. */
const CANDLES_SHARE = 0.4;
/** Space between an edge label's row and the nearest marker text, in pixels. */
const LABEL_GAP_PX = 4;

/**
 * The price scale's margins (shares of the pane's height) that keep the markers' text clear of the edge labels and of
 * the pane's edges. The chart keeps room beyond the highest high and the lowest low for one marker's shape, not for
 * its text, nor for the next marker stacked on the same candle (the entry and a moved stop on one candle); and the
 * edge labels sit over the pane's top and bottom (`bands`: the pixels they cover from each edge). So a side keeps its
 * labels' band and a text line per marker stacked on that side of a candle, and never less than the chart's own
 * margin; the candles keep at least 40 % of the height, so on a tiny pane the margins shrink in proportion.
 */
export function priceMargins(
  markers: readonly Pick<ChartMarker, 'time' | 'position'>[],
  bands: { top: number; bottom: number },
  paneHeight: number,
): { top: number; bottom: number } {
  const stacked = { aboveBar: new Map<number, number>(), belowBar: new Map<number, number>() };
  for (const m of markers) stacked[m.position].set(m.time, (stacked[m.position].get(m.time) ?? 0) + 1);
  const most = (counts: Map<number, number>) => Math.max(0, ...counts.values());
  if (paneHeight <= 0) return { ...CHART_MARGINS };
  const share = (px: number, least: number) => Math.max(least, px / paneHeight);
  let top = share(bands.top + most(stacked.aboveBar) * MARKER_LINE_PX, CHART_MARGINS.top);
  let bottom = share(bands.bottom + most(stacked.belowBar) * MARKER_LINE_PX, CHART_MARGINS.bottom);
  const room = 1 - CANDLES_SHARE;
  if (top + bottom > room) {
    const scale = room / (top + bottom);
    top *= scale;
    bottom *= scale;
  }
  return { top, bottom };
}

/**
 * The pixels the edge labels' rows (the `.chart-edge-top` and `.chart-edge-bottom` beside the chart's element, as
 * laid out) cover from the top and the bottom of a pane `paneHeight` high at the top of `chart`, with a gap; 0 for a
 * side without labels or before layout.
 */
export function edgeBands(chart: HTMLElement, paneHeight: number): { top: number; bottom: number } {
  const paneTop = chart.getBoundingClientRect().top;
  const band = (edge: 'top' | 'bottom') => {
    const row = chart.parentElement?.querySelector(`.chart-edge-${edge}`)?.getBoundingClientRect();
    if (!row || row.height === 0) return 0;
    const px = edge === 'top' ? row.bottom - paneTop : paneTop + paneHeight - row.top;
    return Math.max(0, px + LABEL_GAP_PX);
  };
  return { top: band('top'), bottom: band('bottom') };
}
