import { dashboardMetricsResponse, type DashboardMetrics, type DashboardMetricsResponse } from '@pipsense/contract';

export const METRICS = '/api/v1/dashboard/metrics';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const bucket = (label: string, trades = 0, wins = 0, netPL = 0) => ({
  label,
  trades,
  wins,
  losses: trades - wins,
  netPL,
  winRate: trades === 0 ? null : Math.round((wins / trades) * 1000) / 10,
});
const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00–${String((h + 1) % 24).padStart(2, '0')}:00`;

/** A user with nothing synced: the counts are 0, every other card null (the server's answer, METRICS.md). */
export function emptyMetrics(): DashboardMetrics {
  return {
    byTag: [],
    riskInR: {
      averageR: null,
      expectancyR: null,
      tradesWithInitialStop: 0,
      closedWithInitialStop: 0,
      closedWithoutInitialStop: 0,
    },
    tradeCount: 0,
    accountCount: 0,
    winRate: null,
    lossRate: null,
    topInstrument: null,
    avgHoldingTime: null,
    weeklyTrades: 0,
    summary: null,
    aiInsights: null,
    behavioralAnalysis: null,
    riskAssessment: null,
    quickWins: [],
    longTermStrategy: null,
    performanceMetrics: null,
    tradingProfile: null,
    instrumentBreakdown: null,
    charts: {
      equityCurve: [],
      drawdown: [],
      drawdownPercent: [],
      pnlByInstrument: [],
      byWeekday: WEEKDAYS.map((day) => bucket(day)),
      byHour: Array.from({ length: 24 }, (_, hour) => ({ ...bucket(hourLabel(hour)), hour })),
    },
    insights: { source: 'builtin', status: 'ready', note: null, model: null, writtenAt: null },
    dataAsOf: null,
    computedAt: '2025-10-03T14:00:00.000Z',
  };
}

/** Six closed trades on two instruments, as the engine would report them (values written out by hand). */
export function tradedMetrics(): DashboardMetrics {
  const day = Date.UTC(2025, 8, 29, 9) / 1000;
  return {
    ...emptyMetrics(),
    tradeCount: 7,
    accountCount: 2,
    winRate: 66.7,
    lossRate: 33.3,
    topInstrument: 'EUR_USD',
    avgHoldingTime: '3h 12m',
    weeklyTrades: 4,
    summary:
      '7 trades on 2 accounts: 6 closed with a 66.7% win rate, net P/L 95.00 USD, profit factor 2.58, max drawdown 60.00 USD (26.1%).',
    aiInsights: {
      'Overall Edge':
        'Net P/L is 95.00 USD over 6 closed trades: 66.7% win rate, profit factor 2.58, expectancy 15.83 USD per trade.',
      Drawdown: 'The deepest drawdown of closed trades was 60.00 USD (26.1% of peak equity).',
    },
    behavioralAnalysis: {
      'Holding Losers Longer': 'Not enough data (needs 5 wins and 5 losses; have 4 and 2)',
      'Best Weekday': 'Monday: 120.00 USD over 3 trades (66.7% wins)',
    },
    riskAssessment: { 'Trades with Stop-Loss': '5 of 7 (71.4%)', 'Margin Utilisation': '-' },
    quickWins: ['Put a stop-loss on the 1 open trade without one.', 'Cut USD_JPY: -25.00 USD over 2 closed trades.'],
    longTermStrategy: { Focus: 'EUR_USD carried the result: 120.00 USD over 4 closed trades.' },
    performanceMetrics: { 'Net P/L': '95.00 USD', 'Profit Factor': '2.58', 'Sharpe Ratio': '-' },
    tradingProfile: {
      'Trading Style': 'Day trader (median hold 3h 5m)',
      'Most Active Session': 'London (57.1% of trades)',
    },
    instrumentBreakdown: {
      EUR_USD: { Trades: '5 (4 closed)', 'Win Rate': '75.0%', 'Net P/L': '120.00 USD' },
      USD_JPY: { Trades: '2 (2 closed)', 'Win Rate': '50.0%', 'Net P/L': '-25.00 USD' },
    },
    charts: {
      equityCurve: [
        { time: day, value: 50 },
        { time: day + 3600, value: 80 },
        { time: day + 86_400, value: 20 },
        { time: day + 2 * 86_400, value: 95 },
      ],
      drawdown: [
        { time: day, value: 0 },
        { time: day + 3600, value: 0 },
        { time: day + 86_400, value: -60 },
        { time: day + 2 * 86_400, value: 0 },
      ],
      drawdownPercent: [],
      pnlByInstrument: [
        { instrument: 'USD_JPY', netPL: -25, trades: 2 },
        { instrument: 'EUR_USD', netPL: 120, trades: 5 },
      ],
      byWeekday: WEEKDAYS.map((label, index) =>
        index === 0 ? bucket(label, 3, 2, 120) : index === 2 ? bucket(label, 3, 2, -25) : bucket(label),
      ),
      byHour: Array.from({ length: 24 }, (_, hour) => ({
        ...(hour === 9 ? bucket(hourLabel(hour), 6, 4, 95) : bucket(hourLabel(hour))),
        hour,
      })),
    },
    insights: { source: 'openai', status: 'ready', note: null, model: 'gpt-4o', writtenAt: '2025-10-03T13:59:00.000Z' },
    dataAsOf: '2025-10-03T13:58:35.702Z',
  };
}

/** The response body, checked against the contract. */
export function metricsBody(data: DashboardMetrics): DashboardMetricsResponse {
  return dashboardMetricsResponse.parse({ success: true, message: 'Metrics computed', data });
}
