import { describe, expect, it } from 'vitest';
import { edgeBands, priceMargins } from './price-margins';

describe('price margins', () => {
  it('keeps margins for the edge labels and the markers stacked on a candle, the candles 40 % of the pane', () => {
    const at = (time: number, position: 'aboveBar' | 'belowBar') => ({ time, position });
    // Nothing to keep: the chart's own margins.
    expect(priceMargins([], { top: 0, bottom: 0 }, 230)).toEqual({ top: 0.2, bottom: 0.1 });
    // A bottom label's band of 27 px and two markers below one candle (18 px of text each): 63 px of 230.
    const below = priceMargins([at(1, 'belowBar'), at(1, 'belowBar'), at(2, 'belowBar')], { top: 0, bottom: 27 }, 230);
    expect(below.top).toBe(0.2);
    expect(below.bottom).toBeCloseTo(63 / 230, 6);
    // Bands and markers on both sides asking for more than 60 % of a small pane: scaled down to 60 % together.
    const tight = priceMargins([at(1, 'aboveBar'), at(1, 'belowBar')], { top: 60, bottom: 60 }, 150);
    expect(tight.top + tight.bottom).toBeCloseTo(0.6, 6);
    expect(tight.top).toBeCloseTo(tight.bottom, 6);
  });

  it("measures the edge labels' rows from the pane's edges, with a gap; nothing without labels", () => {
    const frame = document.createElement('div');
    const chart = document.createElement('div');
    const row = (edge: 'top' | 'bottom', top: number, bottom: number) => {
      const el = document.createElement('div');
      el.className = `chart-edge-labels chart-edge-${edge}`;
      el.getBoundingClientRect = () => ({ top, bottom, height: bottom - top }) as DOMRect;
      return el;
    };
    chart.getBoundingClientRect = () => ({ top: 100 }) as DOMRect;
    frame.append(chart);
    expect(edgeBands(chart, 230)).toEqual({ top: 0, bottom: 0 });
    // A top row to 126 px (26 below the pane's top), two bottom rows from 280 (50 above its bottom at 330).
    frame.append(row('top', 104, 126), row('bottom', 280, 326));
    expect(edgeBands(chart, 230)).toEqual({ top: 30, bottom: 54 });
  });
});
