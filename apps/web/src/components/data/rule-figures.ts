import { isDecimal, RULE_STATE_LABELS, type RuleKind, type RuleLine, type RuleStatus } from '@pipsense/contract';
import { formatDecimal } from './format';

/*
 * How a rule set's status reads on screen (docs/PRODUCT.md, My Rules and Overview): My Rules and the Overview's Rules
 * card say it alike.
 */

/** The state badge: its text and CoreUI colour (docs/PRODUCT.md, My Rules). */
export const STATE_BADGE: Record<RuleStatus['state'], { text: string; color: string }> = {
  on_track: { text: RULE_STATE_LABELS.on_track, color: 'success' },
  passed: { text: RULE_STATE_LABELS.passed, color: 'primary' },
  breached: { text: RULE_STATE_LABELS.breached, color: 'danger' },
  paused: { text: RULE_STATE_LABELS.paused, color: 'warning' },
  unknown: { text: RULE_STATE_LABELS.unknown, color: 'secondary' },
};

/** A percent held as a decimal string, unsigned with 2 decimals: '42.50 %'; '-' when absent. */
export function formatPercent(value: string | null | undefined): string {
  const text = formatDecimal(value, 2);
  return isDecimal(value) ? `${text} %` : text;
}

/** The first line of a kind (a set has at most one rule of each kind as the presets build it). */
export const lineOf = <K extends RuleKind>(lines: readonly RuleLine[], kind: K) =>
  lines.find((line) => line.kind === kind);
