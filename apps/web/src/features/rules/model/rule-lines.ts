import type { RuleKind } from '@pipsense/contract';

/** Each rule kind as the trader reads it (docs/rules.md, Rules): one list, in the contract. */
export { RULE_LABELS } from '@pipsense/contract';

/** The state badge, percents and a kind's line: shared with the Overview's Rules card. */
export { formatPercent, lineOf, STATE_BADGE } from '../../../components/data/rule-figures';

/** An amount as a percent of the initial balance (exact, 2 decimals): one rule, in the contract. */
export { percentOfInitial } from '@pipsense/contract';

/** The trade-level and personal limits: the lines the card lists under the headline figures. */
export const OTHER_KINDS: readonly RuleKind[] = [
  'profitable_days',
  'max_risk_per_trade',
  'max_trades_per_day',
  'max_consecutive_losses',
  'no_weekend_holding',
];

/** Whether a line held: 'held', 'broken' (or an objective not met yet) or 'undecided' (equity unknown). */
export const lineState = (ok: boolean | null) => (ok === null ? 'undecided' : ok ? 'held' : 'broken');
