/**
 * The "by tag" breakdown (METRICS.md, "By tag"): per journal tag, the closed trades carrying it, with the same
 * performance tally as the overview (domain/performance.ts) and the same R tally (r-tally.ts). The overview's
 * byTag and the assistant's compare_tags are this one computation.
 */
import type { TagFacts, TradeTag } from '@pipsense/contract';
import type { EngineTrade } from './types';
import { moneyValue, toMinorUnits } from '../../../domain/money';
import { averagePL, netPL, PerformanceTally, winRate } from '../../../domain/performance';
import { averageR, RTally } from './r-tally';

interface TagTally {
  tag: TradeTag;
  performance: PerformanceTally;
  r: RTally;
}

/**
 * `tagsOf(i)`: the ids of the tags on trades[i] (undefined or empty: none). Every tag in `tags` gets a row, also
 * without closed trades (0 trades, null rates); ids not in `tags` are ignored. Most closed trades first, then
 * the lowest net P/L (what costs most), then name.
 */
export function tagBreakdown(
  trades: readonly EngineTrade[],
  tagsOf: (index: number) => readonly string[] | undefined,
  tags: readonly TradeTag[],
): TagFacts[] {
  const tallies = new Map<string, TagTally>(
    tags.map((tag) => [tag.id, { tag, performance: new PerformanceTally(), r: new RTally() }]),
  );
  if (tallies.size > 0) {
    for (let i = 0; i < trades.length; i++) {
      const trade = trades[i]!;
      if (trade.state !== 'CLOSED') continue;
      const ids = tagsOf(i);
      if (!ids || ids.length === 0) continue;
      const pl = toMinorUnits(trade.realizedPL);
      const financing = toMinorUnits(trade.financing);
      for (const id of new Set(ids)) {
        const tally = tallies.get(id);
        if (!tally) continue;
        const sign = tally.performance.add(pl, financing);
        tally.r.add(trade.rMultiple, sign);
      }
    }
  }
  return [...tallies.values()]
    .map(({ tag, performance, r }): TagFacts => {
      const mean = averagePL(performance, 2);
      return {
        tagId: tag.id,
        name: tag.name,
        kind: tag.kind,
        trades: performance.trades,
        winRate: winRate(performance),
        netPL: moneyValue(netPL(performance)),
        expectancy: mean === null ? null : moneyValue(mean),
        averageR: averageR(r),
        withInitialStop: r.trades,
      };
    })
    .sort((a, b) => b.trades - a.trades || a.netPL - b.netPL || a.name.localeCompare(b.name));
}
