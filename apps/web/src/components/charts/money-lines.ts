import type { BalancePoint } from '@pipsense/contract';
import { CHART_COLORS } from './candle-series';
import { toLocalTimes } from './local-times';

/** The balance in the app's primary colour, the equity in its info blue (the MFE line of the trade chart). */
export const MONEY_LINE_COLORS = { balance: CHART_COLORS.entry, equity: CHART_COLORS.mfe } as const;

export interface LinePoint {
  time: number;
  /** Absent where the value is not known (the library's whitespace). */
  value?: number;
  /** The colour of the segment from this point to the next one drawn: `GAP` hides it. */
  color?: string;
}

/** The colour of a segment that would bridge a gap. */
export const GAP = 'transparent';

/**
 * The chart's balance and equity lines on the trader's clock (seconds, `toLocalTimes`). A point whose equity is not
 * known is a gap in the equity line: lightweight-charts joins the known points around whitespace, so the segment
 * that would cross a gap is drawn transparent (a point's colour is that of the segment starting at it) and nothing
 * is drawn where equity is unknown. The figures are the exact decimal strings read as numbers, for drawing only.
 */
export function moneyLines(points: readonly BalancePoint[]): { balance: LinePoint[]; equity: LinePoint[] } {
  const local = toLocalTimes(points.map((point) => ({ time: Math.floor(Date.parse(point.time) / 1000), point })));
  const equity: LinePoint[] = [];
  let lastKnown: LinePoint | undefined;
  let gap = false;
  for (const { time, point } of local) {
    if (point.equity === null) {
      equity.push({ time });
      gap = true;
      continue;
    }
    if (gap && lastKnown) lastKnown.color = GAP;
    lastKnown = { time, value: Number(point.equity) };
    equity.push(lastKnown);
    gap = false;
  }
  return { balance: local.map(({ time, point }) => ({ time, value: Number(point.balance) })), equity };
}
