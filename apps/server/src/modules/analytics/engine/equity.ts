/**
 * The closed-trade equity curve, in close order: drawdown, streaks, daily returns (Sharpe) and the
 * chart series. Definitions in METRICS.md.
 */
import type { Aggregates } from './aggregate';
import type { ChartPoint, EngineTrade, StreakKind } from './types';
import { weekdayOfDay } from '../../../domain/calendar';
import { compareTradeIds, orderByTime, sampleStdDev } from './stats';
import { fromMinorUnits } from '../../../domain/money';
import { round } from '../../../domain/rounding';

/** Above this many points the chart series are thinned (the metrics always use every trade). */
export const MAX_CHART_POINTS = 2000;
const TRADING_DAYS_PER_YEAR = 252;

export interface EquityResult {
  /** Positive, in ten-thousandths. */
  maxDrawdown: number;
  maxDrawdownPct: number | null;
  longestWinStreak: number;
  longestLossStreak: number;
  currentStreakKind: StreakKind;
  currentStreakLength: number;
  sharpeRatio: number | null;
  sharpeDays: number;
  equityCurve: ChartPoint[];
  drawdown: ChartPoint[];
  drawdownPercent: ChartPoint[];
}

/** Positions 0 … closedCount−1 ordered by close time, then trade id (numerically), then account. */
export function closeOrder(agg: Aggregates, trades: readonly EngineTrade[]): Int32Array {
  const { closedIndex } = agg;
  return orderByTime(agg.closeMs, agg.closedCount, (a, b) => {
    const ta = trades[closedIndex[a]!]!;
    const tb = trades[closedIndex[b]!]!;
    return (
      compareTradeIds(ta.tradeId, tb.tradeId) ||
      (ta.accountId < tb.accountId ? -1 : ta.accountId > tb.accountId ? 1 : 0)
    );
  });
}

/**
 * @param startingEquity money (not ten-thousandths), or null when it cannot be estimated
 */
export function equityCurve(agg: Aggregates, order: Int32Array, startingEquity: number | null): EquityResult {
  const count = order.length;
  const times = new Float64Array(count);
  const cumulative = new Float64Array(count);
  const peaks = new Float64Array(count);
  let points = 0;

  let cum = 0;
  let peak = 0;
  let maxDrawdown = 0;
  let maxDrawdownPct = 0;
  let winRun = 0;
  let lossRun = 0;
  let longestWin = 0;
  let longestLoss = 0;

  const dailyPl = new Map<number, number>();
  let lastCloseDay = Number.NaN;
  let dayPl = 0;

  for (let k = 0; k < count; k++) {
    const position = order[k]!;
    const pl = agg.closedPl[position]!;
    const closed = agg.closeMs[position]!;
    cum += pl;
    if (cum > peak) peak = cum;
    const drawdown = peak - cum;
    if (drawdown > maxDrawdown) maxDrawdown = drawdown;
    if (startingEquity !== null && drawdown > 0) {
      const peakEquity = startingEquity + fromMinorUnits(peak);
      if (peakEquity > 0) {
        const pct = (fromMinorUnits(drawdown) / peakEquity) * 100;
        if (pct > maxDrawdownPct) maxDrawdownPct = pct;
      }
    }

    if (pl > 0) {
      winRun++;
      lossRun = 0;
      if (winRun > longestWin) longestWin = winRun;
    } else if (pl < 0) {
      lossRun++;
      winRun = 0;
      if (lossRun > longestLoss) longestLoss = lossRun;
    } else {
      winRun = 0;
      lossRun = 0;
    }

    const closeDay = agg.closeDay[position]!;
    if (closeDay !== lastCloseDay) {
      if (!Number.isNaN(lastCloseDay)) dailyPl.set(lastCloseDay, (dailyPl.get(lastCloseDay) ?? 0) + dayPl);
      lastCloseDay = closeDay;
      dayPl = 0;
    }
    dayPl += pl;

    // lightweight-charts needs strictly ascending times: trades closed in the same second merge.
    const second = Math.floor(closed / 1000);
    if (points > 0 && times[points - 1] === second) {
      cumulative[points - 1] = cum;
      peaks[points - 1] = peak;
    } else {
      times[points] = second;
      cumulative[points] = cum;
      peaks[points] = peak;
      points++;
    }
  }
  if (!Number.isNaN(lastCloseDay)) dailyPl.set(lastCloseDay, (dailyPl.get(lastCloseDay) ?? 0) + dayPl);

  const sharpe = sharpeRatio(dailyPl, startingEquity);
  const series = chartSeries(times, cumulative, peaks, points, startingEquity);
  return {
    maxDrawdown,
    maxDrawdownPct: startingEquity === null ? null : maxDrawdownPct,
    longestWinStreak: longestWin,
    longestLossStreak: longestLoss,
    currentStreakKind: winRun > 0 ? 'win' : lossRun > 0 ? 'loss' : 'none',
    currentStreakLength: winRun > 0 ? winRun : lossRun,
    sharpeRatio: sharpe.ratio,
    sharpeDays: sharpe.days,
    ...series,
  };
}

/**
 * Daily return = realized P/L of the trades closed that day (user's zone) / equity at the start of
 * that day (starting equity + P/L closed before it). Days run from the first to the last close
 * day: every Monday–Friday counts (0 if nothing closed), weekend days only when something closed.
 * Sharpe = mean / sample standard deviation × √252, risk-free rate 0.
 */
function sharpeRatio(
  dailyPl: Map<number, number>,
  startingEquity: number | null,
): { ratio: number | null; days: number } {
  if (dailyPl.size === 0 || startingEquity === null) return { ratio: null, days: 0 };
  let first = Infinity;
  let last = -Infinity;
  for (const day of dailyPl.keys()) {
    if (day < first) first = day;
    if (day > last) last = day;
  }
  const returns: number[] = [];
  let equity = startingEquity;
  for (let day = first; day <= last; day++) {
    const pl = dailyPl.get(day);
    const weekday = weekdayOfDay(day);
    if (pl === undefined && (weekday === 0 || weekday === 6)) continue;
    if (equity <= 0) return { ratio: null, days: returns.length };
    const money = fromMinorUnits(pl ?? 0);
    returns.push(money / equity);
    equity += money;
  }
  if (returns.length < 2) return { ratio: null, days: returns.length };
  let sum = 0;
  for (const value of returns) sum += value;
  const mean = sum / returns.length;
  const deviation = sampleStdDev(returns, mean);
  if (!(deviation > 0)) return { ratio: null, days: returns.length };
  return { ratio: (mean / deviation) * Math.sqrt(TRADING_DAYS_PER_YEAR), days: returns.length };
}

/**
 * Thins long curves to at most MAX_CHART_POINTS, keeping per bucket the highest equity, the
 * deepest drawdown and the last point, so peaks and troughs survive.
 */
function chartSeries(
  times: Float64Array,
  cumulative: Float64Array,
  peaks: Float64Array,
  count: number,
  startingEquity: number | null,
): Pick<EquityResult, 'equityCurve' | 'drawdown' | 'drawdownPercent'> {
  let keep: number[];
  if (count <= MAX_CHART_POINTS) {
    keep = Array.from({ length: count }, (_, k) => k);
  } else {
    keep = [];
    const buckets = Math.floor(MAX_CHART_POINTS / 3);
    const size = Math.ceil(count / buckets);
    for (let from = 0; from < count; from += size) {
      const to = Math.min(count, from + size);
      let high = from;
      let deep = from;
      for (let k = from; k < to; k++) {
        if (cumulative[k]! > cumulative[high]!) high = k;
        if (peaks[k]! - cumulative[k]! > peaks[deep]! - cumulative[deep]!) deep = k;
      }
      const picked = [high, deep, to - 1].sort((a, b) => a - b);
      for (let p = 0; p < picked.length; p++) {
        if (p === 0 || picked[p] !== picked[p - 1]) keep.push(picked[p]!);
      }
    }
  }
  const equityCurve: ChartPoint[] = [];
  const drawdown: ChartPoint[] = [];
  const drawdownPercent: ChartPoint[] = [];
  for (const k of keep) {
    const time = times[k]!;
    const cum = fromMinorUnits(cumulative[k]!);
    const peak = fromMinorUnits(peaks[k]!);
    equityCurve.push({ time, value: round(cum, 2) });
    drawdown.push({ time, value: round(cum - peak, 2) });
    if (startingEquity !== null && startingEquity + peak > 0) {
      drawdownPercent.push({ time, value: round(((cum - peak) / (startingEquity + peak)) * 100, 2) });
    }
  }
  return { equityCurve, drawdown, drawdownPercent };
}
