import { ColorType, type DeepPartial, type HorzScaleOptions, type TimeChartOptions } from 'lightweight-charts';

/**
 * Options every overview chart shares: the theme's text and grid colours, a transparent background, and no wheel
 * capture (the page scrolls past the charts; pinch and drag still zoom and pan where that makes sense).
 */
export function baseChartOptions(element: HTMLElement): DeepPartial<TimeChartOptions> {
  const styles = getComputedStyle(element);
  const text = styles.getPropertyValue('--cui-secondary-color').trim() || '#6b7785';
  const grid = styles.getPropertyValue('--cui-border-color-translucent').trim() || 'rgba(8, 10, 12, 0.1)';
  return {
    autoSize: true,
    layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: text, fontSize: 11 },
    grid: { vertLines: { visible: false }, horzLines: { color: grid } },
    rightPriceScale: { borderVisible: false },
    handleScroll: { mouseWheel: false },
    handleScale: { mouseWheel: false },
  };
}

/** Two-decimal money on the price axis and in the crosshair label. */
export const MONEY_FORMAT = { type: 'price', precision: 2, minMove: 0.01 } as const;

const TWO_DAYS = 2 * 86_400;

/**
 * The time axis of a curve over time: hours shown only for a span under two days (`spanSeconds`), the whole curve
 * held between the edges and kept in view when the chart is resized.
 */
export const curveTimeScale = (spanSeconds: number): DeepPartial<HorzScaleOptions> => ({
  borderVisible: false,
  timeVisible: spanSeconds < TWO_DAYS,
  secondsVisible: false,
  fixLeftEdge: true,
  fixRightEdge: true,
  lockVisibleTimeRangeOnResize: true,
});
