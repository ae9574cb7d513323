/**
 * Display values of the overview cards, written only from MetricFacts. Keys are the labels the
 * web card shows; '-' marks a value that does not exist for this data (e.g. profit factor without
 * a losing trade), as the spec shows '-' for empty values.
 */
import type { BucketFacts, CardObject, MetricFacts, NestedCardObject } from './types';
import { count, formatMoney, formatNumber, formatPercent, formatR, formatRatio, formatUnits } from './format';
import { plural } from '../../../lib/text';

const EMPTY = '-';

function orEmpty<T>(value: T | null, show: (value: T) => string): string {
  return value === null ? EMPTY : show(value);
}

function bucketText(bucket: BucketFacts, currency: string | null): string {
  return `${bucket.label}: ${formatMoney(bucket.netPL, currency)} over ${plural(bucket.trades, 'trade')} (${formatPercent(bucket.winRate ?? 0)} wins)`;
}

export function summaryText(facts: MetricFacts): string | null {
  if (facts.tradeCount === 0) return null;
  const head = `${plural(facts.tradeCount, 'trade')} on ${plural(facts.accountCount, 'account')}`;
  const perf = facts.performance;
  if (perf === null) return `${head}, none closed yet; ${plural(facts.openTradeCount, 'trade')} open.`;
  const parts = [
    `${formatNumber(perf.closedTrades, 0)} closed with a ${formatPercent(facts.winRate ?? 0)} win rate`,
    `net P/L ${formatMoney(perf.netPL, facts.currency)}`,
  ];
  if (perf.profitFactor !== null) parts.push(`profit factor ${formatRatio(perf.profitFactor)}`);
  parts.push(
    `max drawdown ${formatMoney(perf.maxDrawdown, facts.currency)}` +
      (perf.maxDrawdownPct === null ? '' : ` (${formatPercent(perf.maxDrawdownPct)})`),
  );
  return `${head}: ${parts.join(', ')}.`;
}

export function performanceCard(facts: MetricFacts): CardObject | null {
  const perf = facts.performance;
  if (perf === null) return null;
  const cur = facts.currency;
  const m = (value: number): string => formatMoney(value, cur);
  const streak =
    perf.currentStreakKind === 'none'
      ? EMPTY
      : perf.currentStreakKind === 'win'
        ? plural(perf.currentStreakLength, 'win')
        : plural(perf.currentStreakLength, 'loss', 'losses');
  return {
    'Closed Trades': `${formatNumber(perf.closedTrades, 0)} (${count(perf.wins)} W / ${count(perf.losses)} L / ${count(perf.breakEvens)} BE)`,
    'Net P/L': m(perf.netPL),
    'Gross Profit': m(perf.grossProfit),
    'Gross Loss': m(perf.grossLoss),
    'Profit Factor': orEmpty(perf.profitFactor, formatRatio),
    'Expectancy per Trade': m(perf.expectancy),
    'Average Win': orEmpty(perf.avgWin, m),
    'Average Loss': orEmpty(perf.avgLoss, m),
    'Payoff Ratio': orEmpty(perf.payoffRatio, formatRatio),
    'Largest Win': orEmpty(perf.largestWin, m),
    'Largest Loss': orEmpty(perf.largestLoss, m),
    'Max Drawdown': m(perf.maxDrawdown),
    'Max Drawdown %': orEmpty(perf.maxDrawdownPct, formatPercent),
    'Sharpe Ratio': orEmpty(perf.sharpeRatio, formatRatio),
    'Longest Win Streak': formatNumber(perf.longestWinStreak, 0),
    'Longest Loss Streak': formatNumber(perf.longestLossStreak, 0),
    'Current Streak': streak,
    Financing: m(perf.financing),
    'Net P/L after Financing': m(perf.netPLAfterFinancing),
    'Pips Won': formatNumber(perf.pipsWon, 1),
    'Pips Lost': formatNumber(perf.pipsLost, 1),
    'Net Pips': formatNumber(perf.netPips, 1),
  };
}

export function tradingProfileCard(facts: MetricFacts): CardObject | null {
  const profile = facts.profile;
  if (profile === null) return null;
  return {
    'Trading Style':
      profile.styleLabel === null ? EMPTY : `${profile.styleLabel} (median hold ${profile.medianHoldingTime ?? EMPTY})`,
    'Favourite Instruments': profile.favouriteInstruments
      .map((item) => `${item.instrument} (${formatNumber(item.trades, 0)})`)
      .join(', '),
    'Most Active Session': `${profile.mostActiveSession} (${formatPercent(profile.mostActiveSessionShare)} of trades)`,
    'Long / Short': `${formatPercent(profile.longShare)} / ${formatPercent(profile.shortShare)} (${formatNumber(profile.longTrades, 0)} / ${formatNumber(profile.shortTrades, 0)})`,
    'Typical Position Size': formatUnits(profile.typicalUnits),
    'Trades per Active Day': `${formatNumber(profile.tradesPerActiveDay, 1)} (${plural(profile.activeDays, 'active day')})`,
  };
}

export function instrumentBreakdownCard(facts: MetricFacts): NestedCardObject | null {
  if (facts.instruments.length === 0) return null;
  const card: NestedCardObject = {};
  for (const item of facts.instruments) {
    card[item.instrument] = {
      Trades: `${formatNumber(item.trades, 0)} (${formatNumber(item.closedTrades, 0)} closed)`,
      'Win Rate': orEmpty(item.winRate, formatPercent),
      'Net P/L': formatMoney(item.netPL, facts.currency),
      'Avg Holding Time': item.avgHoldingTime ?? EMPTY,
      Pips: formatNumber(item.pips, 1),
      'Typical Size': formatUnits(item.typicalUnits),
    };
  }
  return card;
}

/** An R figure with the sample it covers: closed trades without an initial stop are left out, and counted. */
function rFigure(value: number | null, risk: { closedWithInitialStop: number; closedWithoutInitialStop: number }) {
  const without = risk.closedWithoutInitialStop;
  const left = without > 0 ? `; ${plural(without, 'closed trade')} without an initial stop left out` : '';
  if (value === null) return without > 0 ? `${EMPTY} (no closed trade with an initial stop${left})` : EMPTY;
  return `${formatR(value)} (over ${plural(risk.closedWithInitialStop, 'closed trade')}${left})`;
}

export function riskCard(facts: MetricFacts): CardObject | null {
  const risk = facts.risk;
  if (risk === null) return null;
  const cur = facts.currency;
  const m = (value: number): string => formatMoney(value, cur);
  return {
    'Trades with an Initial Stop': `${formatNumber(risk.tradesWithInitialStop, 0)} of ${formatNumber(facts.tradeCount, 0)} (${formatPercent(risk.initialStopShare)})`,
    'Average R': rFigure(risk.averageR, risk),
    'Expectancy in R':
      risk.expectancyR === null
        ? rFigure(null, risk)
        : `${formatR(risk.expectancyR)} (average win ${orEmpty(risk.averageWinR, formatR)}, average loss ${orEmpty(risk.averageLossR, formatR)})`,
    'Open Trades without Stop-Loss': `${formatNumber(risk.openWithoutStopLoss, 0)} of ${formatNumber(risk.openTrades, 0)}`,
    'Worst Loss vs Average Win':
      risk.worstLoss === null || risk.avgWin === null || risk.worstLossToAvgWin === null
        ? EMPTY
        : `${m(risk.worstLoss)} = ${formatRatio(risk.worstLossToAvgWin)}× the average win (${m(risk.avgWin)})`,
    'Longest Loss Streak': formatNumber(risk.longestLossStreak, 0),
    'Current Loss Streak': formatNumber(risk.currentLossStreak, 0),
    'Margin Utilisation': orEmpty(risk.marginUtilisation, formatPercent),
    'Open Exposure':
      risk.exposureToNav === null
        ? m(risk.openExposure)
        : `${m(risk.openExposure)} (${formatRatio(risk.exposureToNav)}× NAV)`,
    'Unrealized P/L': m(risk.unrealizedPL),
  };
}

export function behaviorCard(facts: MetricFacts): CardObject | null {
  const behavior = facts.behavior;
  if (behavior === null) return null;
  const cur = facts.currency;
  const t = facts.thresholds;
  const { holding, revenge, overtrading } = behavior;

  const holdingText = !holding.enoughData
    ? `Not enough data (needs ${t.holdingMinTrades} wins and ${t.holdingMinTrades} losses; have ${count(holding.wins)} and ${count(holding.losses)})`
    : `${holding.triggered ? 'Detected' : 'Not detected'}: losers held ${formatRatio(holding.ratio ?? 0)}× as long as winners (median ${holding.losersMedianTime ?? EMPTY} vs ${holding.winnersMedianTime ?? EMPTY})`;

  const revengeText =
    revenge.losses === 0
      ? 'No losing trades'
      : `${revenge.triggered ? 'Detected' : 'Not detected'}: ${count(revenge.lossesFollowed)} of ${count(revenge.losses)} losses (${formatPercent(revenge.followedShare ?? 0)}) followed by a bigger trade within ${t.revengeWindowMinutes} min, after wins ${count(revenge.winsFollowed)} of ${count(revenge.wins)}` +
        (revenge.winsFollowedShare === null ? '' : ` (${formatPercent(revenge.winsFollowedShare)})`) +
        (revenge.revengeClosedTrades > 0 ? `; those trades netted ${formatMoney(revenge.revengeNetPL, cur)}` : '');

  const overtradingText = !overtrading.enoughData
    ? `Not enough data (needs ${t.overtradingMinActiveDays} active days; have ${count(overtrading.activeDays)})`
    : overtrading.triggered
      ? `Detected: ${plural(overtrading.overtradingDays, 'day')} with ${overtrading.threshold ?? EMPTY}+ trades (median ${formatNumber(overtrading.medianTradesPerDay ?? 0, 1)}); net ${formatMoney(overtrading.overtradingNetPL, cur)} on those days`
      : `Not detected: no day reached ${overtrading.threshold ?? EMPTY} trades (median ${formatNumber(overtrading.medianTradesPerDay ?? 0, 1)})`;

  const bucket = (value: BucketFacts | null): string => (value === null ? EMPTY : bucketText(value, cur));
  return {
    'Holding Losers Longer': holdingText,
    'Revenge Trading': revengeText,
    'Over-trading Days': overtradingText,
    'Best Weekday': bucket(behavior.bestWeekday),
    'Worst Weekday': bucket(behavior.worstWeekday),
    'Best Hour': bucket(behavior.bestHour),
    'Worst Hour': bucket(behavior.worstHour),
    'Time Zone': facts.timeZone,
  };
}
