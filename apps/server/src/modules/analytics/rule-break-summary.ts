import type { CurrencyAmount } from '@pipsense/contract';
import { formatMinorUnits, toMinorUnits } from '../../domain/money';
import type { EngineTrade } from './engine';

/** The Overview's "Rule breaks" line (contract dashboardMetrics.ruleBreaks). */
export interface RuleBreakSummary {
  trades: number;
  netPL: CurrencyAmount[];
}

/**
 * How many of these trades (those in view that broke a trade-level rule of the user's rule sets: docs/rules.md,
 * Where breaks are shown) there are, and their realized P/L summed exactly in minor units per account currency
 * (docs/money.md), one amount per currency ordered by code, never added across currencies
 * (docs/decisions/024-currencies-never-mixed.md).
 */
export function ruleBreakSummary(
  trades: readonly EngineTrade[],
  currencyOf: ReadonlyMap<string, string>,
): RuleBreakSummary {
  const sums = new Map<string, number>();
  for (const t of trades) {
    const currency = currencyOf.get(t.accountId) ?? '';
    sums.set(currency, (sums.get(currency) ?? 0) + toMinorUnits(t.realizedPL));
  }
  const netPL = [...sums]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency, minor]) => ({ currency, amount: formatMinorUnits(minor) }));
  return { trades: trades.length, netPL };
}
