/**
 * The compact facts an insights writer is given: the built-in rules read them, and an LLM gets
 * them as JSON. Rounded as the cards show them, so a number quoted from here matches the screen.
 */
import type { TagFacts } from '@pipsense/contract';
import type {
  BehaviorFacts,
  InstrumentFacts,
  MetricFacts,
  OverviewMetrics,
  PerformanceFacts,
  RiskFacts,
  ThresholdFacts,
} from './types';

/** Instruments given to a writer: the most traded, plus the best and worst by net P/L. */
const MAX_INSTRUMENTS = 6;
/** Tags given to a writer, picked the same way. */
const MAX_TAGS = 8;

function pickTags(tags: readonly TagFacts[]): TagFacts[] {
  const used = tags.filter((tag) => tag.trades > 0);
  if (used.length <= MAX_TAGS) return used;
  const picked = used.slice(0, MAX_TAGS - 2);
  const byPl = [...used].sort((a, b) => b.netPL - a.netPL);
  for (const extra of [byPl[0], byPl[byPl.length - 1]]) if (extra && !picked.includes(extra)) picked.push(extra);
  return picked;
}

export interface InsightFacts {
  timeZone: string;
  currency: string | null;
  counts: {
    trades: number;
    accounts: number;
    openTrades: number;
    closedTrades: number;
    tradesOpenedLast7Days: number;
  };
  winRate: number | null;
  lossRate: number | null;
  topInstrument: string | null;
  avgHoldingTime: string | null;
  performance: Omit<PerformanceFacts, 'startingEquity'> | null;
  profile: {
    style: string | null;
    styleLabel: string | null;
    medianHoldingTime: string | null;
    favouriteInstruments: { instrument: string; trades: number }[];
    mostActiveSession: string;
    mostActiveSessionShare: number;
    sessions: { session: string; trades: number; share: number }[];
    longShare: number;
    shortShare: number;
    typicalUnits: number;
    activeDays: number;
    tradesPerActiveDay: number;
  } | null;
  instruments: InstrumentFacts[];
  risk: RiskFacts | null;
  behavior: BehaviorFacts | null;
  /** Journal tags with closed trades (setups, mistakes, emotions): the most traded, plus the best and worst. */
  tags: TagFacts[];
  thresholds: ThresholdFacts;
}

function pickInstruments(instruments: readonly InstrumentFacts[]): InstrumentFacts[] {
  if (instruments.length <= MAX_INSTRUMENTS) return [...instruments];
  const picked = instruments.slice(0, MAX_INSTRUMENTS - 2);
  const closed = instruments.filter((item) => item.closedTrades > 0);
  const byPl = [...closed].sort((a, b) => b.netPL - a.netPL);
  for (const extra of [byPl[0], byPl[byPl.length - 1]]) {
    if (extra !== undefined && !picked.includes(extra)) picked.push(extra);
  }
  return picked;
}

function insightFactsFrom(facts: MetricFacts): InsightFacts {
  const profile = facts.profile;
  let performance: InsightFacts['performance'] = null;
  if (facts.performance !== null) {
    const { startingEquity: _startingEquity, ...rest } = facts.performance;
    performance = rest;
  }
  return {
    timeZone: facts.timeZone,
    currency: facts.currency,
    counts: {
      trades: facts.tradeCount,
      accounts: facts.accountCount,
      openTrades: facts.openTradeCount,
      closedTrades: facts.closedTradeCount,
      tradesOpenedLast7Days: facts.weeklyTrades,
    },
    winRate: facts.winRate,
    lossRate: facts.lossRate,
    topInstrument: facts.topInstrument,
    avgHoldingTime: facts.avgHoldingTime,
    performance,
    profile:
      profile === null
        ? null
        : {
            style: profile.style,
            styleLabel: profile.styleLabel,
            medianHoldingTime: profile.medianHoldingTime,
            favouriteInstruments: profile.favouriteInstruments,
            mostActiveSession: profile.mostActiveSession,
            mostActiveSessionShare: profile.mostActiveSessionShare,
            sessions: profile.sessions,
            longShare: profile.longShare,
            shortShare: profile.shortShare,
            typicalUnits: profile.typicalUnits,
            activeDays: profile.activeDays,
            tradesPerActiveDay: profile.tradesPerActiveDay,
          },
    instruments: pickInstruments(facts.instruments),
    risk: facts.risk,
    behavior: facts.behavior,
    tags: pickTags(facts.tags),
    thresholds: facts.thresholds,
  };
}

/** The compact numeric facts an LLM is given to write the insights from. */
export function insightFacts(metrics: OverviewMetrics): InsightFacts {
  return insightFactsFrom(metrics.facts);
}
