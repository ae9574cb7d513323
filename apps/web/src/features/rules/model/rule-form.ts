import { RULE_KINDS, ruleSchema, type Rule, type RuleInput, type RuleKind } from '@pipsense/contract';
import { RULE_LABELS } from './rule-lines';
import { setBoundary, type OPTION_LABELS } from './rule-words';

/*
 * The rule editor's form (docs/PRODUCT.md, My Rules; docs/rules.md, Rules): each rule's params as input texts, the
 * set's one day boundary apart, and back to the rules the server checks. What the trader typed is sent as typed
 * where it is not a number, so that the server's message names the field at fault.
 */

type OptionParam = keyof typeof OPTION_LABELS;

/** A param as an input: a percent or count (a number input), an amount (a text), or one of the options. */
export type ParamField =
  | { name: string; label: string; type: 'percent' | 'count' | 'amount'; hint?: string }
  | { name: OptionParam; label: string; type: 'option' };

/** The kinds sized as a percent of the initial balance (or of `basis`) or as an amount. */
const SIZED_KINDS: readonly RuleKind[] = ['daily_loss', 'max_loss', 'profit_target', 'max_risk_per_trade'];
export const isSized = (kind: RuleKind) => SIZED_KINDS.includes(kind);

/** The kinds that take the set's day boundary (`resetTime`, `zone`). */
const BOUNDARY_KINDS: readonly RuleKind[] = [
  'daily_loss',
  'max_loss',
  'min_trading_days',
  'consistency',
  'profitable_days',
  'max_trades_per_day',
  'max_consecutive_losses',
];

const option = (name: OptionParam, label: string): ParamField => ({ name, label, type: 'option' });

/** Each kind's params besides its size and the day boundary, in the order of docs/rules.md. */
export const KIND_FIELDS: Record<RuleKind, readonly ParamField[]> = {
  daily_loss: [
    option('allowanceBase', 'Percent of'),
    option('anchor', 'Floor from'),
    option('measure', 'Measured on'),
    option('check', 'Checked'),
    option('comparator', 'Broken on'),
    option('bookingAtReset', 'A booking at the reset'),
  ],
  max_loss: [
    option('mode', 'Floor'),
    option('lock', 'Lock'),
    { name: 'lockOffset', label: 'Lock above the initial balance', type: 'amount', hint: 'An amount, e.g. 100' },
    option('measure', 'Measured on'),
    option('comparator', 'Broken on'),
    option('payoutPolicy', 'After a payout'),
  ],
  profit_target: [],
  min_trading_days: [{ name: 'min', label: 'At least (days)', type: 'count' }, option('rule', 'A day counts when')],
  consistency: [{ name: 'maxPct', label: 'Best day at most (%)', type: 'percent' }, option('denominator', 'Of')],
  profitable_days: [
    { name: 'min', label: 'At least (days)', type: 'count' },
    { name: 'threshold', label: 'Least profit (% of the initial balance)', type: 'percent' },
    option('pnlBasis', 'Counted'),
  ],
  max_risk_per_trade: [option('basis', 'Percent of')],
  max_trades_per_day: [{ name: 'max', label: 'At most (trades a day)', type: 'count' }],
  max_consecutive_losses: [{ name: 'max', label: 'At most (losses in a row)', type: 'count' }],
  no_weekend_holding: [],
};

/** A new rule's params and effect: the docs/rules.md defaults, with a limit to start from. */
const NEW_RULES: Record<RuleKind, { effect: Rule['effect']; params: Record<string, string | number> }> = {
  daily_loss: {
    effect: 'fail',
    params: {
      pct: 5,
      allowanceBase: 'initial',
      anchor: 'start_balance',
      measure: 'equity',
      check: 'continuous',
      comparator: 'lt',
      bookingAtReset: 'in_anchor',
    },
  },
  max_loss: {
    effect: 'fail',
    params: {
      pct: 10,
      mode: 'static',
      lock: 'none',
      lockOffset: '0',
      measure: 'equity',
      comparator: 'lt',
      payoutPolicy: 'keep_floor',
    },
  },
  profit_target: { effect: 'fail', params: { pct: 10 } },
  min_trading_days: { effect: 'fail', params: { min: 4, rule: 'opened' } },
  consistency: { effect: 'fail', params: { maxPct: 50, denominator: 'positive_days_sum' } },
  profitable_days: { effect: 'fail', params: { min: 3, threshold: 0, pnlBasis: 'closed_on_day' } },
  max_risk_per_trade: { effect: 'pause_until_reset', params: { pct: 1, basis: 'balance' } },
  max_trades_per_day: { effect: 'pause_until_reset', params: { max: 3 } },
  max_consecutive_losses: { effect: 'pause_until_reset', params: { max: 3 } },
  no_weekend_holding: { effect: 'fail', params: {} },
};

/** One rule as the form holds it: every param as its input's text. */
export interface RuleDraft {
  kind: RuleKind;
  effect: Rule['effect'];
  /** A sized rule's choice: a percent or an amount, and its text. */
  size: 'pct' | 'amount';
  sizeValue: string;
  values: Record<string, string>;
  /** Whether the rule names the set's day boundary (kept as stored; a new rule that takes one names it). */
  boundary: boolean;
}

/** The rules of a set as the form holds them, with the set's one day boundary. */
export interface RulesDraft {
  rules: RuleDraft[];
  resetTime: string;
  zone: string;
}

function draftOf(kind: RuleKind, effect: Rule['effect'], params: Record<string, unknown>, boundary: boolean) {
  const text = (value: unknown) => (typeof value === 'number' || typeof value === 'string' ? String(value) : '');
  const values: Record<string, string> = {};
  for (const field of KIND_FIELDS[kind]) values[field.name] = text(params[field.name]);
  const size = params.amount !== undefined && params.pct === undefined ? 'amount' : 'pct';
  return { kind, effect, size, sizeValue: text(params[size]), values, boundary } satisfies RuleDraft;
}

/** A custom set's start: no rule, the day from midnight in the browser's own zone. */
export const emptyDraft = (): RulesDraft => ({
  rules: [],
  resetTime: '00:00',
  zone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
});

/** The stored rules as the form's texts. */
export function draftFromRules(rules: readonly Rule[]): RulesDraft {
  return {
    ...setBoundary(rules),
    rules: rules.map((rule) => {
      const params = rule.params as Record<string, unknown>;
      return draftOf(rule.kind, rule.effect, params, params.resetTime !== undefined || params.zone !== undefined);
    }),
  };
}

/** A new rule of a kind, with the defaults of docs/rules.md. */
export function newRuleDraft(kind: RuleKind): RuleDraft {
  const { effect, params } = NEW_RULES[kind];
  return draftOf(kind, effect, params, BOUNDARY_KINDS.includes(kind));
}

/** The kinds a set does not hold yet (one rule per kind), in the contract's order. */
export const kindsToAdd = (draft: RulesDraft): RuleKind[] =>
  RULE_KINDS.filter((kind) => !draft.rules.some((rule) => rule.kind === kind));

const NUMBER = /^-?\d+(\.\d+)?$/;

/** A percent or count: a number when it reads as one, else the text (the server names it); empty: left out. */
const numberOf = (text: string): number | string | undefined => {
  const value = text.trim();
  if (value === '') return undefined;
  return NUMBER.test(value) ? Number(value) : value;
};
const amountOf = (text: string): string | undefined => text.trim() || undefined;

/** The form back as the rules `edit_rule_set` and `create_rule_set` take (the whole list). */
export function rulesFromDraft(draft: RulesDraft): RuleInput[] {
  return draft.rules.map((rule) => {
    const params: Record<string, unknown> = {};
    if (isSized(rule.kind))
      params[rule.size] = rule.size === 'pct' ? numberOf(rule.sizeValue) : amountOf(rule.sizeValue);
    for (const field of KIND_FIELDS[rule.kind]) {
      const text = rule.values[field.name] ?? '';
      params[field.name] =
        field.type === 'percent' || field.type === 'count'
          ? numberOf(text)
          : field.type === 'amount'
            ? amountOf(text)
            : text || undefined;
    }
    if (rule.boundary) Object.assign(params, { resetTime: draft.resetTime.trim(), zone: draft.zone.trim() });
    for (const key of Object.keys(params)) if (params[key] === undefined) delete params[key];
    return { kind: rule.kind, effect: rule.effect, params } as RuleInput;
  });
}

/**
 * The server's refusal of a list with the rule at fault named: the server's message names the field ('max must be a
 * whole number of 0 or more'), the contract's own check of each rule finds which rule it is.
 */
export function refusalOf(rules: readonly RuleInput[], message: string): { kind: RuleKind | null; message: string } {
  const kind = rules.find((rule) => !ruleSchema.safeParse(rule).success)?.kind ?? null;
  return { kind, message: kind ? `${RULE_LABELS[kind]}: ${message}` : message };
}

/** The IANA zones the browser knows, for the zone's suggestions (a few common ones where it lists none). */
export function timeZones(): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: 'timeZone') => string[] }).supportedValuesOf;
  const zones = supported ? supported('timeZone') : [];
  return zones.length > 0
    ? ['UTC', ...zones.filter((zone) => zone !== 'UTC')]
    : ['UTC', 'Europe/London', 'Europe/Prague', 'Asia/Jerusalem', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney'];
}
