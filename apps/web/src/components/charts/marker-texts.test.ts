import { describe, expect, it } from 'vitest';
import type { ChartMarker } from './candle-series';
import { spaceMarkerTexts, type MarkerView } from './marker-texts';

/** Candles 8 px apart (at time t, x = 8t), their highs at y 100 and lows at y 140 unless told, 6 px a character. */
const view = (heights: Record<number, { high: number; low: number }> = {}): MarkerView => ({
  barSpacing: 8,
  fontSize: 11,
  candle: (time) => ({ x: time * 8, ...(heights[time] ?? { high: 100, low: 140 }) }),
  textWidth: (text) => text.length * 6,
});

const close = (time: number): ChartMarker => ({
  time,
  position: 'aboveBar',
  shape: 'arrowDown',
  color: 'grey',
  text: 'Close 1.10250',
});
const mfe = (time: number): ChartMarker => ({
  time,
  position: 'aboveBar',
  shape: 'circle',
  color: 'blue',
  text: 'MFE 1.10310',
});
const texts = (markers: readonly ChartMarker[]) => markers.map((m) => m.text);

describe('spaceMarkerTexts', () => {
  it("drops the MFE's text on the candle before the exit's, keeping its dot there, and the exit's text whole", () => {
    const markers = [mfe(10), close(11)];
    const spaced = spaceMarkerTexts(markers, view());
    expect(texts(spaced)).toEqual(['', 'Close 1.10250']);
    expect(spaced.map(({ time, position, shape }) => [time, position, shape])).toEqual([
      [10, 'aboveBar', 'circle'],
      [11, 'aboveBar', 'arrowDown'],
    ]);
    // The markers given are left as they are.
    expect(texts(markers)).toEqual(['MFE 1.10310', 'Close 1.10250']);
  });

  it("shortens a text to the event's name where that fits, and leaves texts clear of one another as they are", () => {
    // 'MFE 1.10310' (x 32, 66 px wide) reaches the exit's text (x 88, 78 px wide); 'MFE' (18 px) does not.
    expect(texts(spaceMarkerTexts([mfe(4), close(11)], view()))).toEqual(['MFE', 'Close 1.10250']);
    expect(texts(spaceMarkerTexts([mfe(0), close(20)], view()))).toEqual(['MFE 1.10310', 'Close 1.10250']);
    // Side by side, but the MFE's high 40 px above the exit's candle: its text is a row clear above.
    expect(texts(spaceMarkerTexts([mfe(10), close(11)], view({ 10: { high: 60, low: 140 } })))).toEqual([
      'MFE 1.10310',
      'Close 1.10250',
    ]);
  });

  it('lets the chart stack the markers of one candle, and an arrow keep its text before a square or a dot', () => {
    const entry: ChartMarker = { time: 5, position: 'belowBar', shape: 'arrowUp', color: 'b', text: 'Buy 1.10000' };
    const stop: ChartMarker = { time: 5, position: 'belowBar', shape: 'circle', color: 'r', text: 'SL → 1.09900' };
    const part: ChartMarker = { time: 6, position: 'aboveBar', shape: 'square', color: 'g', text: 'Part −4,000' };
    expect(texts(spaceMarkerTexts([entry, stop, part, close(7)], view()))).toEqual([
      'Buy 1.10000',
      'SL → 1.09900',
      '',
      'Close 1.10250',
    ]);
  });

  it("keeps a text below one candle clear of one above another's, after a fall", () => {
    const entry: ChartMarker = { time: 10, position: 'belowBar', shape: 'arrowUp', color: 'b', text: 'Buy 1.10000' };
    // The exit's candle's high 50 px under the entry's low: its text row meets the entry's, and gives way.
    const fallen = view({ 10: { high: 60, low: 100 }, 17: { high: 150, low: 170 } });
    expect(texts(spaceMarkerTexts([entry, close(17)], fallen))).toEqual(['Buy 1.10000', 'Close']);
  });

  it('leaves no two texts over each other on a crowded side, and markers off the chart as they are', () => {
    const shapes: ChartMarker['shape'][] = ['circle', 'square', 'arrowDown'];
    const crowded = Array.from({ length: 12 }, (_, i) => ({
      ...close(i * 3),
      shape: shapes[i % 3]!,
      text: `Event${i} 1.1${i}`,
    }));
    const spaced = spaceMarkerTexts(crowded, view());
    const spans = spaced
      .filter((m) => m.text)
      .map((m) => [m.time * 8 - m.text.length * 3, m.time * 8 + m.text.length * 3]);
    for (const [i, a] of spans.entries())
      for (const b of spans.slice(i + 1)) expect(a[1]! < b[0]! || b[1]! < a[0]!).toBe(true);
    // Every other arrow keeps a text: the dots and squares gave way first.
    expect(spaced.filter((m) => m.shape === 'arrowDown').every((m) => m.text !== '')).toBe(true);

    const offChart: MarkerView = { ...view(), candle: () => null };
    expect(texts(spaceMarkerTexts([mfe(10), close(11)], offChart))).toEqual(['MFE 1.10310', 'Close 1.10250']);
  });
});
