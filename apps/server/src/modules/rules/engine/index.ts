/**
 * The rule engine of prop-firm challenges and personal risk rules (docs/rules.md): a pure function of a rule set,
 * the account's trades, cash flows and equity, and a time. No database, no routes.
 */
export { boundaryOf, evaluateRules, type CarriedEvaluation, type RuleCarriedState } from './evaluate';
export { foldStatus } from './status';
export { DayBoundary } from './day-boundary';
export { checkBestDay, withDay, NO_DAYS } from './consistency';
export { RULE_PRESETS, presetOf, ruleSetFromPreset } from './presets';
export type * from './types';
