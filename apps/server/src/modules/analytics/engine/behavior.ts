/**
 * Evidence-based behavioural detectors. Each returns the numbers that decided it, so the card and
 * the insights can quote them. Thresholds are in THRESHOLDS and METRICS.md.
 */
import type { Aggregates, BucketAgg } from './aggregate';
import type { BucketFacts, HoldingDetector, OvertradingDetector, RevengeDetector, ThresholdFacts } from './types';
import { formatDuration, hourLabel, minutesOf, WEEKDAY_NAMES } from './format';
import { medianInPlace, orderByTime } from './stats';
import { moneyValue } from '../../../domain/money';
import { percent, roundRatio } from '../../../domain/rounding';
import { isoDate, MINUTE_MS } from '../../../domain/calendar';

export const THRESHOLDS: ThresholdFacts = {
  scalperMaxMinutes: 15,
  dayTraderMaxHours: 24,
  swingMaxDays: 14,
  revengeWindowMinutes: 30,
  revengeMinOccurrences: 2,
  revengeMinSharePct: 10,
  revengeBaselineMultiple: 1.5,
  holdingMinTrades: 3,
  holdingRatio: 1.5,
  overtradingMinActiveDays: 5,
  overtradingMultiple: 2,
  overtradingMinExtraTrades: 3,
  bucketMinTrades: 3,
  minimumSample: 30,
  stopLossTargetPct: 90,
  marginWarningPct: 30,
  worstLossWarningMultiple: 3,
};

/** Losers held longer: median holding time of losing vs winning closed trades. */
export function detectHolding(agg: Aggregates): HoldingDetector {
  const { wins, losses } = agg.performance;
  const enoughData = wins >= THRESHOLDS.holdingMinTrades && losses >= THRESHOLDS.holdingMinTrades;
  // One scratch array for both medians (selection reorders it): winners' holds first, then losers'.
  const holds = new Float64Array(wins + losses);
  let nextWin = 0;
  let nextLoss = wins;
  for (let c = 0; c < agg.closedCount; c++) {
    const pl = agg.closedPl[c]!;
    if (pl > 0) holds[nextWin++] = agg.holdMs[c]!;
    else if (pl < 0) holds[nextLoss++] = agg.holdMs[c]!;
  }
  const winners = wins > 0 ? medianInPlace(holds.subarray(0, wins), wins) : null;
  const losers = losses > 0 ? medianInPlace(holds.subarray(wins), losses) : null;
  const ratio = winners !== null && losers !== null && winners > 0 ? roundRatio(losers / winners) : null;
  return {
    triggered: enoughData && ratio !== null && ratio >= THRESHOLDS.holdingRatio,
    enoughData,
    wins,
    losses,
    winnersMedianMinutes: winners === null ? null : minutesOf(winners),
    losersMedianMinutes: losers === null ? null : minutesOf(losers),
    winnersMedianTime: winners === null ? null : formatDuration(winners),
    losersMedianTime: losers === null ? null : formatDuration(losers),
    ratio,
  };
}

/**
 * Revenge trading: a losing trade followed, within the window after its close, by the opening of
 * a bigger trade, on any instrument or account. "Bigger" compares sizes relative to the trader's
 * usual size on each instrument (|units| / median |units| there), so 20 oz of gold and 10,000 EUR
 * are comparable; on one instrument it simply means more units. Active traders open bigger trades
 * after wins too, so the same is measured after wins as a baseline, and the detector fires only
 * when losses are followed clearly more often (see THRESHOLDS).
 */
export function detectRevenge(agg: Aggregates, medianUnits: Float64Array, closeOrder: Int32Array): RevengeDetector {
  const n = agg.tradeCount;
  const window = THRESHOLDS.revengeWindowMinutes * MINUTE_MS;
  // Trades in open order, with their open time and relative size laid out in that order too, so
  // the window scans below read memory sequentially.
  const byOpen = orderByTime(agg.openMs, n, (a, b) => a - b);
  const openSorted = new Float64Array(n);
  const sizeSorted = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const i = byOpen[k]!;
    const usual = medianUnits[agg.instrumentIndex[i]!]!;
    openSorted[k] = agg.openMs[i]!;
    sizeSorted[k] = usual > 0 ? agg.absUnits[i]! / usual : agg.absUnits[i]!;
  }
  const rankOf = new Int32Array(n);
  for (let k = 0; k < n; k++) rankOf[byOpen[k]!] = k;

  const revenge = new Uint8Array(n);
  let losses = 0;
  let lossesFollowed = 0;
  let wins = 0;
  let winsFollowed = 0;
  // Closed trades in close order: the first trade opened at or after each close only moves forward.
  let first = 0;
  for (let k = 0; k < closeOrder.length; k++) {
    const c = closeOrder[k]!;
    const pl = agg.closedPl[c]!;
    if (pl === 0) continue;
    const closed = agg.closeMs[c]!;
    while (first < n && openSorted[first]! < closed) first++;
    const self = rankOf[agg.closedIndex[c]!]!;
    const size = sizeSorted[self]!;
    const end = closed + window;
    let followed = false;
    for (let r = first; r < n && openSorted[r]! <= end; r++) {
      if (r !== self && sizeSorted[r]! > size) {
        followed = true;
        if (pl < 0) revenge[r] = 1;
        else break;
      }
    }
    if (pl < 0) {
      losses++;
      if (followed) lossesFollowed++;
    } else {
      wins++;
      if (followed) winsFollowed++;
    }
  }

  // `revenge` is indexed by open rank; map the closed follow-ups back through rankOf.
  let revengeTrades = 0;
  let revengeClosed = 0;
  let revengeWins = 0;
  let revengePl = 0;
  for (let r = 0; r < n; r++) if (revenge[r] === 1) revengeTrades++;
  if (revengeTrades > 0) {
    for (let c = 0; c < agg.closedCount; c++) {
      if (revenge[rankOf[agg.closedIndex[c]!]!] !== 1) continue;
      revengeClosed++;
      revengePl += agg.closedPl[c]!;
      if (agg.closedPl[c]! > 0) revengeWins++;
    }
  }
  const followedShare = percent(lossesFollowed, losses);
  const winsFollowedShare = percent(winsFollowed, wins);
  return {
    triggered:
      lossesFollowed >= THRESHOLDS.revengeMinOccurrences &&
      followedShare !== null &&
      followedShare >= THRESHOLDS.revengeMinSharePct &&
      followedShare >= THRESHOLDS.revengeBaselineMultiple * (winsFollowedShare ?? 0),
    losses,
    lossesFollowed,
    followedShare,
    wins,
    winsFollowed,
    winsFollowedShare,
    revengeTrades,
    revengeClosedTrades: revengeClosed,
    revengeNetPL: moneyValue(revengePl),
    revengeWinRate: percent(revengeWins, revengeClosed),
  };
}

/**
 * Over-trading days: days (user's zone, by open time) with at least max(2 × median, median + 3)
 * trades, the median taken over active days; needs at least 5 active days.
 */
export function detectOvertrading(agg: Aggregates): OvertradingDetector {
  const days = [...agg.days.values()];
  const activeDays = days.length;
  const enoughData = activeDays >= THRESHOLDS.overtradingMinActiveDays;
  const counts = Float64Array.from(days, (day) => day.trades);
  const medianTrades = activeDays > 0 ? medianInPlace(counts, activeDays) : null;
  const threshold =
    medianTrades === null
      ? null
      : Math.ceil(
          Math.max(THRESHOLDS.overtradingMultiple * medianTrades, medianTrades + THRESHOLDS.overtradingMinExtraTrades),
        );
  const flagged = enoughData && threshold !== null ? days.filter((day) => day.trades >= threshold) : [];
  let pl = 0;
  let closed = 0;
  let wins = 0;
  for (const day of flagged) {
    pl += day.pl;
    closed += day.closed;
    wins += day.wins;
  }
  let otherClosed = 0;
  let otherWins = 0;
  for (const day of days) {
    otherClosed += day.closed;
    otherWins += day.wins;
  }
  otherClosed -= closed;
  otherWins -= wins;
  const busiest = [...flagged].sort((a, b) => b.trades - a.trades || a.day - b.day).slice(0, 5);
  return {
    triggered: flagged.length > 0,
    enoughData,
    activeDays,
    medianTradesPerDay: medianTrades,
    threshold,
    overtradingDays: flagged.length,
    days: busiest.map((day) => ({
      date: isoDate(day.day),
      trades: day.trades,
      netPL: moneyValue(day.pl),
    })),
    overtradingNetPL: moneyValue(pl),
    overtradingWinRate: percent(wins, closed),
    otherDaysWinRate: percent(otherWins, otherClosed),
  };
}

function bucketFacts(label: string, bucket: BucketAgg): BucketFacts {
  return {
    label,
    trades: bucket.trades,
    wins: bucket.wins,
    losses: bucket.losses,
    netPL: moneyValue(bucket.pl),
    winRate: percent(bucket.wins, bucket.trades),
  };
}

/** Monday first, as traders read a week. */
export function weekdayBuckets(agg: Aggregates): BucketFacts[] {
  return [1, 2, 3, 4, 5, 6, 0].map((weekday) => bucketFacts(WEEKDAY_NAMES[weekday]!, agg.weekdays[weekday]!));
}

export function hourBuckets(agg: Aggregates): (BucketFacts & { hour: number })[] {
  return agg.hours.map((bucket, hour) => ({ hour, ...bucketFacts(hourLabel(hour), bucket) }));
}

/**
 * Best and worst bucket by net P/L among buckets with at least bucketMinTrades closed trades;
 * both null unless two buckets qualify (one bucket is neither best nor worst of anything).
 */
export function bestAndWorst(buckets: readonly BucketFacts[]): { best: BucketFacts | null; worst: BucketFacts | null } {
  const qualifying = buckets.filter((bucket) => bucket.trades >= THRESHOLDS.bucketMinTrades);
  if (qualifying.length < 2) return { best: null, worst: null };
  let best = qualifying[0]!;
  let worst = qualifying[0]!;
  for (const bucket of qualifying) {
    if (bucket.netPL > best.netPL) best = bucket;
    if (bucket.netPL < worst.netPL) worst = bucket;
  }
  return best === worst ? { best: null, worst: null } : { best, worst };
}
