import { describe, expect, it } from 'vitest';
import type { TagFacts } from '@pipsense/contract';
import { rText, tagGroups } from './by-tag';

const facts = (tagId: string, kind: TagFacts['kind'], netPL: number, trades = 4): TagFacts => ({
  tagId,
  name: tagId,
  kind,
  trades,
  winRate: 50,
  netPL,
  expectancy: netPL / trades,
  averageR: null,
  withInitialStop: 0,
});

describe('tagGroups', () => {
  it('puts paying setups first and costly mistakes first, leaving out tags without trades', () => {
    const groups = tagGroups([
      facts('fomo', 'mistake', -40),
      facts('breakout', 'setup', 120),
      facts('late-entry', 'mistake', -300),
      facts('reversal', 'setup', -15),
      facts('range', 'setup', 300),
      facts('unused', 'setup', 0, 0),
    ]);
    expect(groups.map((g) => [g.title, g.rows.map((r) => r.tagId)])).toEqual([
      ['Setups', ['range', 'breakout', 'reversal']],
      ['Mistakes', ['late-entry', 'fomo']],
    ]);
  });

  it('writes R with its sign', () => {
    expect(rText(1.349)).toBe('+1.35 R');
    expect(rText(-0.8)).toBe('-0.80 R');
    expect(rText(null)).toBe('-');
  });
});
