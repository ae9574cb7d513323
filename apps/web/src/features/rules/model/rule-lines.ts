import {
  divideDecimals,
  isDecimal,
  multiplyDecimals,
  type RuleKind,
  type RuleLine,
  type RuleStatus,
} from '@pipsense/contract';
import { formatDecimal } from '../../../components/data/format';

/** The state badge: its text and CoreUI colour (docs/PRODUCT.md, My Rules). */
export const STATE_BADGE: Record<RuleStatus['state'], { text: string; color: string }> = {
  on_track: { text: 'On track', color: 'success' },
  passed: { text: 'Passed', color: 'primary' },
  breached: { text: 'Breached', color: 'danger' },
  paused: { text: 'Paused until the reset', color: 'warning' },
  unknown: { text: 'Not enough data', color: 'secondary' },
};

/** A percent held as a decimal string, unsigned with 2 decimals: '42.50 %'; '-' when absent. */
export function formatPercent(value: string | null | undefined): string {
  const text = formatDecimal(value, 2);
  return isDecimal(value) ? `${text} %` : text;
}

/** An amount as a percent of the initial balance (exact, 2 decimals): '3.25'; null when either is missing. */
export function percentOfInitial(amount: string | null, initialBalance: string): string | null {
  if (!isDecimal(amount) || !isDecimal(initialBalance) || !/[1-9]/.test(initialBalance)) return null;
  return divideDecimals(multiplyDecimals(amount, '100'), initialBalance, 2);
}

/** The first line of a kind (a set has at most one rule of each kind as the presets build it). */
export const lineOf = <K extends RuleKind>(lines: readonly RuleLine[], kind: K) =>
  lines.find((line) => line.kind === kind);

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
