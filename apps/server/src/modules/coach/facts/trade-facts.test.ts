import { describe, expect, it } from 'vitest';
import type { CoachFact, TradeListItem, TradePlaybook } from '@pipsense/contract';
import { builtinReview, SCORE_RUBRIC } from '../review/builtin-analyst';
import { tradeFacts, type FactInputs } from './trade-facts';
import type { Bar } from './indicators';

const HOUR = 3_600_000;
const OPEN = Date.UTC(2026, 10, 24, 9, 0); // Tuesday 09:00 UTC: London

function item(over: Partial<TradeListItem> = {}): TradeListItem {
  return {
    tradeId: '1',
    accountId: '101-004-1-001',
    mode: 'demo',
    instrument: 'EUR_USD',
    price: '1.10690',
    initialUnits: '10000',
    currentUnits: '0',
    realizedPL: '20.00',
    unrealizedPL: null,
    financing: '0',
    state: 'CLOSED',
    openTime: new Date(OPEN).toISOString(),
    closeTime: new Date(OPEN + 2 * HOUR).toISOString(),
    averageClosePrice: '1.10890',
    stopLossPrice: null,
    takeProfitPrice: null,
    trailingStopDistance: null,
    updatedAt: '',
    createdAt: '',
    platform: 'oanda',
    symbol: null,
    lots: null,
    commission: null,
    swap: null,
    note: '',
    rating: null,
    tags: [],
    // stop 15 pips under the entry
    initialRisk: { stopLossPrice: '1.10540', distance: '0.00150', pips: 15 },
    // +20 pips / 15 = 1.33 R
    rMultiple: 1.33,
    mae: { price: '1.10640', pips: 5, r: -0.33 },
    // best 1.10990: 30 pips = 2 R
    mfe: { price: '1.10990', pips: 30, r: 2 },
    excursion: 'ready',
    ruleBreaks: [],
    playbookId: null,
    reviewed: false,
    followedAll: null,
    attachmentCount: 0,
    ...over,
  };
}

/** 60 H1 candles before the entry, closes rising 2 pips a candle, each 10 pips high (h = c + 5, l = c − 5 pips). */
const rising: Bar[] = Array.from({ length: 60 }, (_, i) => {
  const c = 1.1 + 0.0002 * i;
  return { time: OPEN - (60 - i) * HOUR, h: c + 0.0005, l: c - 0.0005, c };
});

const inputs = (over: Partial<FactInputs> = {}): FactInputs => ({
  trade: item(),
  others: [],
  previousLossClose: null,
  candles: { h1: rising, h4: null },
  playbook: null,
  hasPersonalRules: false,
  revengeMinutes: 30,
  ...over,
});
const byName = (facts: CoachFact[]) => Object.fromEntries(facts.map((f) => [f.name, f.value]));

describe('a trade’s facts', () => {
  it('computes each fact from the candles and the trade, by hand', () => {
    const facts = byName(
      tradeFacts(
        inputs({
          others: [
            // holds 60, 120, 240 minutes: median 120; sizes 5 000, 10 000, 20 000: median 10 000
            item({
              tradeId: '2',
              closeTime: new Date(OPEN - 10 * HOUR).toISOString(),
              openTime: new Date(OPEN - 11 * HOUR).toISOString(),
              initialUnits: '5000',
            }),
            item({
              tradeId: '3',
              openTime: new Date(OPEN - 30 * HOUR).toISOString(),
              closeTime: new Date(OPEN - 28 * HOUR).toISOString(),
              initialUnits: '-10000',
            }),
            item({
              tradeId: '4',
              openTime: new Date(OPEN - 50 * HOUR).toISOString(),
              closeTime: new Date(OPEN - 46 * HOUR).toISOString(),
              initialUnits: '20000',
            }),
          ],
          previousLossClose: new Date(OPEN - 12 * 60_000).toISOString(),
        }),
      ),
    );
    expect(facts).toEqual({
      // EMA(50) of a line rising 0.0002 a candle rises 0.0002 a candle: 2 pips
      trend_h1_slope: 2,
      trend_alignment: 'with',
      // last 50 candles (i = 10…59): low 1.1020 − 0.0005 = 1.1015, high 1.1118 + 0.0005 = 1.1123;
      // (1.1069 − 1.1015) / 0.0108 = 50 %
      entry_range_percentile: 50,
      // every true range is max(10 pips, |h − previous c| = 7, |l − previous c| = 3) = 10 pips: ATR 0.0010;
      // 0.0015 / 0.0010 = 1.5
      stop_atr_multiple: 1.5,
      stop_inside_noise: false,
      // +20 of 30 pips: 66.7 %
      mfe_capture_pct: 66.7,
      // 2 R at best, 1.33 at the exit
      r_left_on_table: 0.67,
      result_r: 1.33,
      hold_minutes: 120,
      hold_vs_median: 1,
      session: 'London',
      size_vs_usual: 1,
      minutes_after_loss: 12,
    });
  });

  it('leaves out what cannot be computed: no candles, no stop, no other trades', () => {
    const facts = tradeFacts(
      inputs({
        trade: item({ initialRisk: null, rMultiple: null, mfe: null, mae: null }),
        candles: { h1: null, h4: null },
      }),
    );
    expect(facts.map((f) => f.name)).toEqual(['hold_minutes', 'session']);
  });

  it('reads a short against the trend, the playbook review, the personal rules and the revenge window', () => {
    const playbook: TradePlaybook = {
      accountId: '101-004-1-001',
      tradeId: '1',
      playbookId: 'p',
      reviewed: true,
      followedRuleIds: ['a'],
      followedAll: false,
      rules: [
        { id: 'a', text: 'Wait for the close', groupName: 'Entry', retired: false, followed: true },
        { id: 'b', text: 'Risk 1 %', groupName: 'Risk', retired: false, followed: false },
      ],
    };
    const facts = byName(
      tradeFacts(
        inputs({
          trade: item({ initialUnits: '-10000' }),
          playbook,
          hasPersonalRules: true,
          // 45 minutes before: outside a 30-minute window
          previousLossClose: new Date(OPEN - 45 * 60_000).toISOString(),
        }),
      ),
    );
    expect(facts.trend_alignment).toBe('against');
    expect(facts.playbook_rules_followed).toBe(1);
    expect(facts.playbook_rules_broken).toBe(1);
    expect(facts.personal_rule_breaks).toBe(0);
    expect(facts.minutes_after_loss).toBeUndefined();
  });
});

describe('the built-in analyst', () => {
  it('makes 2–4 points a side citing only the facts, one action and the rubric’s score', () => {
    const facts = tradeFacts(inputs());
    const review = builtinReview(facts);
    const names = new Set(facts.map((f) => f.name));
    for (const side of [review.wentWell, review.toImprove]) {
      expect(side.length).toBeGreaterThanOrEqual(2);
      expect(side.length).toBeLessThanOrEqual(4);
    }
    for (const p of [...review.wentWell, ...review.toImprove, review.action])
      for (const f of p.facts) expect(names.has(f)).toBe(true);
    // 3 + 1 (with the trend) + 1 (kept 66.7 % ≥ 50 %) = 5
    expect(review.score).toEqual({ value: 5, rubric: SCORE_RUBRIC });
  });

  it('still makes two points a side from the hold and the session alone', () => {
    const facts = tradeFacts(
      inputs({ trade: item({ initialRisk: null, rMultiple: null, mfe: null }), candles: { h1: null, h4: null } }),
    );
    const review = builtinReview(facts);
    expect(review.wentWell).toHaveLength(2);
    expect(review.toImprove.length).toBeGreaterThanOrEqual(2);
    // no initial stop: 3 − 1
    expect(review.score.value).toBe(2);
    expect(review.action.text).toMatch(/stop-loss/);
  });

  it('scores a trade against the trend, inside noise and in the revenge window low', () => {
    const facts = tradeFacts(
      inputs({
        trade: item({
          initialUnits: '-10000',
          initialRisk: { stopLossPrice: '1.10740', distance: '0.00050', pips: 5 },
        }),
        previousLossClose: new Date(OPEN - 5 * 60_000).toISOString(),
      }),
    );
    const review = builtinReview(facts);
    // 3 − 1 (inside noise: 0.5 ATR) − 1 (revenge window) = 1, and never below
    expect(review.score.value).toBe(1);
    expect(review.toImprove.flatMap((p) => p.facts)).toEqual(
      expect.arrayContaining(['stop_inside_noise', 'trend_alignment', 'minutes_after_loss']),
    );
  });
});
