import type { DayRecord, RuleSet, RuleStatus } from './types';

/**
 * The status as a fold over the day records (docs/rules.md, Status): the records hold every rule's line at their
 * day's end and each rule's first break with its time, so stored records answer without the trades.
 *
 * - breached: a `fail` rule broke before the phase passed (the first such break is `breach`);
 * - passed: every objective held at once, every position closed, nothing broken (docs/reference/prop-firms.md §8.5);
 * - paused: a `pause_until_reset` rule broke today;
 * - unknown: a rule on equity could not be decided (equity unknown while a position was open, §8.9 item 9): never
 *   passed then;
 * - on_track otherwise.
 */
export function foldStatus(
  ruleSet: RuleSet,
  days: readonly DayRecord[],
  meta: { currency: string; equityBasis: RuleStatus['equityBasis'] },
): RuleStatus {
  const today = days.at(-1);
  if (today === undefined) throw new RangeError('no day records to fold');

  let passedAt: string | null = null;
  let breach: RuleStatus['breach'] = null;
  let tradingDays = 0;
  for (const day of days) {
    if (day.tradingDay) tradingDays++;
    passedAt ??= day.passedAt;
    for (const broken of day.breakTimes) {
      if (ruleSet.rules[broken.index]?.effect !== 'fail' || !BREAKABLE.has(broken.kind)) continue;
      if (passedAt !== null && broken.time >= passedAt) continue;
      if (breach === null || broken.time < breach.time) breach = { rule: broken.kind, time: broken.time };
    }
  }
  const paused = today.breakTimes.some((b) => ruleSet.rules[b.index]?.effect === 'pause_until_reset');
  const undecided = today.lines.some((line) => line.ok === null);

  const daily = today.lines.find((line) => line.kind === 'daily_loss');
  const minDays = ruleSet.rules.find((rule) => rule.kind === 'min_trading_days');
  const state: RuleStatus['state'] = breach
    ? 'breached'
    : passedAt !== null
      ? undecided
        ? 'unknown'
        : 'passed'
      : paused
        ? 'paused'
        : undecided
          ? 'unknown'
          : 'on_track';
  return {
    state,
    currency: meta.currency,
    breach,
    // Only a phase said to have passed has a time it passed: an undecided one is never "passed" (§8.9 item 9).
    passedAt: state === 'passed' ? passedAt : null,
    rules: today.lines,
    today: {
      start: today.start,
      end: today.end,
      anchor: today.anchor,
      floor: today.floor,
      remaining: daily?.unit === 'money' ? daily.remaining : null,
    },
    tradingDays: {
      done: tradingDays,
      required: minDays?.kind === 'min_trading_days' ? minDays.params.min : 0,
    },
    equityBasis: meta.equityBasis,
  };
}

/** The rules that break (the others are objectives). */
const BREAKABLE: ReadonlySet<string> = new Set([
  'daily_loss',
  'max_loss',
  'max_risk_per_trade',
  'max_trades_per_day',
  'max_consecutive_losses',
  'no_weekend_holding',
]);
