import { describe, expect, it } from 'vitest';
import type { TradeTag } from '@pipsense/contract';
import { tagBreakdown } from './by-tag';
import { computeMetrics } from './compute-metrics';
import { findUngroundedNumbers, insightTexts } from './grounding';
import { FIXTURE_ACCOUNTS, FIXTURE_NOW, FIXTURE_TRADES } from '../../../test/hand-checked-trades';
import { insightFacts } from './insight-facts';
import { buildInsights, builtinStructuredInsights } from './insights';

const TAGS: TradeTag[] = [
  { id: 'calm', name: 'Calm', kind: 'emotion' },
  { id: 'breakout', name: 'Breakout', kind: 'setup' },
  { id: 'fomo', name: 'FOMO', kind: 'mistake' },
];
/** Breakout on wins 101 107 112 and open 113; FOMO on losses 102 105 106 111; Calm on nothing; 'gone' is no tag. */
const ON: Record<string, string[]> = {
  '101': ['breakout'],
  '107': ['breakout', 'breakout'],
  '112': ['breakout', 'gone'],
  '113': ['breakout'],
  '102': ['fomo'],
  '105': ['fomo'],
  '106': ['fomo'],
  '111': ['fomo'],
};
const tagsOf = (i: number) => ON[FIXTURE_TRADES[i]!.tradeId];

describe('tagBreakdown (hand-checked on the fixture)', () => {
  const rows = tagBreakdown(FIXTURE_TRADES, tagsOf, TAGS);

  it('tallies each tag over its closed trades, most trades first', () => {
    expect(rows).toEqual([
      {
        tagId: 'fomo',
        name: 'FOMO',
        kind: 'mistake',
        // 102 −40, 105 −40, 106 −20, 111 −100
        trades: 4,
        winRate: 0,
        netPL: -200,
        expectancy: -50,
        // only 102 (−0.3 / 0.5 = −0.60R) and 105 (−0.002 / 0.002 = −1.00R) had an initial stop: −1.6 / 2
        averageR: -0.8,
        withInitialStop: 2,
      },
      {
        tagId: 'breakout',
        name: 'Breakout',
        kind: 'setup',
        // 101 +50, 107 +30, 112 +60 (open 113 is left out; a tag given twice counts once)
        trades: 3,
        winRate: 100,
        netPL: 140,
        // 140 / 3 = 46.666… → 46.67
        expectancy: 46.67,
        // (1.00 + 1.00 + 1.20) / 3 = 1.0666… → 1.07
        averageR: 1.07,
        withInitialStop: 3,
      },
      {
        tagId: 'calm',
        name: 'Calm',
        kind: 'emotion',
        trades: 0,
        winRate: null,
        netPL: 0,
        expectancy: null,
        averageR: null,
        withInitialStop: 0,
      },
    ]);
  });

  it('is empty without tags', () => {
    expect(tagBreakdown(FIXTURE_TRADES, tagsOf, [])).toEqual([]);
  });
});

describe('insights citing tags', () => {
  const byTag = tagBreakdown(FIXTURE_TRADES, tagsOf, TAGS);
  const metrics = computeMetrics(FIXTURE_TRADES, FIXTURE_ACCOUNTS, { now: FIXTURE_NOW, timeZone: 'UTC', byTag });

  it('gives the writer the tags with closed trades', () => {
    expect(insightFacts(metrics).tags.map((tag) => tag.name)).toEqual(['FOMO', 'Breakout']);
  });

  it('names the costliest mistake in a quick win, grounded in the facts', () => {
    const insights = buildInsights(metrics);
    expect(insights.quickWins).toContain(
      'Review the "FOMO" mistake: -200.00 USD over 4 closed trades at a 0.0% win rate.',
    );
    expect(findUngroundedNumbers(insightTexts(builtinStructuredInsights(metrics)), insightFacts(metrics))).toEqual([]);
  });
});
