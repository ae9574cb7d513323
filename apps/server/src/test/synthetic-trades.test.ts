import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../modules/analytics/engine/compute-metrics';
import { MAX_CHART_POINTS } from '../modules/analytics/engine/equity';
import { generateSyntheticTrades, SYNTHETIC_NOW, syntheticAccounts } from './synthetic-trades';

describe('generateSyntheticTrades', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(generateSyntheticTrades(200, 11)).toEqual(generateSyntheticTrades(200, 11));
    expect(generateSyntheticTrades(200, 11)).not.toEqual(generateSyntheticTrades(200, 12));
  });

  it('produces OANDA-shaped trades', () => {
    const trades = generateSyntheticTrades(5000, 1);
    expect(trades).toHaveLength(5000);
    let previousId = 0;
    for (const trade of trades) {
      const id = Number(trade.tradeId);
      expect(id).toBeGreaterThan(previousId);
      previousId = id;
      expect(trade.openTime).toBeLessThanOrEqual(SYNTHETIC_NOW.getTime());
      // the market is shut from Friday 21:00 to Sunday 21:00 UTC
      const day = new Date(trade.openTime).getUTCDay();
      const hour = new Date(trade.openTime).getUTCHours();
      expect(day === 6 || (day === 0 && hour < 21) || (day === 5 && hour >= 21)).toBe(false);
      if (trade.state === 'CLOSED') {
        expect(trade.closeTime!).toBeGreaterThan(trade.openTime);
        expect(trade.closePrice).not.toBeNull();
        expect(trade.currentUnits).toBe(0);
      } else {
        expect(trade.closeTime).toBeNull();
      }
      expect(Number.isInteger(Math.round(trade.realizedPL * 10_000))).toBe(true);
      // -0 would print as "-0" and cost each trade a heap box
      expect(Object.is(trade.financing, -0)).toBe(false);
    }
    expect(new Set(trades.map((t) => t.instrument)).size).toBe(6);
    expect(trades.some((t) => t.state === 'OPEN')).toBe(true);
  });

  it('builds accounts whose balances match what the trades booked', () => {
    const trades = generateSyntheticTrades(3000, 5);
    const metrics = computeMetrics(trades, syntheticAccounts(trades), { now: SYNTHETIC_NOW, timeZone: 'UTC' });
    // each account started with 100,000, so the estimate must find 200,000 (to the cent)
    expect(metrics.facts.performance?.startingEquity).toBeCloseTo(200_000, 1);
  });
});

describe('computeMetrics on a large history', () => {
  const trades = generateSyntheticTrades(20_000, 2);
  const metrics = computeMetrics(trades, syntheticAccounts(trades), {
    now: SYNTHETIC_NOW,
    timeZone: 'America/New_York',
  });
  const facts = metrics.facts;
  const perf = facts.performance!;

  it('keeps its totals consistent', () => {
    expect(perf.wins + perf.losses + perf.breakEvens).toBe(facts.closedTradeCount);
    expect(facts.closedTradeCount + facts.openTradeCount).toBe(20_000);
    const byInstrument = facts.instruments.reduce((sum, item) => sum + item.netPL, 0);
    expect(byInstrument).toBeCloseTo(perf.netPL, 1);
    expect(metrics.charts.byWeekday.reduce((sum, b) => sum + b.trades, 0)).toBe(facts.closedTradeCount);
    expect(metrics.charts.byHour.reduce((sum, b) => sum + b.trades, 0)).toBe(facts.closedTradeCount);
    expect(facts.profile!.sessions.reduce((sum, s) => sum + s.trades, 0)).toBe(20_000);
  });

  it('thins the chart series but keeps their end, peak and deepest point', () => {
    const curve = metrics.charts.equityCurve;
    expect(curve.length).toBeLessThanOrEqual(MAX_CHART_POINTS);
    for (let k = 1; k < curve.length; k++) expect(curve[k]!.time).toBeGreaterThan(curve[k - 1]!.time);
    expect(curve[curve.length - 1]!.value).toBeCloseTo(perf.netPL, 1);
    expect(Math.min(...metrics.charts.drawdown.map((p) => p.value))).toBeCloseTo(-perf.maxDrawdown, 1);
    expect(metrics.charts.drawdown.map((p) => p.time)).toEqual(curve.map((p) => p.time));
  });
});
