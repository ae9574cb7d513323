import { percentOfInitial, RULE_LABELS, RULE_STATE_LABELS, type RuleLine, type RuleStatus } from '@pipsense/contract';
import { plural } from '../../../lib/text';
import type { RuleBreaksToolResult, RuleSetStatus, RuleStatusToolResult } from '../tools/rule-status';
import { money, pl, when } from './format';

/*
 * The built-in analyst's rules answers (docs/rules.md, The assistant): every figure is the status API's (get_status,
 * get_breaks), written by format.ts; nothing here computes a rule.
 */

/** The closed-only basis (docs/rules.md, Equity between readings), as My Rules says it. */
const CLOSED_ONLY = 'Closed P/L only: a breach by floating loss cannot be ruled out.';

/** A room the status cannot tell (`remaining` null: the equity was not known throughout). */
const UNKNOWN_ROOM = 'room not known (the equity is not known throughout)';

const setName = (s: RuleSetStatus) => `${s.name} (account ${s.account})`;
const lineOf = (status: RuleStatus, kind: RuleLine['kind']) => status.rules.find((l) => l.kind === kind);
const ofInitial = (amount: string | null, s: RuleSetStatus) => {
  const percent = percentOfInitial(amount, s.initialBalance);
  return percent === null ? '' : ` (${percent}% of the initial balance)`;
};
const held = (ok: boolean | null) => (ok === null ? 'undecided' : ok ? 'held' : 'broken');

/** The state in words, with the breach or the pass and when. */
function stateText(status: RuleStatus, timeZone: string): string {
  const label = RULE_STATE_LABELS[status.state];
  if (status.state === 'breached' && status.breach)
    return `${label}: ${RULE_LABELS[status.breach.rule]} broke at ${when(status.breach.time, timeZone)}`;
  if (status.state === 'passed' && status.passedAt) return `${label} at ${when(status.passedAt, timeZone)}`;
  if (status.state === 'paused') return `${label} at ${when(status.today.end, timeZone)}`;
  return label;
}

/** "Daily loss: 4,000.00 USD left today (4.00% of the initial balance) above the floor of …; resets …". */
function dailyLine(s: RuleSetStatus, status: RuleStatus, timeZone: string): string {
  const line = lineOf(status, 'daily_loss');
  if (!line) return 'No daily loss limit.';
  const c = status.currency;
  const remaining = status.today.remaining;
  const room = remaining === null ? UNKNOWN_ROOM : `${money(remaining, c)} left today${ofInitial(remaining, s)}`;
  return `Daily loss: ${room} above today's floor of ${money(status.today.floor, c)} (limit ${money(line.unit === 'money' ? line.limit : null, c)}); the day resets at ${when(status.today.end, timeZone)}.`;
}

function maxLossLine(s: RuleSetStatus, status: RuleStatus): string | null {
  const line = lineOf(status, 'max_loss');
  if (!line || line.unit !== 'money') return null;
  const c = status.currency;
  const room =
    line.remaining === null ? UNKNOWN_ROOM : `${money(line.remaining, c)} left${ofInitial(line.remaining, s)}`;
  return `Max loss: ${room} above the floor of ${money(line.floor, c)} (${held(line.ok)}).`;
}

function targetLine(status: RuleStatus): string | null {
  const line = lineOf(status, 'profit_target');
  if (!line || line.unit !== 'money') return null;
  const c = status.currency;
  return `Profit target: ${line.used === null ? 'unknown' : pl(line.used, c)} of ${money(line.limit, c)} (${line.percentUsed ?? 'unknown'}% of the target; ${line.ok ? 'met' : 'not met yet'}).`;
}

function daysLine(status: RuleStatus): string | null {
  if (!lineOf(status, 'min_trading_days')) return null;
  const { done, required } = status.tradingDays;
  return `Trading days: ${done} of ${required}${done >= required ? ' (done)' : ''}.`;
}

/** Every other rule, as My Rules lists it: used of limit, held or broken. */
function otherLine(line: RuleLine, currency: string): string {
  const label = RULE_LABELS[line.kind];
  if (line.unit === 'money')
    return `${label}: ${money(line.used, currency)} of ${money(line.limit, currency)} (${held(line.ok)}).`;
  if (line.unit === 'percent') return `${label}: ${line.used ?? 'unknown'}% of ${line.limit}% (${held(line.ok)}).`;
  return `${label}: ${line.used} of ${line.limit} (${held(line.ok)}).`;
}

const HEADLINE_KINDS: ReadonlyArray<RuleLine['kind']> = ['daily_loss', 'max_loss', 'profit_target', 'min_trading_days'];

const waiting = (s: RuleSetStatus, timeZone: string) =>
  `${setName(s)}: starts at ${when(s.startTime, timeZone)}; no status before.`;

/** "How much can I still lose today?": today's room of every active set, with the floor and the next reset. */
export function ruleTodayAnswer(r: RuleStatusToolResult, timeZone: string): string {
  if (r.ruleSets.length === 0) return r.note ?? 'You have no rule set yet.';
  const active = r.ruleSets.filter((s) => s.active);
  const lines: string[] = [];
  if (active.length === 0) lines.push('None of your rule sets is active (started, neither breached nor passed).');
  else
    lines.push(active.length === 1 ? 'What you can still lose today:' : 'What you can still lose today, per rule set:');
  for (const s of active) {
    const status = s.status!;
    lines.push(`${setName(s)}: ${stateText(status, timeZone)}.`);
    lines.push(`- ${dailyLine(s, status, timeZone)}`);
    const max = maxLossLine(s, status);
    if (max) lines.push(`- ${max}`);
    if (status.equityBasis === 'closed-only') lines.push(`- ${CLOSED_ONLY}`);
  }
  for (const s of r.ruleSets.filter((x) => !x.active))
    lines.push(s.status ? `Not counted: ${setName(s)}: ${stateText(s.status, timeZone)}.` : waiting(s, timeZone));
  lines.push('Data: your rule sets on My Rules, as of now.');
  return lines.join('\n');
}

const FIRM_PRESETS: Record<string, RegExp> = {
  ftmo: /^ftmo/,
  the5ers: /^the5ers/,
  fundednext: /^fundednext/,
  fundingpips: /^fundingpips/,
  topstep: /^trailing-eod/,
};

/** "Am I on track for my FTMO challenge?": each set's state, breach, and every rule's line. */
export function ruleTrackAnswer(r: RuleStatusToolResult, timeZone: string, firm?: string): string {
  if (r.ruleSets.length === 0) return r.note ?? 'You have no rule set yet.';
  const pattern = firm ? FIRM_PRESETS[firm] : undefined;
  const named = pattern
    ? r.ruleSets.filter((s) => (s.preset !== null && pattern.test(s.preset)) || s.name.toLowerCase().includes(firm!))
    : [];
  const sets = named.length > 0 ? named : r.ruleSets;
  const lines: string[] = [];
  if (firm && named.length === 0)
    lines.push(`No rule set of yours is named for ${firm.toUpperCase()}; here are all of them.`);
  for (const s of sets) {
    if (!s.status) {
      lines.push(waiting(s, timeZone));
      continue;
    }
    const status = s.status;
    lines.push(`${setName(s)}: ${stateText(status, timeZone)}.`);
    for (const text of [targetLine(status), daysLine(status)]) if (text) lines.push(`- ${text}`);
    if (lineOf(status, 'daily_loss')) lines.push(`- ${dailyLine(s, status, timeZone)}`);
    const max = maxLossLine(s, status);
    if (max) lines.push(`- ${max}`);
    for (const line of status.rules.filter((l) => !HEADLINE_KINDS.includes(l.kind)))
      lines.push(`- ${otherLine(line, status.currency)}`);
    if (status.equityBasis === 'closed-only') lines.push(`- ${CLOSED_ONLY}`);
  }
  lines.push('Data: your rule sets on My Rules, as of now.');
  return lines.join('\n');
}

/** "Which of my rules do I break most, and what did it cost?": breaks per rule kind, most first, and their P/L. */
export function ruleBreaksAnswer(r: RuleBreaksToolResult): string {
  if (r.ruleSets === 0) return r.note ?? 'You have no rule set yet.';
  if (r.byKind.length === 0)
    return `${r.note ?? 'No trade has broken a rule of your rule sets.'}\nData: your ${plural(r.ruleSets, 'rule set')} on My Rules, as of now.`;
  const top = r.byKind[0]!;
  const cost = (netPL: Array<{ currency: string; amount: string }>) =>
    netPL.length === 0 ? 'P/L unknown' : netPL.map((p) => pl(p.amount, p.currency || null)).join(' and ');
  const lines = [
    `The rule you break most is ${RULE_LABELS[top.kind]}: ${plural(top.breaks, 'break')}, by ${plural(top.trades, 'trade')} netting ${cost(top.netPL)}.`,
    'Breaks per rule, most first (net P/L of the breaking trades, P/L plus financing):',
  ];
  r.byKind.forEach((k, i) => {
    const notes = [
      k.open > 0 ? `${k.open} still open, counted as booked so far` : '',
      k.missing > 0 ? `${k.missing} no longer stored, not counted` : '',
    ].filter(Boolean);
    lines.push(
      `${i + 1}. ${RULE_LABELS[k.kind]}: ${plural(k.breaks, 'break')}, ${plural(k.trades, 'trade')}, ${cost(k.netPL)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}.`,
    );
  });
  if (r.byKind.length > 1)
    lines.push(
      `Altogether ${plural(r.total.breaks, 'break')} by ${plural(r.total.trades, 'trade')}: ${cost(r.total.netPL)} (a trade breaking two rules counts once).`,
    );
  lines.push(`Data: the trade-level rules of your ${plural(r.ruleSets, 'rule set')} on My Rules, as of now.`);
  return lines.join('\n');
}
