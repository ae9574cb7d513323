import type { TradeRuleBreak } from '@pipsense/contract';

/**
 * The trades that broke a trade-level rule of the user's rule sets (docs/rules.md, Where breaks are shown), as the
 * rules module answers them: keyed by trade (`<account key> <trade id>`, trade-list.repository.ts tradeKey), each
 * trade's breaks oldest first.
 *
 * `version` names this answer: it moves whenever the answer may have (a write of trades or accounts, a rule set
 * created, edited or deleted, a rule set's start passed, a new trading day: rules.service.ts `breakIndex`). Every
 * cache of something the breaks change (the trade list's pages, trade-list-cache.ts) puts it in its key, so that a
 * rule set change or a sync never serves a stale set of breaks.
 */
export interface RuleBreakIndex {
  version: string;
  /** Whether any of the user's rule sets has a trade-level rule (else nothing can break one: the Overview shows none). */
  hasTradeRules: boolean;
  byTrade: ReadonlyMap<string, readonly TradeRuleBreak[]>;
}

/** The port to the rules module, wired in app.ts (the trade views never import it: it reads trades through them). */
export type RuleBreakSource = (userId: string) => Promise<RuleBreakIndex>;

/** Without rule sets (a source left unwired): nothing broke. */
export const NO_RULE_BREAKS: RuleBreakIndex = { version: '', hasTradeRules: false, byTrade: new Map() };
