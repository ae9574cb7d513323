import type { DashboardMetrics } from '@pipsense/contract';
import { formatInstrument } from '../../../components/data/format';
import type { MetricValueInput } from './metric-value';

/**
 * How a card presents its value: 'stat' a large figure, 'text' a small paragraph, 'object' a key/value list, 'list'
 * bullet points, 'nested' a key/value list per key.
 */
type CardKind = 'stat' | 'text' | 'object' | 'list' | 'nested';

export interface OverviewCard {
  title: string;
  value: MetricValueInput;
  kind: CardKind;
  /** Sentences read better under their label than squeezed beside it. */
  layout?: 'inline' | 'stacked';
  /** For a stat: the line under the figure. */
  hint?: string;
}

const percent = (value: number) => `${value.toFixed(1)}%`;

/** docs/PRODUCT.md, Overview: 'Win / Loss Ratio (win rate % / loss rate %)'; '-' until a trade has closed. */
export function winLossText(winRate: number | null, lossRate: number | null): string | null {
  if (winRate === null || lossRate === null) return null;
  return `${percent(winRate)} / ${percent(lossRate)}`;
}

/**
 * The first row: Total Trades, Total Accounts, Win / Loss Ratio, Top Instrument. `imported`: the platform's data
 * comes from imported reports (MetaTrader), so the hints say imported instead of synced.
 */
export function headlineCards(m: DashboardMetrics, imported = false): OverviewCard[] {
  return [
    {
      title: 'Total Trades',
      value: m.tradeCount,
      kind: 'stat',
      hint: imported ? 'All trades of every imported account' : 'All states, every synced account',
    },
    {
      title: 'Total Accounts',
      value: m.accountCount,
      kind: 'stat',
      hint: imported ? 'MetaTrader accounts imported' : 'OANDA accounts synced',
    },
    {
      title: 'Win / Loss Ratio',
      value: winLossText(m.winRate, m.lossRate),
      kind: 'stat',
      hint: 'Of closed trades',
    },
    {
      title: 'Top Instrument',
      value: m.topInstrument === null ? null : formatInstrument(m.topInstrument),
      kind: 'stat',
      hint: 'Most traded',
    },
  ];
}

/** The second row: Avg Holding Time, Weekly Trades, Performance Summary (small text). */
export function activityCards(m: DashboardMetrics): OverviewCard[] {
  return [
    { title: 'Avg Holding Time', value: m.avgHoldingTime, kind: 'stat', hint: 'Mean of closed trades' },
    { title: 'Weekly Trades', value: m.weeklyTrades, kind: 'stat', hint: 'Opened in the last 7 days' },
    { title: 'Performance Summary', value: m.summary, kind: 'text' },
  ];
}

/** The insight and analysis cards in the spec's order; each value is an object except Quick Wins, a list. */
export function analysisCards(m: DashboardMetrics): OverviewCard[] {
  return [
    { title: 'AI Insights', value: m.aiInsights, kind: 'object', layout: 'stacked' },
    { title: 'Behavioral Analysis', value: m.behavioralAnalysis, kind: 'object', layout: 'stacked' },
    { title: 'Risk Assessment', value: m.riskAssessment, kind: 'object' },
    { title: 'Quick Wins', value: m.quickWins, kind: 'list' },
    { title: 'Long Term Strategy', value: m.longTermStrategy, kind: 'object', layout: 'stacked' },
    { title: 'Performance Metrics', value: m.performanceMetrics, kind: 'object' },
    { title: 'Trading Profile', value: m.tradingProfile, kind: 'object' },
  ];
}

export function breakdownCard(m: DashboardMetrics): OverviewCard {
  return { title: 'Instrument Breakdown', value: m.instrumentBreakdown, kind: 'nested' };
}
