import type { EngineAccount, EngineOptions, EngineTrade, OverviewCharts, OverviewMetrics } from './types';
import { aggregate } from './aggregate';
import { closeOrder, equityCurve } from './equity';
import { estimateStartingEquity, rankInstruments, buildFacts } from './facts';
import { hourBuckets, weekdayBuckets } from './behavior';
import {
  behaviorCard,
  instrumentBreakdownCard,
  performanceCard,
  riskCard,
  summaryText,
  tradingProfileCard,
} from './cards';
import { moneyValue } from '../../../domain/money';

/**
 * The overview analytics of one user's trades and accounts. Pure and deterministic: the same
 * input and options give the same output. Throws RangeError for an unknown time zone.
 * Definitions of every metric: METRICS.md.
 */
export function computeMetrics(
  trades: readonly EngineTrade[],
  accounts: readonly EngineAccount[],
  options: EngineOptions,
): OverviewMetrics {
  const agg = aggregate(trades, accounts, options);
  const startingEquity = options.sliceOfHistory ? null : estimateStartingEquity(agg, accounts);
  const order = closeOrder(agg, trades);
  const equity = agg.closedCount > 0 ? equityCurve(agg, order, startingEquity) : null;
  const facts = buildFacts(agg, accounts, equity, startingEquity, order, options.byTag ?? []);

  const charts: OverviewCharts = {
    equityCurve: equity?.equityCurve ?? [],
    drawdown: equity?.drawdown ?? [],
    drawdownPercent: equity?.drawdownPercent ?? [],
    pnlByInstrument: rankInstruments(agg)
      .filter((item) => item.closed > 0)
      .map((item) => ({
        instrument: item.instrument,
        netPL: moneyValue(item.pl),
        trades: item.closed,
      }))
      .sort((a, b) => b.netPL - a.netPL || (a.instrument < b.instrument ? -1 : 1)),
    byWeekday: weekdayBuckets(agg),
    byHour: hourBuckets(agg),
  };

  return {
    tradeCount: facts.tradeCount,
    accountCount: facts.accountCount,
    winRate: facts.winRate,
    lossRate: facts.lossRate,
    topInstrument: facts.topInstrument,
    avgHoldingTime: facts.avgHoldingTime,
    weeklyTrades: facts.weeklyTrades,
    summary: summaryText(facts),
    performanceMetrics: performanceCard(facts),
    tradingProfile: tradingProfileCard(facts),
    instrumentBreakdown: instrumentBreakdownCard(facts),
    riskAssessment: riskCard(facts),
    behavioralAnalysis: behaviorCard(facts),
    charts,
    facts,
  };
}
