import type { Rule, RuleKind } from '@pipsense/contract';
import { formatMoney } from '../../../components/data/format';
import { RULE_LABELS } from './rule-lines';

/*
 * A rule in plain words (docs/rules.md, Rules): its display name (RULE_LABELS), its limit and the params that change
 * what it means, and what a break does. The editor's selects read the same option labels.
 */

type ParamsOf<K extends RuleKind> = Extract<Rule, { kind: K }>['params'];

/** What a break does; objectives never break (their effect is not read). */
export const EFFECT_LABELS: Record<Rule['effect'], string> = {
  fail: 'fails the phase',
  pause_until_reset: 'pauses trading until the reset',
};

/** The objectives: met or not yet, never broken. */
export const OBJECTIVE_KINDS: readonly RuleKind[] = [
  'profit_target',
  'min_trading_days',
  'consistency',
  'profitable_days',
];

/** Each enum param's values as the trader reads them (as select options and in the rule's sentence). */
export const OPTION_LABELS = {
  allowanceBase: { initial: 'the initial balance', anchor: 'the day’s anchor' },
  anchor: {
    start_balance: 'the day’s start balance',
    start_equity: 'the day’s start equity',
    max_start_balance_equity: 'the higher of the day’s start balance and equity',
    intraday_peak_equity: 'the day’s highest equity so far',
  },
  measure: { equity: 'equity', balance: 'balance (closed P/L)' },
  check: { continuous: 'at every moment', end_of_day: 'at the day’s end only' },
  comparator: { lt: 'dropping below the floor', lte: 'reaching the floor' },
  bookingAtReset: { in_anchor: 'in the new day’s anchor', after_anchor: 'counted against the new day' },
  mode: {
    static: 'a static floor',
    trail_eod_balance: 'trailing the highest end-of-day balance',
    trail_intraday_balance: 'trailing the highest balance',
    trail_intraday_equity: 'trailing the highest equity',
  },
  lock: { none: 'never locks', at_initial: 'locks at the initial balance' },
  payoutPolicy: {
    keep_floor: 'a payout keeps the floor',
    floor_from_balance: 'after a payout the floor is taken from the balance',
    reduce_hwm: 'a payout lowers the high-water mark',
    reset_on_new_account: 'a payout sets the floor back to the initial balance',
  },
  rule: {
    opened: 'a position is opened',
    opened_or_closed: 'a position is opened or closed',
    nonzero_pnl: 'a non-zero P/L is booked',
    open_and_close_same_day: 'a position is closed (counted on its close day)',
  },
  denominator: {
    positive_days_sum: 'the profitable days’ profit',
    net_total: 'the net profit',
    max_target_net_total: 'the higher of the target and the net profit',
  },
  pnlBasis: { closed_on_day: 'by the day a trade closes', closed_by_open_day: 'by the day a trade opens' },
  basis: { initial: 'the initial balance', balance: 'the balance at the open' },
} as const;

type Option<P extends keyof typeof OPTION_LABELS> = keyof (typeof OPTION_LABELS)[P];
const say = <P extends keyof typeof OPTION_LABELS>(param: P, value: Option<P>): string =>
  (OPTION_LABELS[param] as Record<string, string>)[value as string] ?? String(value);

/** The day boundary of a set: the first rule naming it (docs/rules.md: 00:00 UTC when none does). */
export function setBoundary(rules: readonly Rule[]): { resetTime: string; zone: string } {
  const named = rules.map((rule) => rule.params as { resetTime?: string; zone?: string });
  return {
    resetTime: named.find((p) => p.resetTime !== undefined)?.resetTime ?? '00:00',
    zone: named.find((p) => p.zone !== undefined)?.zone ?? 'UTC',
  };
}

/** '5 %' or an amount ('5,000.00 USD'; without a currency '5,000.00'). */
function size(params: { pct?: number; amount?: string }, currency: string): string {
  if (params.pct !== undefined) return `${params.pct} %`;
  if (params.amount !== undefined) return formatMoney(params.amount, currency).trim();
  return 'no limit set';
}
const ofInitial = (params: { pct?: number }, of = 'the initial balance') =>
  params.pct !== undefined ? ` of ${of}` : '';

const sentences: { [K in RuleKind]: (params: ParamsOf<K>, currency: string) => string[] } = {
  daily_loss: (p, currency) => [
    `${size(p, currency)}${ofInitial(p, say('allowanceBase', p.allowanceBase))}`,
    `from ${say('anchor', p.anchor)}`,
    `on ${say('measure', p.measure)}`,
    ...(p.check === 'end_of_day' ? ['checked at the day’s end only'] : []),
    ...(p.comparator === 'lte' ? ['broken on reaching the floor'] : []),
    ...(p.bookingAtReset === 'after_anchor'
      ? [`a booking at the reset ${say('bookingAtReset', p.bookingAtReset)}`]
      : []),
  ],
  max_loss: (p, currency) => [
    `${size(p, currency)}${ofInitial(p)}`,
    say('mode', p.mode),
    ...(p.lock === 'at_initial'
      ? [/[1-9]/.test(p.lockOffset) ? `locks at the initial balance + ${p.lockOffset}` : 'locks at the initial balance']
      : []),
    `on ${say('measure', p.measure)}`,
    ...(p.comparator === 'lte' ? ['broken on reaching the floor'] : []),
    ...(p.payoutPolicy !== 'keep_floor' ? [say('payoutPolicy', p.payoutPolicy)] : []),
  ],
  profit_target: (p, currency) => [`${size(p, currency)}${ofInitial(p)} in closed profit, every position closed`],
  min_trading_days: (p) => [`at least ${p.min}, a day counting when ${say('rule', p.rule)}`],
  consistency: (p) => [`the best day at most ${p.maxPct} % of ${say('denominator', p.denominator)}`],
  profitable_days: (p) => [
    p.threshold > 0
      ? `at least ${p.min} with a profit of ${p.threshold} % of the initial balance or more`
      : `at least ${p.min} with a profit`,
    say('pnlBasis', p.pnlBasis),
  ],
  max_risk_per_trade: (p, currency) => [
    `the loss from the entry to the stop at most ${size(p, currency)}${ofInitial(p, say('basis', p.basis))}`,
  ],
  max_trades_per_day: (p) => [`at most ${p.max} opened`],
  max_consecutive_losses: (p) => [`at most ${p.max}`],
  no_weekend_holding: () => ['no position open over the Friday 17:00 New York close'],
};

/**
 * One rule as a sentence: 'Daily loss: 5 % of the initial balance, from the day’s start balance, on equity, resets
 * 00:00 Europe/Prague — fails the phase'. The daily loss names the set's reset (`boundary`).
 */
export function describeRule(
  rule: Rule,
  { currency = '', boundary }: { currency?: string; boundary?: { resetTime: string; zone: string } } = {},
): string {
  const describe = sentences[rule.kind] as (params: Rule['params'], currency: string) => string[];
  const parts = describe(rule.params, currency);
  if (rule.kind === 'daily_loss') {
    const reset = boundary ?? setBoundary([rule]);
    parts.push(`resets ${reset.resetTime} ${reset.zone}`);
  }
  const outcome = OBJECTIVE_KINDS.includes(rule.kind) ? 'an objective' : EFFECT_LABELS[rule.effect];
  return `${RULE_LABELS[rule.kind]}: ${parts.join(', ')} — ${outcome}`;
}
