import type { TagFacts } from '@pipsense/contract';
/**
 * Input and output shapes of the analytics engine. The sync layer maps database rows to the inputs;
 * the route serves the outputs. Every metric is defined in METRICS.md beside this file.
 */

/**
 * One OANDA trade as the engine needs it; broker decimal strings are already parsed. Only numbers and shared
 * strings, no Date objects: a server computes over 100,000 of these at once, and two Dates per trade were a
 * third of the memory they held (see "Performance" in METRICS.md).
 */
export interface EngineTrade {
  /** OANDA account id. */
  accountId: string;
  /** Digit string; compared numerically. */
  tradeId: string;
  /** e.g. EUR_USD, USD_JPY, XAU_USD */
  instrument: string;
  /** Initial units, signed: + long, - short. */
  units: number;
  currentUnits: number;
  openPrice: number;
  /** Average close price, null while open. */
  closePrice: number | null;
  /** Epoch milliseconds (UTC). */
  openTime: number;
  /** Epoch milliseconds (UTC), null while open. */
  closeTime: number | null;
  state: 'OPEN' | 'CLOSED' | 'CLOSE_WHEN_TRADEABLE';
  /** Account currency, price P/L only. */
  realizedPL: number;
  /** 0 when closed. */
  unrealizedPL: number;
  /** Kept apart from price P/L. */
  financing: number;
  /** The stop-loss order on the trade (at open), if any. */
  stopLossPrice: number | null;
  takeProfitPrice: number | null;
  trailingStopDistance: number | null;
  /** A first stop-loss was attached to the trade (trades.initial_stop_loss_price): "with an initial stop". */
  initialStop: boolean;
  /** The closed trade's result in R (domain/risk.ts rMultipleOf); null while open or without an initial stop. */
  rMultiple: number | null;
}

/** What engineTrade() takes: the R fields may be left out (no initial stop). */
export type EngineTradeInput = Omit<EngineTrade, 'initialStop' | 'rMultiple'> &
  Partial<Pick<EngineTrade, 'initialStop' | 'rMultiple'>>;

export interface EngineAccount {
  accountId: string;
  currency: string;
  balance: number;
  nav: number;
  unrealizedPL: number;
  marginUsed: number;
  marginAvailable: number;
  positionValue: number;
  openTradeCount: number;
  openPositionCount: number;
}

export interface EngineOptions {
  now: Date;
  /** IANA zone of the user (the web app sends it); days and hours are bucketed in it. */
  timeZone: string;
  /**
   * Pip size per instrument from the broker's instrument list (10 ^ pipLocation). Instruments not
   * listed fall back to the built-in rule in instruments.ts.
   */
  pipSizes?: Readonly<Record<string, number>>;
  /**
   * The trades are a slice of the accounts' history (by date, instrument or tag): the balances do not tell the
   * slice's starting equity, so drawdown in % is left out.
   */
  sliceOfHistory?: boolean;
  /** The by-tag breakdown of the same trades (by-tag.ts), for the insights to cite. */
  byTag?: readonly TagFacts[];
}

/** A card value rendered by the web app as a key/value list. */
export type CardObject = Record<string, string>;
/** Instrument Breakdown: instrument → key/value list. */
export type NestedCardObject = Record<string, CardObject>;

export type TradingStyle = 'scalper' | 'day' | 'swing' | 'position';
export type SessionName = 'Asia' | 'London' | 'New York';
export type StreakKind = 'win' | 'loss' | 'none';

/** A time bucket (weekday or hour) of closed-trade results, by open time in the user's zone. */
export interface BucketFacts {
  label: string;
  trades: number;
  wins: number;
  losses: number;
  netPL: number;
  winRate: number | null;
}

export interface InstrumentFacts {
  instrument: string;
  trades: number;
  closedTrades: number;
  wins: number;
  losses: number;
  breakEvens: number;
  winRate: number | null;
  netPL: number;
  avgHoldingMinutes: number | null;
  avgHoldingTime: string | null;
  pips: number;
  /** Median |initial units| on this instrument. */
  typicalUnits: number;
}

export interface PerformanceFacts {
  closedTrades: number;
  wins: number;
  losses: number;
  breakEvens: number;
  netPL: number;
  grossProfit: number;
  /** Negative or 0. */
  grossLoss: number;
  /** null when there is no losing trade. */
  profitFactor: number | null;
  expectancy: number;
  avgWin: number | null;
  /** Negative. */
  avgLoss: number | null;
  payoffRatio: number | null;
  /** Win rate (%) at which this payoff ratio breaks even: 100 / (1 + payoff). */
  breakEvenWinRate: number | null;
  largestWin: number | null;
  largestLoss: number | null;
  /** Positive amount. */
  maxDrawdown: number;
  maxDrawdownPct: number | null;
  startingEquity: number | null;
  sharpeRatio: number | null;
  sharpeDays: number;
  longestWinStreak: number;
  longestLossStreak: number;
  currentStreakKind: StreakKind;
  currentStreakLength: number;
  financing: number;
  netPLAfterFinancing: number;
  pipsWon: number;
  /** Negative or 0. */
  pipsLost: number;
  netPips: number;
}

export interface ProfileFacts {
  style: TradingStyle | null;
  styleLabel: string | null;
  medianHoldingMinutes: number | null;
  medianHoldingTime: string | null;
  favouriteInstruments: { instrument: string; trades: number }[];
  sessions: { session: SessionName; trades: number; share: number }[];
  mostActiveSession: SessionName;
  mostActiveSessionShare: number;
  longTrades: number;
  shortTrades: number;
  longShare: number;
  shortShare: number;
  typicalUnits: number;
  activeDays: number;
  tradesPerActiveDay: number;
}

export interface RiskFacts {
  /** Trades (any state) with an initial stop, and their share of all trades (%). */
  tradesWithInitialStop: number;
  initialStopShare: number;
  /** Closed trades with an initial stop (the R figures cover these) and without one. */
  closedWithInitialStop: number;
  closedWithoutInitialStop: number;
  /** R figures, 2 decimals; null without closed trades with an initial stop (or without wins / losses). */
  averageR: number | null;
  expectancyR: number | null;
  averageWinR: number | null;
  averageLossR: number | null;
  openTrades: number;
  openWithoutStopLoss: number;
  worstLoss: number | null;
  avgWin: number | null;
  worstLossToAvgWin: number | null;
  longestLossStreak: number;
  currentLossStreak: number;
  marginUsed: number;
  nav: number;
  marginUtilisation: number | null;
  /** The account with the highest margin utilisation. */
  maxAccountMarginUtilisation: number | null;
  maxAccountMarginId: string | null;
  openExposure: number;
  exposureToNav: number | null;
  unrealizedPL: number;
}

export interface HoldingDetector {
  triggered: boolean;
  enoughData: boolean;
  wins: number;
  losses: number;
  winnersMedianMinutes: number | null;
  losersMedianMinutes: number | null;
  winnersMedianTime: string | null;
  losersMedianTime: string | null;
  ratio: number | null;
}

export interface RevengeDetector {
  triggered: boolean;
  losses: number;
  lossesFollowed: number;
  followedShare: number | null;
  /** Baseline: winning trades followed the same way. */
  wins: number;
  winsFollowed: number;
  winsFollowedShare: number | null;
  revengeTrades: number;
  revengeClosedTrades: number;
  revengeNetPL: number;
  revengeWinRate: number | null;
}

export interface OvertradingDetector {
  triggered: boolean;
  enoughData: boolean;
  activeDays: number;
  medianTradesPerDay: number | null;
  threshold: number | null;
  overtradingDays: number;
  /** The busiest over-trading days, most trades first (at most 5). */
  days: { date: string; trades: number; netPL: number }[];
  overtradingNetPL: number;
  overtradingWinRate: number | null;
  otherDaysWinRate: number | null;
}

export interface BehaviorFacts {
  holding: HoldingDetector;
  revenge: RevengeDetector;
  overtrading: OvertradingDetector;
  bestWeekday: BucketFacts | null;
  worstWeekday: BucketFacts | null;
  bestHour: BucketFacts | null;
  worstHour: BucketFacts | null;
}

/** The detectors' constants, so a reader (or an LLM) knows the rules that produced a number. */
export interface ThresholdFacts {
  scalperMaxMinutes: number;
  dayTraderMaxHours: number;
  swingMaxDays: number;
  revengeWindowMinutes: number;
  revengeMinOccurrences: number;
  revengeMinSharePct: number;
  revengeBaselineMultiple: number;
  holdingMinTrades: number;
  holdingRatio: number;
  overtradingMinActiveDays: number;
  overtradingMultiple: number;
  overtradingMinExtraTrades: number;
  bucketMinTrades: number;
  minimumSample: number;
  stopLossTargetPct: number;
  marginWarningPct: number;
  worstLossWarningMultiple: number;
}

/**
 * Every number behind the cards, rounded exactly as the cards show it (money 2 decimals, rates 1,
 * ratios 2). Insights quote these, so text and cards never disagree.
 */
export interface MetricFacts {
  timeZone: string;
  /** The one account currency, or null when accounts use several (amounts are then plain sums). */
  currency: string | null;
  currencies: string[];
  tradeCount: number;
  accountCount: number;
  openTradeCount: number;
  closedTradeCount: number;
  weeklyTrades: number;
  winRate: number | null;
  lossRate: number | null;
  topInstrument: string | null;
  avgHoldingMinutes: number | null;
  avgHoldingTime: string | null;
  performance: PerformanceFacts | null;
  profile: ProfileFacts | null;
  instruments: InstrumentFacts[];
  risk: RiskFacts | null;
  behavior: BehaviorFacts | null;
  /** Per journal tag (by-tag.ts); empty without tags. */
  tags: TagFacts[];
  thresholds: ThresholdFacts;
}

/** lightweight-charts point: `time` is UTC seconds (UTCTimestamp), strictly ascending. */
export interface ChartPoint {
  time: number;
  value: number;
}

export interface OverviewCharts {
  /** Cumulative realized P/L after each closed trade. */
  equityCurve: ChartPoint[];
  /** Equity minus its running peak (≤ 0), same times as equityCurve. */
  drawdown: ChartPoint[];
  /** The same in % of peak equity; empty when the starting equity is unknown. */
  drawdownPercent: ChartPoint[];
  pnlByInstrument: { instrument: string; netPL: number; trades: number }[];
  /** Monday first, 7 entries. */
  byWeekday: BucketFacts[];
  /** Hours 0–23 in the user's zone, 24 entries. */
  byHour: (BucketFacts & { hour: number })[];
}

/** The "Overview analytics" metric fields (docs/PRODUCT.md, Data shapes), plus chart series and their facts. */
export interface OverviewMetrics {
  tradeCount: number;
  accountCount: number;
  /** % of closed trades, 1 decimal; null without closed trades. */
  winRate: number | null;
  lossRate: number | null;
  topInstrument: string | null;
  avgHoldingTime: string | null;
  weeklyTrades: number;
  summary: string | null;
  performanceMetrics: CardObject | null;
  tradingProfile: CardObject | null;
  instrumentBreakdown: NestedCardObject | null;
  riskAssessment: CardObject | null;
  behavioralAnalysis: CardObject | null;
  /** Not a card: series for the overview charts. */
  charts: OverviewCharts;
  /** Not a card: the numbers the cards were written from (input of insights and of the LLM). */
  facts: MetricFacts;
}

export type InsightSource = 'builtin' | 'openai' | 'vertexai';

/** The insight cards as the web renders them. */
export interface OverviewInsights {
  aiInsights: CardObject | null;
  quickWins: string[];
  longTermStrategy: CardObject | null;
  source: InsightSource;
}
