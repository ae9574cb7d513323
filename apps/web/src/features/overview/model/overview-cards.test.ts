import { describe, expect, it } from 'vitest';
import { emptyMetrics, tradedMetrics } from '../test/overview-fixtures';
import { activityCards, analysisCards, breakdownCard, headlineCards, winLossText } from './overview-cards';

describe('winLossText', () => {
  it("shows 'win rate % / loss rate %' with one decimal", () => {
    expect(winLossText(66.7, 33.3)).toBe('66.7% / 33.3%');
    expect(winLossText(50, 40)).toBe('50.0% / 40.0%');
  });

  it('has no value before a trade has closed', () => {
    expect(winLossText(null, null)).toBeNull();
  });
});

describe('overview cards', () => {
  it('takes each card from its field (docs/PRODUCT.md, Data shapes)', () => {
    const m = tradedMetrics();
    const values = Object.fromEntries(
      [...headlineCards(m), ...activityCards(m), ...analysisCards(m), breakdownCard(m)].map((card) => [
        card.title,
        card.value,
      ]),
    );
    expect(values).toEqual({
      'Total Trades': 7,
      'Total Accounts': 2,
      'Win / Loss Ratio': '66.7% / 33.3%',
      'Top Instrument': 'EUR/USD',
      'Avg Holding Time': '3h 12m',
      'Weekly Trades': 4,
      'Performance Summary': m.summary,
      'AI Insights': m.aiInsights,
      'Behavioral Analysis': m.behavioralAnalysis,
      'Risk Assessment': m.riskAssessment,
      'Quick Wins': m.quickWins,
      'Long Term Strategy': m.longTermStrategy,
      'Performance Metrics': m.performanceMetrics,
      'Trading Profile': m.tradingProfile,
      'Instrument Breakdown': m.instrumentBreakdown,
    });
  });

  it('leaves the top instrument empty without trades', () => {
    expect(headlineCards(emptyMetrics()).find((card) => card.title === 'Top Instrument')?.value).toBeNull();
  });

  it('says imported instead of synced for an imported platform', () => {
    const hints = (imported: boolean) => headlineCards(emptyMetrics(), imported).map((card) => card.hint);
    expect(hints(false).slice(0, 2)).toEqual(['All states, every synced account', 'OANDA accounts synced']);
    expect(hints(true).slice(0, 2)).toEqual(['All trades of every imported account', 'MetaTrader accounts imported']);
  });
});
