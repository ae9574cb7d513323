import {
  coachSettingsResponse,
  DEFAULT_COACH_SETTINGS,
  patternsResponse,
  tradeReviewResponse,
  weeklyReviewResponse,
  weeklyReviewsResponse,
  type CoachSettings,
  type PatternResult,
  type TradeReview,
  type TradeReviewData,
  type WeeklyReview,
  type WeeklyReviewListItem,
} from '@pipsense/contract';

export const GET_PATTERNS = 'GET /api/v1/coach/get_patterns';
export const GET_SETTINGS = 'GET /api/v1/coach/get_settings';
export const UPDATE_SETTINGS = 'POST /api/v1/coach/update_settings';
export const GET_WEEKS = 'GET /api/v1/coach/get_weekly_reviews';
export const GET_WEEK = 'GET /api/v1/coach/get_weekly_review/:week';
export const READ_WEEK = 'POST /api/v1/coach/read_weekly_review/:week';
export const GET_TRADE_REVIEW = 'GET /api/v1/coach/get_trade_review/:accountId/:tradeId';
export const REVIEW_TRADE = 'POST /api/v1/coach/review_trade/:accountId/:tradeId';

const usd = (amount: string) => ({ mode: 'single' as const, currency: 'USD', amount });

/** A pattern with two flagged trades that lost 120 USD against the others' 340 USD. */
export function patternResult(overrides: Partial<PatternResult> = {}): PatternResult {
  return {
    pattern: 'revenge_trading',
    definition: 'A trade opened within 30 minutes after a losing trade, at a larger size or risk.',
    trades: [
      { accountId: '101-004-1-001', tradeId: '11' },
      { accountId: '101-004-1-001', tradeId: '12' },
    ],
    count: 2,
    netPL: usd('-120.5000'),
    othersNetPL: usd('340.2500'),
    averageR: -0.75,
    othersAverageR: 0.4,
    ...overrides,
  };
}

export const patternsBody = (results: PatternResult[]) =>
  patternsResponse.parse({ success: true, message: 'Patterns', data: results });

export const settingsBody = (settings: CoachSettings = DEFAULT_COACH_SETTINGS) =>
  coachSettingsResponse.parse({ success: true, message: 'Settings', data: settings });

export function review(overrides: Partial<TradeReview> = {}): TradeReview {
  return {
    wentWell: [
      { text: 'You traded with the H4 trend.', facts: ['trend_alignment', 'trend_h4_slope'] },
      { text: 'Your stop sat outside the noise at 1.8 ATR.', facts: ['stop_atr_multiple'] },
    ],
    toImprove: [
      { text: 'You kept 25 % of the move.', facts: ['mfe_capture_pct'] },
      { text: 'You gave back 1.2R.', facts: ['r_left_on_table'] },
    ],
    action: { text: 'Move the stop to break-even at 1R rather than closing.', facts: ['mfe_capture_pct'] },
    score: { value: 3, rubric: '5: plan followed and exit managed; 3: a sound entry, a weak exit; 1: no plan.' },
    ...overrides,
  };
}

export function tradeReviewData(overrides: Partial<TradeReviewData> = {}): TradeReviewData {
  return {
    review: review(),
    facts: [
      { name: 'trend_h4_slope', value: 0.8, text: 'The H4 50-EMA rose 0.8 pips a candle.' },
      { name: 'trend_alignment', value: 'with', text: 'The trade went with the H4 trend.' },
      { name: 'stop_atr_multiple', value: 1.8, text: 'The stop sat 1.8 ATR(14) away.' },
      { name: 'mfe_capture_pct', value: 25, text: 'The exit kept 25 % of the best move.' },
      { name: 'r_left_on_table', value: 1.2, text: 'The trade gave back 1.2R from its best point.' },
      { name: 'session', value: 'London', text: 'It was opened in the London session.' },
    ],
    source: 'builtin',
    dataVersion: 'v1',
    stale: false,
    createdAt: '2026-11-26T10:00:00.000Z',
    patterns: ['early_exit'],
    ...overrides,
  };
}

export const tradeReviewBody = (data: TradeReviewData = tradeReviewData()) =>
  tradeReviewResponse.parse({ success: true, message: 'Review', data });

export function weekItem(overrides: Partial<WeeklyReviewListItem> = {}): WeeklyReviewListItem {
  return {
    week: '2026-W47',
    from: '2026-11-16T00:00:00.000Z',
    to: '2026-11-23T00:00:00.000Z',
    trades: 14,
    netPL: usd('215.4000'),
    focus: 'Wait 30 minutes after a loss before the next trade.',
    source: 'builtin',
    createdAt: '2026-11-23T07:00:00.000Z',
    readAt: null,
    ...overrides,
  };
}

/** The list; `lastEnded` is the trader's last ended week as the server tells it. */
export const weeksBody = (weeks: WeeklyReviewListItem[], lastEnded = '2026-W47') =>
  weeklyReviewsResponse.parse({
    success: true,
    message: 'Weekly reviews',
    data: { weeks, unread: weeks.filter((w) => w.readAt === null).length, lastEnded },
  });

export function weeklyReview(overrides: Partial<WeeklyReview> = {}): WeeklyReview {
  const trade = {
    accountId: '101-004-1-001',
    instrument: 'EUR_USD',
    side: 'long' as const,
    openTime: '2026-11-18T09:00:00.000Z',
    closeTime: '2026-11-18T12:00:00.000Z',
  };
  return {
    week: '2026-W47',
    from: '2026-11-16T00:00:00.000Z',
    to: '2026-11-23T00:00:00.000Z',
    timeZone: 'Europe/London',
    figures: { trades: 14, netPL: usd('215.4000'), totalR: 2.5, winRate: 57.1 },
    baseline: { trades: 11.5, netPL: usd('80.0000'), totalR: 1.1, winRate: 48.2, weeks: 12 },
    best: [
      {
        ...trade,
        tradeId: '21',
        netPL: usd('180.0000'),
        rMultiple: 2.1,
        review: review(),
        reviewSource: 'gpt-4o-mini',
      },
    ],
    worst: [
      {
        ...trade,
        tradeId: '22',
        side: 'short',
        netPL: usd('-95.0000'),
        rMultiple: -1,
        review: null,
        reviewSource: null,
      },
    ],
    patterns: [patternResult(), patternResult({ pattern: 'overtrading', count: 0, trades: [] })],
    ruleBreaks: { trades: 2, breaks: 3 },
    playbooks: { reviewed: 5, followRate: 80 },
    mood: {
      days: [{ date: '2026-11-18', mood: 4, netPL: usd('150.0000') }],
      summary: 'Your best days were the days you felt good.',
    },
    focus: { text: 'Wait 30 minutes after a loss before the next trade.', pattern: 'revenge_trading' },
    previousFocus: {
      text: 'Trade only the London session.',
      pattern: 'off_session',
      kept: true,
      outcome: 'No trade outside London this week, against 4 the week before.',
    },
    summary: ['You made 215.40 USD over 14 trades, above your 12-week average of 80.00 USD.'],
    source: 'builtin',
    createdAt: '2026-11-23T07:00:00.000Z',
    readAt: null,
    ...overrides,
  };
}

export const weekBody = (review: WeeklyReview = weeklyReview()) =>
  weeklyReviewResponse.parse({ success: true, message: 'Weekly review', data: review });
