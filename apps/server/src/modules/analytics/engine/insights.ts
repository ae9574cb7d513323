/**
 * The built-in insights writer: fixed rules over MetricFacts, used when no AI provider is
 * configured or it fails. Every point quotes the number that triggered it, formatted exactly as
 * the cards show it, and every number it writes is one of insightFacts() (the tests check this).
 */
import type { InsightFacts } from './insight-facts';
import type { InsightPoint, StructuredInsights } from './insights-schema';
import type { InstrumentFacts, OverviewInsights, OverviewMetrics } from './types';
import { insightFacts } from './insight-facts';
import { toInsightCards } from './insights-schema';
import { count, formatMoney, formatNumber, formatPercent, formatRatio } from './format';
import { plural } from '../../../lib/text';

const MAX_QUICK_WINS = 5;

function writer(facts: InsightFacts): {
  m: (value: number) => string;
  pct: (value: number) => string;
  n: (value: number) => string;
} {
  return {
    m: (value) => formatMoney(value, facts.currency),
    pct: formatPercent,
    n: (value) => formatNumber(value, 0),
  };
}

/** Instruments with closed trades, best and worst net P/L; null unless two differ. */
function bestAndWorstInstrument(instruments: readonly InstrumentFacts[]): {
  best: InstrumentFacts;
  worst: InstrumentFacts;
} | null {
  const closed = instruments.filter((item) => item.closedTrades > 0);
  if (closed.length < 2) return null;
  let best = closed[0]!;
  let worst = closed[0]!;
  for (const item of closed) {
    if (item.netPL > best.netPL) best = item;
    if (item.netPL < worst.netPL) worst = item;
  }
  return best === worst ? null : { best, worst };
}

function aiInsightPoints(facts: InsightFacts): InsightPoint[] {
  const { m, pct, n } = writer(facts);
  const points: InsightPoint[] = [];
  const perf = facts.performance;
  const behavior = facts.behavior;

  if (perf !== null) {
    const edge = perf.profitFactor === null ? `no losing trade yet` : `profit factor ${formatRatio(perf.profitFactor)}`;
    points.push({
      title: perf.netPL > 0 ? 'Overall Edge' : 'Overall Result',
      detail: `Net P/L is ${m(perf.netPL)} over ${plural(perf.closedTrades, 'closed trade')}: ${pct(facts.winRate ?? 0)} win rate, ${edge}, expectancy ${m(perf.expectancy)} per trade.`,
    });
    if (perf.payoffRatio !== null && perf.avgWin !== null && perf.avgLoss !== null && perf.breakEvenWinRate !== null) {
      const verdict =
        (facts.winRate ?? 0) >= perf.breakEvenWinRate ? 'your win rate clears it' : 'your win rate falls short of it';
      points.push({
        title: 'Win Size vs Loss Size',
        detail: `Average win ${m(perf.avgWin)} against average loss ${m(perf.avgLoss)} (payoff ratio ${formatRatio(perf.payoffRatio)}): breaking even needs a ${pct(perf.breakEvenWinRate)} win rate, and at ${pct(facts.winRate ?? 0)} ${verdict}.`,
      });
    }
    if (perf.maxDrawdown > 0) {
      const share = perf.maxDrawdownPct === null ? '' : ` (${pct(perf.maxDrawdownPct)} of peak equity)`;
      points.push({
        title: 'Drawdown',
        detail: `The deepest drawdown of closed trades was ${m(perf.maxDrawdown)}${share}; the longest losing streak ran ${plural(perf.longestLossStreak, 'trade')}.`,
      });
    }
  }

  const pair = bestAndWorstInstrument(facts.instruments);
  if (pair !== null) {
    points.push({
      title: 'Instruments',
      detail: `${pair.best.instrument} made ${m(pair.best.netPL)} over ${plural(pair.best.closedTrades, 'closed trade')}; ${pair.worst.instrument} made ${m(pair.worst.netPL)} over ${n(pair.worst.closedTrades)}.`,
    });
  }

  if (behavior !== null) {
    const found: string[] = [];
    const { holding, revenge, overtrading } = behavior;
    if (holding.triggered && holding.ratio !== null) {
      found.push(
        `losers are held ${formatRatio(holding.ratio)}× as long as winners (median ${holding.losersMedianTime} vs ${holding.winnersMedianTime})`,
      );
    }
    if (revenge.triggered) {
      found.push(
        `${count(revenge.lossesFollowed)} of ${count(revenge.losses)} losses were followed by a bigger trade within ${facts.thresholds.revengeWindowMinutes} minutes`,
      );
    }
    if (overtrading.triggered) {
      found.push(
        `${plural(overtrading.overtradingDays, 'day')} had ${count(overtrading.threshold ?? 0)}+ trades against a median of ${formatNumber(overtrading.medianTradesPerDay ?? 0, 1)}`,
      );
    }
    const detail =
      found.length > 0
        ? `Patterns found: ${found.join('; ')}.`
        : revenge.losses > 0
          ? `No loser-holding, revenge or over-trading pattern found: ${count(revenge.lossesFollowed)} of ${count(revenge.losses)} losses were followed by a bigger trade within ${facts.thresholds.revengeWindowMinutes} minutes.`
          : 'No loser-holding, revenge or over-trading pattern found.';
    points.push({ title: 'Behaviour', detail });

    const timing: string[] = [];
    if (behavior.bestWeekday !== null && behavior.worstWeekday !== null) {
      timing.push(
        `best weekday ${behavior.bestWeekday.label} (${m(behavior.bestWeekday.netPL)} over ${plural(behavior.bestWeekday.trades, 'trade')}), worst ${behavior.worstWeekday.label} (${m(behavior.worstWeekday.netPL)})`,
      );
    }
    if (facts.profile !== null) {
      timing.push(
        `${pct(facts.profile.mostActiveSessionShare)} of trades open in the ${facts.profile.mostActiveSession} session`,
      );
    }
    if (timing.length > 0) {
      const text = timing.join('; ');
      points.push({ title: 'Timing', detail: `${text.charAt(0).toUpperCase()}${text.slice(1)}.` });
    }
  }
  return points;
}

function quickWinTexts(facts: InsightFacts): string[] {
  const { m, pct, n } = writer(facts);
  const wins: string[] = [];
  const risk = facts.risk;
  const behavior = facts.behavior;
  const t = facts.thresholds;
  if (risk === null || behavior === null) return wins;

  if (risk.openWithoutStopLoss > 0) {
    wins.push(
      `Set a stop-loss now: ${count(risk.openWithoutStopLoss)} of ${count(risk.openTrades)} open trades have none.`,
    );
  }
  if (risk.initialStopShare < t.stopLossTargetPct) {
    wins.push(
      `Place a stop-loss with every entry: only ${n(risk.tradesWithInitialStop)} of ${n(facts.counts.trades)} trades (${pct(risk.initialStopShare)}) had an initial stop.`,
    );
  }
  const costliest = costliestTag(facts, t.bucketMinTrades);
  if (costliest !== null) {
    const what =
      costliest.kind === 'mistake'
        ? `the "${costliest.name}" mistake`
        : `the "${costliest.name}" ${costliest.kind === 'setup' ? 'setup' : 'tag'}`;
    wins.push(
      `Review ${what}: ${m(costliest.netPL)} over ${plural(costliest.trades, 'closed trade')} at a ${pct(costliest.winRate ?? 0)} win rate.`,
    );
  }
  const { holding, revenge, overtrading } = behavior;
  if (revenge.triggered) {
    const outcome = revenge.revengeClosedTrades > 0 ? `; those trades netted ${m(revenge.revengeNetPL)}` : '';
    wins.push(
      `Wait ${t.revengeWindowMinutes} minutes after a loss before the next trade: ${count(revenge.lossesFollowed)} of ${count(revenge.losses)} losses were followed by a bigger trade${outcome}.`,
    );
  }
  if (holding.triggered && holding.ratio !== null) {
    wins.push(
      `Cut losing trades sooner: losers are held ${formatRatio(holding.ratio)}× as long as winners (median ${holding.losersMedianTime} vs ${holding.winnersMedianTime}).`,
    );
  }
  if (overtrading.triggered) {
    wins.push(
      `Cap your trades per day near the median of ${formatNumber(overtrading.medianTradesPerDay ?? 0, 1)}: on ${plural(overtrading.overtradingDays, 'day')} with ${count(overtrading.threshold ?? 0)}+ trades you netted ${m(overtrading.overtradingNetPL)}.`,
    );
  }
  if (
    risk.worstLossToAvgWin !== null &&
    risk.worstLoss !== null &&
    risk.worstLossToAvgWin >= t.worstLossWarningMultiple
  ) {
    wins.push(
      `Limit the size of a single loss: the worst one (${m(risk.worstLoss)}) cost ${formatRatio(risk.worstLossToAvgWin)} average wins.`,
    );
  }
  if (risk.marginUtilisation !== null && risk.marginUtilisation >= t.marginWarningPct) {
    wins.push(`Reduce margin use: ${pct(risk.marginUtilisation)} of NAV is tied up as margin.`);
  }
  const pair = bestAndWorstInstrument(facts.instruments);
  if (pair !== null && pair.worst.netPL < 0 && pair.worst.closedTrades >= t.bucketMinTrades) {
    wins.push(
      `Review how you trade ${pair.worst.instrument}: ${m(pair.worst.netPL)} over ${plural(pair.worst.closedTrades, 'closed trade')} at a ${pct(pair.worst.winRate ?? 0)} win rate.`,
    );
  }
  if (behavior.worstWeekday !== null && behavior.worstWeekday.netPL < 0) {
    wins.push(
      `Trade lighter on ${behavior.worstWeekday.label}: ${m(behavior.worstWeekday.netPL)} over ${plural(behavior.worstWeekday.trades, 'trade')}.`,
    );
  }
  if (behavior.worstHour !== null && behavior.worstHour.netPL < 0) {
    wins.push(
      `Avoid opening trades ${behavior.worstHour.label} (${facts.timeZone}): ${m(behavior.worstHour.netPL)} over ${plural(behavior.worstHour.trades, 'trade')}.`,
    );
  }
  if (wins.length === 0) {
    wins.push(
      `Keep the routine: ${n(risk.tradesWithInitialStop)} of ${n(facts.counts.trades)} trades had an initial stop and no behavioural warning fired.`,
    );
  }
  return wins.slice(0, MAX_QUICK_WINS);
}

/** The tag (mistake first, then setup or emotion) with the lowest negative net P/L over enough closed trades. */
function costliestTag(facts: InsightFacts, minTrades: number) {
  let worst: InsightFacts['tags'][number] | null = null;
  for (const tag of facts.tags) {
    if (tag.trades < minTrades || tag.netPL >= 0) continue;
    if (worst === null || tag.netPL < worst.netPL) worst = tag;
  }
  return worst;
}

function strategyPoints(facts: InsightFacts): InsightPoint[] {
  const { m, pct } = writer(facts);
  const points: InsightPoint[] = [];
  const perf = facts.performance;
  const profile = facts.profile;
  const t = facts.thresholds;

  if (perf === null && facts.counts.trades > 0) {
    points.push({
      title: 'Sample Size',
      detail: `None of your ${plural(facts.counts.trades, 'trade')} has closed yet: results, win rate and drawdown start with the first closed trade.`,
    });
  }
  if (perf !== null) {
    if (perf.closedTrades < t.minimumSample) {
      points.push({
        title: 'Sample Size',
        detail: `Only ${plural(perf.closedTrades, 'closed trade')} so far, too few to judge a strategy: review these numbers again after at least ${t.minimumSample}.`,
      });
    } else {
      const sharpe =
        perf.sharpeRatio === null
          ? ''
          : `; the Sharpe ratio of daily returns is ${formatRatio(perf.sharpeRatio)} over ${count(perf.sharpeDays)} trading days`;
      points.push({
        title: 'Sample Size',
        detail: `${plural(perf.closedTrades, 'closed trade')} give a usable sample${sharpe}.`,
      });
    }
  }

  const pair = bestAndWorstInstrument(facts.instruments);
  if (pair !== null && pair.best.netPL > 0 && profile !== null) {
    points.push({
      title: 'Focus',
      detail: `Build around what already works: ${pair.best.instrument} (${m(pair.best.netPL)}, ${pct(pair.best.winRate ?? 0)} win rate) and the ${profile.mostActiveSession} session, where ${pct(profile.mostActiveSessionShare)} of your trades open.`,
    });
  }

  if (perf !== null && perf.payoffRatio !== null && perf.breakEvenWinRate !== null) {
    points.push({
      title: 'Risk and Reward',
      detail:
        perf.payoffRatio < 1
          ? `Aim for wins at least as large as losses: at a payoff ratio of ${formatRatio(perf.payoffRatio)} you must win ${pct(perf.breakEvenWinRate)} of trades just to break even.`
          : `Protect the payoff ratio of ${formatRatio(perf.payoffRatio)}: it keeps you profitable down to a ${pct(perf.breakEvenWinRate)} win rate.`,
    });
  }

  if (profile !== null && profile.styleLabel !== null && profile.medianHoldingTime !== null) {
    points.push({
      title: 'Style',
      detail: `A median hold of ${profile.medianHoldingTime} makes you a ${profile.styleLabel.toLowerCase()}: plan entries, stops and reviews on the time frames that match it (${formatNumber(profile.tradesPerActiveDay, 1)} trades per active day now).`,
    });
  }

  if (perf !== null && perf.financing !== 0) {
    points.push({
      title: 'Costs',
      detail: `Financing on closed trades came to ${m(perf.financing)}, so net P/L after financing is ${m(perf.netPLAfterFinancing)}: count it when you hold overnight.`,
    });
  }
  return points.slice(0, 5);
}

/** The built-in insights as the structure an LLM would return (see insightsSchema). */
export function builtinStructuredInsights(metrics: OverviewMetrics): StructuredInsights {
  const facts = insightFacts(metrics);
  return {
    aiInsights: aiInsightPoints(facts).slice(0, 6),
    quickWins: quickWinTexts(facts),
    longTermStrategy: strategyPoints(facts),
  };
}

/** AI Insights, Quick Wins and Long Term Strategy from the rules, no LLM involved. */
export function buildInsights(metrics: OverviewMetrics): OverviewInsights & { source: 'builtin' } {
  return { ...toInsightCards(builtinStructuredInsights(metrics), 'builtin'), source: 'builtin' };
}
