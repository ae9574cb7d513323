import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { computeMetrics } from './compute-metrics';
import { findUngroundedNumbers, insightTexts } from './grounding';
import { FIXTURE_ACCOUNTS, FIXTURE_NOW, FIXTURE_TRADES } from '../../../test/hand-checked-trades';
import { insightFacts } from './insight-facts';
import { buildInsights, builtinStructuredInsights } from './insights';
import { insightsSchema, toInsightCards } from './insights-schema';
import { generateSyntheticTrades, syntheticAccounts, SYNTHETIC_NOW } from '../../../test/synthetic-trades';
import type { EngineTrade } from './types';

const metrics = computeMetrics(FIXTURE_TRADES, FIXTURE_ACCOUNTS, { now: FIXTURE_NOW, timeZone: 'UTC' });

describe('built-in insights', () => {
  const insights = buildInsights(metrics);

  it('says it was written by the rules', () => {
    expect(insights.source).toBe('builtin');
  });

  it('names the numbers behind each quick win', () => {
    expect(insights.quickWins).toEqual([
      // open trades 114 and 115 have no stop-loss
      'Set a stop-loss now: 2 of 4 open trades have none.',
      // 9 of 16 with an initial stop (116's trailing stop is none): 56.3 % is below the 90 % target
      'Place a stop-loss with every entry: only 9 of 16 trades (56.3%) had an initial stop.',
      'Cut losing trades sooner: losers are held 2.00× as long as winners (median 6h 0m vs 3h 0m).',
      // worst instrument with ≥ 3 closed trades: USD_JPY -60 (XAU_USD -25 is less bad)
      'Review how you trade USD_JPY: -60.00 USD over 3 closed trades at a 0.0% win rate.',
      // the fifth of five; the worst hour (13:00, -60) is cut by the limit
      'Trade lighter on Monday: -90.00 USD over 3 trades.',
    ]);
  });

  it('explains the edge, the payoff and the drawdown with the card numbers', () => {
    expect(insights.aiInsights).toMatchObject({
      'Overall Edge':
        'Net P/L is 55.00 USD over 12 closed trades: 50.0% win rate, profit factor 1.28, expectancy 4.58 USD per trade.',
      // 100 / (1 + 0.85) = 54.1 % needed, 50.0 % achieved
      'Win Size vs Loss Size':
        'Average win 42.50 USD against average loss -50.00 USD (payoff ratio 0.85): breaking even needs a 54.1% win rate, and at 50.0% your win rate falls short of it.',
      Drawdown:
        'The deepest drawdown of closed trades was 100.00 USD (1.0% of peak equity); the longest losing streak ran 2 trades.',
      Instruments: 'EUR_USD made 140.00 USD over 6 closed trades; USD_JPY made -60.00 USD over 3.',
    });
  });

  it('sets a long-term direction from sample size, focus, payoff and style', () => {
    expect(insights.longTermStrategy).toMatchObject({
      'Sample Size':
        'Only 12 closed trades so far, too few to judge a strategy: review these numbers again after at least 30.',
      'Risk and Reward':
        'Aim for wins at least as large as losses: at a payoff ratio of 0.85 you must win 54.1% of trades just to break even.',
    });
    expect(insights.longTermStrategy?.Focus).toContain('EUR_USD (140.00 USD, 66.7% win rate)');
  });

  it('quotes only numbers that are in the facts', () => {
    const texts = insightTexts(builtinStructuredInsights(metrics));
    expect(texts.length).toBeGreaterThan(10);
    expect(findUngroundedNumbers(texts, insightFacts(metrics))).toEqual([]);
  });

  it('stays grounded on a large synthetic history too', () => {
    const trades = generateSyntheticTrades(3000, 7);
    const big = computeMetrics(trades, syntheticAccounts(trades), { now: SYNTHETIC_NOW, timeZone: 'Europe/London' });
    const structured = builtinStructuredInsights(big);
    expect(insightsSchema.safeParse(structured).success).toBe(true);
    expect(findUngroundedNumbers(insightTexts(structured), insightFacts(big))).toEqual([]);
  });

  it('reports revenge trading and over-trading when they fire', () => {
    const at = (iso: string, minutes: number, pl: number, units: number): EngineTrade => ({
      ...FIXTURE_TRADES[0]!,
      tradeId: String(Date.parse(iso) / 60_000),
      units,
      openTime: Date.parse(iso),
      closeTime: Date.parse(iso) + minutes * 60_000,
      realizedPL: pl,
      financing: 0,
    });
    const trades = [
      at('2025-06-02T08:00:00Z', 60, -20, 10_000),
      at('2025-06-02T09:10:00Z', 20, -30, 20_000),
      at('2025-06-02T11:00:00Z', 60, -20, 10_000),
      at('2025-06-02T12:10:00Z', 30, 15, 15_000),
    ];
    const result = buildInsights(computeMetrics(trades, [], { now: FIXTURE_NOW, timeZone: 'UTC' }));
    // losses: 08:00 (-20, followed at 09:10 by 20k), 09:10 (-30, not followed), 11:00 (-20, followed at 12:10 by 15k)
    // → 2 of 3; the follow-ups netted -30 + 15 = -15
    expect(result.quickWins).toContain(
      'Wait 30 minutes after a loss before the next trade: 2 of 3 losses were followed by a bigger trade; those trades netted -15.00.',
    );
    expect(result.aiInsights?.Behaviour).toBe(
      'Patterns found: 2 of 3 losses were followed by a bigger trade within 30 minutes.',
    );
  });

  it('writes grounded advice when no trade has closed yet', () => {
    const open = computeMetrics(
      FIXTURE_TRADES.filter((t) => t.state !== 'CLOSED'),
      FIXTURE_ACCOUNTS,
      { now: FIXTURE_NOW, timeZone: 'UTC' },
    );
    const result = buildInsights(open);
    expect(result.quickWins[0]).toBe('Set a stop-loss now: 2 of 4 open trades have none.');
    expect(result.longTermStrategy).toEqual({
      'Sample Size':
        'None of your 4 trades has closed yet: results, win rate and drawdown start with the first closed trade.',
    });
    expect(findUngroundedNumbers(insightTexts(builtinStructuredInsights(open)), insightFacts(open))).toEqual([]);
  });

  it('is empty without trades', () => {
    const empty = buildInsights(computeMetrics([], [], { now: FIXTURE_NOW, timeZone: 'UTC' }));
    expect(empty).toEqual({ aiInsights: null, quickWins: [], longTermStrategy: null, source: 'builtin' });
  });
});

describe('insight facts for an LLM', () => {
  it('carries the card numbers without the chart series', () => {
    const facts = insightFacts(metrics);
    expect(facts.counts).toEqual({
      trades: 16,
      accounts: 2,
      openTrades: 4,
      closedTrades: 12,
      tradesOpenedLast7Days: 7,
    });
    expect(facts.performance).toMatchObject({ netPL: 55, profitFactor: 1.28, maxDrawdown: 100, sharpeRatio: 2.05 });
    expect(facts.risk).toMatchObject({ openWithoutStopLoss: 2, openTrades: 4, marginUtilisation: 5 });
    expect(JSON.stringify(facts)).not.toContain('equityCurve');
    expect(JSON.stringify(facts).length).toBeLessThan(8000);
  });

  it('keeps the most traded, best and worst instruments of a long list', () => {
    const trades = generateSyntheticTrades(2000, 3);
    const many = computeMetrics(trades, [], { now: SYNTHETIC_NOW, timeZone: 'UTC' });
    const facts = insightFacts(many);
    const byPl = [...many.facts.instruments].sort((a, b) => b.netPL - a.netPL);
    expect(many.facts.instruments.length).toBe(6);
    expect(facts.instruments.map((i) => i.instrument)).toEqual(
      expect.arrayContaining([byPl[0]!.instrument, byPl[byPl.length - 1]!.instrument]),
    );
  });
});

describe('insights schema and grounding', () => {
  it('accepts the built-in structure and rejects malformed output', () => {
    expect(insightsSchema.parse(builtinStructuredInsights(metrics))).toBeTruthy();
    expect(
      insightsSchema.safeParse({ aiInsights: [], quickWins: ['x'], longTermStrategy: [{ title: 't', detail: 'd' }] })
        .success,
    ).toBe(false);
    expect(
      insightsSchema.safeParse({ aiInsights: [{ title: 't' }], quickWins: ['x'], longTermStrategy: [] }).success,
    ).toBe(false);
  });

  it('converts to a strict JSON schema an LLM provider accepts', () => {
    const json = z.toJSONSchema(insightsSchema) as unknown as {
      additionalProperties: boolean;
      required: string[];
      properties: { aiInsights: { items: { additionalProperties: boolean; required: string[] } } };
    };
    expect(json.additionalProperties).toBe(false);
    expect(json.required).toEqual(['aiInsights', 'quickWins', 'longTermStrategy']);
    expect(json.properties.aiInsights.items).toMatchObject({
      additionalProperties: false,
      required: ['title', 'detail'],
    });
  });

  it('turns an LLM answer into the cards, keeping repeated titles apart', () => {
    const cards = toInsightCards(
      {
        aiInsights: [
          { title: 'Risk', detail: '2 of 4 open trades have no stop-loss.' },
          { title: 'Risk', detail: 'Margin use is 5.0%.' },
        ],
        quickWins: ['  Set a stop-loss.  ', ''],
        longTermStrategy: [{ title: 'Focus', detail: 'EUR_USD made 140.00 USD.' }],
      },
      'openai',
    );
    expect(cards).toEqual({
      aiInsights: { Risk: '2 of 4 open trades have no stop-loss.', 'Risk (2)': 'Margin use is 5.0%.' },
      quickWins: ['Set a stop-loss.'],
      longTermStrategy: { Focus: 'EUR_USD made 140.00 USD.' },
      source: 'openai',
    });
  });

  it('catches numbers that are not in the facts', () => {
    const facts = insightFacts(metrics);
    const texts = [
      'Net P/L is 55.00 USD, about 55 USD, with a 50% win rate.', // grounded, at the precision written
      'Your profit factor of 1.3 is fine.', // 1.28 rounded to one decimal: grounded
      'You would have made 1,234.56 USD with tighter stops.', // invented
      'Trade less than 777 times a day.', // invented
      '13:00–14:00 is your worst hour.', // from the hour label
    ];
    expect(findUngroundedNumbers(texts, facts)).toEqual(['1,234.56', '777']);
  });
});
