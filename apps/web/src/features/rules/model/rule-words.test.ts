import { describe, expect, it } from 'vitest';
import { RULE_KINDS, ruleSchema, type RuleInput } from '@pipsense/contract';
import { describeRule } from './rule-words';

const PRAGUE = { resetTime: '00:00', zone: 'Europe/Prague' };

/** One rule of every kind, its defaults filled by the contract, and its sentence. */
const CASES: Array<[RuleInput, string]> = [
  [
    { kind: 'daily_loss', params: { pct: 5, ...PRAGUE } },
    'Daily loss: 5 % of the initial balance, from the day’s start balance, on equity, resets 00:00 Europe/Prague — fails the phase',
  ],
  [
    { kind: 'max_loss', params: { pct: 10 } },
    'Max loss: 10 % of the initial balance, a static floor, on equity — fails the phase',
  ],
  [
    { kind: 'profit_target', params: { amount: '10000' } },
    'Profit target: 10,000.00 USD in closed profit, every position closed — an objective',
  ],
  [
    { kind: 'min_trading_days', params: { min: 4, ...PRAGUE } },
    'Trading days: at least 4, a day counting when a position is opened — an objective',
  ],
  [
    { kind: 'consistency', params: { maxPct: 50 } },
    'Best-day share: the best day at most 50 % of the profitable days’ profit — an objective',
  ],
  [
    { kind: 'profitable_days', params: { min: 3, threshold: 0.5 } },
    'Profitable days: at least 3 with a profit of 0.5 % of the initial balance or more, by the day a trade closes — an objective',
  ],
  [
    { kind: 'max_risk_per_trade', effect: 'pause_until_reset', params: { pct: 1 } },
    'Risk per trade: the loss from the entry to the stop at most 1 % of the balance at the open — pauses trading until the reset',
  ],
  [
    { kind: 'max_trades_per_day', effect: 'pause_until_reset', params: { max: 3 } },
    'Trades per day: at most 3 opened — pauses trading until the reset',
  ],
  [{ kind: 'max_consecutive_losses', params: { max: 3 } }, 'Losses in a row: at most 3 — fails the phase'],
  [
    { kind: 'no_weekend_holding', params: {} },
    'No weekend holding: no position open over the Friday 17:00 New York close — fails the phase',
  ],
];

describe('describeRule', () => {
  it('has a sentence for every kind', () => {
    expect(CASES.map(([rule]) => rule.kind).sort()).toEqual([...RULE_KINDS].sort());
    for (const [rule, sentence] of CASES)
      expect(describeRule(ruleSchema.parse(rule), { currency: 'USD' })).toBe(sentence);
  });

  it('names the params that differ from the usual reading', () => {
    const daily = ruleSchema.parse({
      kind: 'daily_loss',
      effect: 'pause_until_reset',
      params: {
        pct: 2,
        allowanceBase: 'anchor',
        anchor: 'max_start_balance_equity',
        measure: 'balance',
        check: 'end_of_day',
        comparator: 'lte',
        bookingAtReset: 'after_anchor',
      },
    });
    expect(describeRule(daily, { boundary: { resetTime: '17:00', zone: 'America/New_York' } })).toBe(
      'Daily loss: 2 % of the day’s anchor, from the higher of the day’s start balance and equity, on balance (closed P/L), ' +
        'checked at the day’s end only, broken on reaching the floor, a booking at the reset counted against the new day, ' +
        'resets 17:00 America/New_York — pauses trading until the reset',
    );
    const trailing = ruleSchema.parse({
      kind: 'max_loss',
      params: {
        amount: '2000',
        mode: 'trail_eod_balance',
        lock: 'at_initial',
        lockOffset: '100',
        payoutPolicy: 'reduce_hwm',
      },
    });
    expect(describeRule(trailing, { currency: 'USD' })).toBe(
      'Max loss: 2,000.00 USD, trailing the highest end-of-day balance, locks at the initial balance + 100, on equity, ' +
        'a payout lowers the high-water mark — fails the phase',
    );
  });
});
