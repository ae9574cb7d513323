import type { ChartMarker } from './candle-series';

/*
 * lightweight-charts draws each marker's text centred on its candle, a row beyond the marker's shape, and stacks the
 * markers of one candle and side on its own; but it lets the texts of neighbouring candles run over one another (a
 * trade's MFE on the candle before its exit: 'MFE 1.10310' over 'Close 1.10250'). So the trade modal's chart and its
 * replay lay the texts out here, as the chart draws them, and shorten those that would overlap: a shape never moves
 * off the candle and side it marks (the MFE's dot stays over the high it reached).
 */

/** A character of the markers' text (lightweight-charts' 11 px font) in pixels, on the wide side. */
export const MARKER_CHAR_PX = 7;
/** The least room between two texts, across and up or down, in pixels. */
const GAP_PX = { x: 4, y: 2 } as const;

/** The candle a marker sits on, as the chart draws it: its centre's x and its high's and low's y, in pixels. */
interface MarkerCandle {
  x: number;
  high: number;
  low: number;
}

/** How the chart draws the markers now. */
export interface MarkerView {
  /** The pixels from one candle to the next (the time scale's bar spacing): the shapes grow with it. */
  barSpacing: number;
  /** The chart's font size: a text's height. */
  fontSize: number;
  /** Where the candle at `time` is drawn; null when it is not. */
  candle: (time: number) => MarkerCandle | null;
  /** A text's width in pixels as drawn. */
  textWidth: (text: string) => number;
}

interface Box {
  index: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

const ceiledOdd = (x: number) => (Math.ceil(x) % 2 === 0 ? Math.ceil(x) - 1 : Math.ceil(x));
const ceiledEven = (x: number) => (Math.ceil(x) % 2 === 0 ? Math.ceil(x) : Math.ceil(x) - 1);
/** lightweight-charts' size of a marker's part, by the candles' spacing (its series markers' plugin). */
const partSize = (barSpacing: number, share: number) => ceiledOdd(Math.min(Math.max(barSpacing, 12), 30) * share);

/**
 * The box each text is drawn in, as lightweight-charts lays the markers out: on each candle and side, in the markers'
 * order, a shape beyond the last one, its text a row beyond the shape.
 */
function textBoxes(markers: readonly ChartMarker[], view: MarkerView): Box[] {
  const shape = ceiledEven(partSize(view.barSpacing, 1));
  const margin = Math.max(partSize(view.barSpacing, 0.1), 3);
  const row = view.fontSize * 1.2;
  const boxes: Box[] = [];
  let time = NaN;
  const offset = { aboveBar: margin, belowBar: margin };
  markers.forEach((marker, index) => {
    if (marker.time !== time) {
      time = marker.time;
      offset.aboveBar = offset.belowBar = margin;
    }
    const candle = view.candle(marker.time);
    if (!candle) return;
    const centre =
      marker.position === 'aboveBar'
        ? candle.high - shape - offset.aboveBar - view.fontSize * 0.6
        : candle.low + shape + offset.belowBar + margin + view.fontSize * 0.6;
    offset[marker.position] += (marker.text ? row : 0) + shape + margin;
    if (!marker.text) return;
    const half = view.textWidth(marker.text) / 2;
    const top = centre - view.fontSize / 2;
    boxes.push({ index, left: candle.x - half, right: candle.x + half, top, bottom: top + view.fontSize });
  });
  return boxes;
}

const overlap = (a: Box, b: Box) =>
  a.left < b.right + GAP_PX.x &&
  b.left < a.right + GAP_PX.x &&
  a.top < b.bottom + GAP_PX.y &&
  b.top < a.bottom + GAP_PX.y;

/** Which text gives way: the arrows' (the trade's entry and exit) last, then the squares' (partial closes). */
const RANK: Record<ChartMarker['shape'], number> = { arrowUp: 0, arrowDown: 0, square: 1, circle: 2 };

/** The text one step shorter: its first word (the event's name, 'MFE' of 'MFE 1.10310'), then none. */
const shorter = (text: string) => {
  const word = text.split(' ')[0] ?? '';
  return word === text ? '' : word;
};

/**
 * The markers with texts that keep clear of one another as `view` draws them. Where two would overlap, the one of
 * the lesser event (by shape: a circle's before a square's before an arrow's; of two alike, the later candle's) is
 * shortened to its first word, then to nothing, until none overlap; its shape stays, with its colour, and the
 * chart's legend (the replay's list of events) and the hover (candle-chart.tsx `followMarkerTexts`) name it.
 * Markers keep their order, candle, side and shape, so the price scale's margins (price-margins.ts) still hold.
 */
export function spaceMarkerTexts(markers: readonly ChartMarker[], view: MarkerView): ChartMarker[] {
  const spaced = markers.map((marker) => ({ ...marker }));
  // Each round shortens one text, so this ends within two rounds a marker.
  for (;;) {
    const boxes = textBoxes(spaced, view);
    const pair = boxes
      .flatMap((a, i) => boxes.slice(i + 1).map((b) => [a, b] as const))
      .find(([a, b]) => overlap(a, b));
    if (!pair) return spaced;
    // Boxes are in the markers' order, so of two alike the second is the later candle's.
    const [first, second] = pair.map((box) => spaced[box.index]!) as [ChartMarker, ChartMarker];
    const loser = RANK[second.shape] >= RANK[first.shape] ? second : first;
    loser.text = shorter(loser.text);
  }
}
