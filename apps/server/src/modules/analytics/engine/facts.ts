/**
 * Turns the aggregates into MetricFacts: every number rounded once, here, the way the cards show
 * it. Definitions in METRICS.md.
 */
import type { TagFacts } from '@pipsense/contract';
import { medianUnitsByInstrument, type Aggregates, type InstrumentAgg } from './aggregate';
import type { EquityResult } from './equity';
import type {
  BehaviorFacts,
  EngineAccount,
  InstrumentFacts,
  MetricFacts,
  PerformanceFacts,
  ProfileFacts,
  RiskFacts,
  TradingStyle,
} from './types';
import {
  bestAndWorst,
  detectHolding,
  detectOvertrading,
  detectRevenge,
  hourBuckets,
  THRESHOLDS,
  weekdayBuckets,
} from './behavior';
import { formatDuration, minutesOf } from './format';
import { SESSION_NAMES } from './sessions';
import { medianInPlace } from './stats';
import { averageLossR, averageR, averageWinR, expectancyR } from './r-tally';
import { fromMinorUnits, moneyValue, toMinorUnits } from '../../../domain/money';
import {
  averageLoss,
  averagePL,
  averageWin,
  breakEvenWinRate,
  largestLoss,
  largestWin,
  lossRate,
  netAfterFinancing,
  netPL,
  payoffRatio,
  profitFactor,
  rawAverageWin,
  winRate,
} from '../../../domain/performance';
import { percent, round, roundMoney, roundRate, roundRatio } from '../../../domain/rounding';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../../domain/calendar';

const money = moneyValue;
const moneyOrNull = (minor: number | null): number | null => (minor === null ? null : moneyValue(minor));

const STYLE_LABELS: Record<TradingStyle, string> = {
  scalper: 'Scalper',
  day: 'Day trader',
  swing: 'Swing trader',
  position: 'Position trader',
};

/** Style from the median holding time of closed trades. */
function styleOf(medianHoldingMs: number): TradingStyle {
  if (medianHoldingMs < THRESHOLDS.scalperMaxMinutes * MINUTE_MS) return 'scalper';
  if (medianHoldingMs < THRESHOLDS.dayTraderMaxHours * HOUR_MS) return 'day';
  if (medianHoldingMs < THRESHOLDS.swingMaxDays * DAY_MS) return 'swing';
  return 'position';
}

/** Most trades first, then by name, so ties are stable. */
export function rankInstruments(agg: Aggregates): InstrumentAgg[] {
  return [...agg.instruments.values()].sort(
    (a, b) => b.trades - a.trades || (a.instrument < b.instrument ? -1 : a.instrument > b.instrument ? 1 : 0),
  );
}

/**
 * Balances minus everything the listed accounts' trades booked (realized P/L and financing): the
 * equity before the first trade, assuming no deposits or withdrawals since. Null when it is not
 * positive (withdrawals, or no accounts), because percentages of it would mislead.
 */
export function estimateStartingEquity(agg: Aggregates, accounts: readonly EngineAccount[]): number | null {
  if (accounts.length === 0) return null;
  let balances = 0;
  for (const account of accounts) balances += toMinorUnits(account.balance);
  const start = fromMinorUnits(balances - agg.bookedOnListedAccounts);
  return start > 0 ? roundMoney(start) : null;
}

function instrumentFacts(ranked: readonly InstrumentAgg[], medianUnits: Float64Array): InstrumentFacts[] {
  return ranked.map((item) => {
    const avgHold = item.closed > 0 ? item.holdMs / item.closed : null;
    return {
      instrument: item.instrument,
      trades: item.trades,
      closedTrades: item.closed,
      wins: item.wins,
      losses: item.losses,
      breakEvens: item.breakEvens,
      winRate: percent(item.wins, item.closed),
      netPL: money(item.pl),
      avgHoldingMinutes: avgHold === null ? null : minutesOf(avgHold),
      avgHoldingTime: avgHold === null ? null : formatDuration(avgHold),
      pips: round(item.pips, 1),
      typicalUnits: round(medianUnits[item.index]!, 2),
    };
  });
}

function performanceFacts(agg: Aggregates, equity: EquityResult, startingEquity: number | null): PerformanceFacts {
  const perf = agg.performance;
  return {
    closedTrades: perf.trades,
    wins: perf.wins,
    losses: perf.losses,
    breakEvens: perf.breakEvens,
    netPL: money(netPL(perf)),
    grossProfit: money(perf.grossProfit),
    grossLoss: money(perf.grossLoss),
    profitFactor: profitFactor(perf),
    expectancy: money(averagePL(perf, 2)!),
    avgWin: moneyOrNull(averageWin(perf, 2)),
    avgLoss: moneyOrNull(averageLoss(perf, 2)),
    payoffRatio: payoffRatio(perf),
    breakEvenWinRate: breakEvenWinRate(perf),
    largestWin: moneyOrNull(largestWin(perf)),
    largestLoss: moneyOrNull(largestLoss(perf)),
    maxDrawdown: money(equity.maxDrawdown),
    maxDrawdownPct: equity.maxDrawdownPct === null ? null : roundRate(equity.maxDrawdownPct),
    startingEquity,
    sharpeRatio: equity.sharpeRatio === null ? null : roundRatio(equity.sharpeRatio),
    sharpeDays: equity.sharpeDays,
    longestWinStreak: equity.longestWinStreak,
    longestLossStreak: equity.longestLossStreak,
    currentStreakKind: equity.currentStreakKind,
    currentStreakLength: equity.currentStreakLength,
    financing: money(perf.financing),
    netPLAfterFinancing: money(netAfterFinancing(perf)),
    pipsWon: round(agg.pipsWon, 1),
    pipsLost: round(agg.pipsLost, 1),
    netPips: round(agg.pipsWon + agg.pipsLost, 1),
  };
}

function profileFacts(agg: Aggregates, ranked: readonly InstrumentAgg[]): ProfileFacts {
  const medianHold =
    agg.closedCount > 0
      ? medianInPlace(Float64Array.from(agg.holdMs.subarray(0, agg.closedCount)), agg.closedCount)
      : null;
  const style = medianHold === null ? null : styleOf(medianHold);
  const sessions = SESSION_NAMES.map((session, index) => ({
    session,
    trades: agg.sessionCounts[index as 0 | 1 | 2],
    share: percent(agg.sessionCounts[index as 0 | 1 | 2], agg.tradeCount) ?? 0,
  }));
  let mostActive = sessions[0]!;
  for (const session of sessions) if (session.trades > mostActive.trades) mostActive = session;
  return {
    style,
    styleLabel: style === null ? null : STYLE_LABELS[style],
    medianHoldingMinutes: medianHold === null ? null : minutesOf(medianHold),
    medianHoldingTime: medianHold === null ? null : formatDuration(medianHold),
    favouriteInstruments: ranked.slice(0, 3).map((item) => ({ instrument: item.instrument, trades: item.trades })),
    sessions,
    mostActiveSession: mostActive.session,
    mostActiveSessionShare: mostActive.share,
    longTrades: agg.longTrades,
    shortTrades: agg.shortTrades,
    longShare: percent(agg.longTrades, agg.tradeCount) ?? 0,
    shortShare: percent(agg.shortTrades, agg.tradeCount) ?? 0,
    typicalUnits: round(medianInPlace(Float64Array.from(agg.absUnits), agg.tradeCount), 2),
    activeDays: agg.days.size,
    tradesPerActiveDay: round(agg.tradeCount / agg.days.size, 1),
  };
}

function riskFacts(
  agg: Aggregates,
  accounts: readonly EngineAccount[],
  performance: PerformanceFacts | null,
  equity: EquityResult | null,
): RiskFacts {
  let marginUsed = 0;
  let nav = 0;
  let exposure = 0;
  let unrealized = 0;
  let maxUtilisation: number | null = null;
  let maxAccount: string | null = null;
  for (const account of accounts) {
    marginUsed += toMinorUnits(account.marginUsed);
    nav += toMinorUnits(account.nav);
    exposure += toMinorUnits(account.positionValue);
    unrealized += toMinorUnits(account.unrealizedPL);
    if (account.nav > 0) {
      const utilisation = (account.marginUsed / account.nav) * 100;
      if (maxUtilisation === null || utilisation > maxUtilisation) {
        maxUtilisation = utilisation;
        maxAccount = account.accountId;
      }
    }
  }
  const perf = agg.performance;
  const avgWinRaw = rawAverageWin(perf);
  const worstLossMinor = largestLoss(perf);
  const worstLoss = performance?.largestLoss ?? null;
  return {
    tradesWithInitialStop: agg.withInitialStop,
    initialStopShare: percent(agg.withInitialStop, agg.tradeCount) ?? 0,
    closedWithInitialStop: agg.r.trades,
    closedWithoutInitialStop: agg.r.withoutStop,
    averageR: averageR(agg.r),
    expectancyR: expectancyR(agg.r),
    averageWinR: averageWinR(agg.r),
    averageLossR: averageLossR(agg.r),
    openTrades: agg.openTrades,
    openWithoutStopLoss: agg.openWithoutStopLoss,
    worstLoss,
    avgWin: performance?.avgWin ?? null,
    worstLossToAvgWin:
      worstLossMinor !== null && avgWinRaw !== null && avgWinRaw > 0
        ? roundRatio(-fromMinorUnits(worstLossMinor) / avgWinRaw)
        : null,
    longestLossStreak: equity?.longestLossStreak ?? 0,
    currentLossStreak: equity !== null && equity.currentStreakKind === 'loss' ? equity.currentStreakLength : 0,
    marginUsed: money(marginUsed),
    nav: money(nav),
    marginUtilisation: nav > 0 ? percent(marginUsed, nav) : null,
    maxAccountMarginUtilisation: maxUtilisation === null ? null : roundRate(maxUtilisation),
    maxAccountMarginId: maxAccount,
    openExposure: money(exposure),
    exposureToNav: nav > 0 ? roundRatio(exposure / nav) : null,
    unrealizedPL: money(unrealized),
  };
}

function behaviorFacts(agg: Aggregates, medianUnits: Float64Array, closeOrder: Int32Array): BehaviorFacts {
  const weekdays = bestAndWorst(weekdayBuckets(agg));
  const hours = bestAndWorst(hourBuckets(agg));
  return {
    holding: detectHolding(agg),
    revenge: detectRevenge(agg, medianUnits, closeOrder),
    overtrading: detectOvertrading(agg),
    bestWeekday: weekdays.best,
    worstWeekday: weekdays.worst,
    bestHour: hours.best,
    worstHour: hours.worst,
  };
}

export function buildFacts(
  agg: Aggregates,
  accounts: readonly EngineAccount[],
  equity: EquityResult | null,
  startingEquity: number | null,
  closeOrder: Int32Array,
  tags: readonly TagFacts[] = [],
): MetricFacts {
  const currencies = [...new Set(accounts.map((account) => account.currency).filter((code) => code !== ''))].sort();
  const ranked = rankInstruments(agg);
  const medianUnits = medianUnitsByInstrument(agg);
  const hasTrades = agg.tradeCount > 0;
  const closed = agg.closedCount;
  const avgHold = closed > 0 ? agg.holdSumMs / closed : null;
  const performance = closed > 0 && equity !== null ? performanceFacts(agg, equity, startingEquity) : null;
  return {
    timeZone: agg.clock.timeZone,
    currency: currencies.length === 1 ? currencies[0]! : null,
    currencies,
    tradeCount: agg.tradeCount,
    accountCount: agg.accountIds.size,
    openTradeCount: agg.openTrades,
    closedTradeCount: closed,
    weeklyTrades: agg.weeklyTrades,
    winRate: winRate(agg.performance),
    lossRate: lossRate(agg.performance),
    topInstrument: ranked[0]?.instrument ?? null,
    avgHoldingMinutes: avgHold === null ? null : minutesOf(avgHold),
    avgHoldingTime: avgHold === null ? null : formatDuration(avgHold),
    performance,
    profile: hasTrades ? profileFacts(agg, ranked) : null,
    instruments: instrumentFacts(ranked, medianUnits),
    risk: hasTrades ? riskFacts(agg, accounts, performance, equity) : null,
    behavior: hasTrades ? behaviorFacts(agg, medianUnits, closeOrder) : null,
    tags: [...tags],
    thresholds: { ...THRESHOLDS },
  };
}
