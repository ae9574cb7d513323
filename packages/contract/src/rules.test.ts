import { describe, expect, it } from 'vitest';
import { ruleSchema, ruleSetSchema } from './rules';

/** The rule set's validation names the field at fault (docs/rules.md, Rule sets). */

const base = {
  accountId: 'acc-1',
  name: 'FTMO',
  startTime: '2026-01-05T08:00:00Z',
  initialBalance: '100000',
};

const refusals = (input: unknown) => {
  const result = ruleSetSchema.safeParse(input);
  expect(result.success).toBe(false);
  return result.error!.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

describe('rule set validation', () => {
  it('fills the defaults of section 8 and keeps the day boundary', () => {
    const set = ruleSetSchema.parse({
      ...base,
      rules: [{ kind: 'daily_loss', params: { pct: 5, zone: 'Europe/Prague', resetTime: '00:00' } }],
    });
    expect(set.startTime).toBe('2026-01-05T08:00:00.000Z');
    expect(set.rules[0]).toEqual({
      kind: 'daily_loss',
      effect: 'fail',
      params: {
        pct: 5,
        allowanceBase: 'initial',
        anchor: 'start_balance',
        measure: 'equity',
        check: 'continuous',
        comparator: 'lt',
        bookingAtReset: 'in_anchor',
        resetTime: '00:00',
        zone: 'Europe/Prague',
      },
    });
  });

  it('names an unknown kind', () => {
    expect(refusals({ ...base, rules: [{ kind: 'max_drawdown', params: {} }] })).toEqual([
      {
        path: 'rules.0.kind',
        message:
          'kind must be one of daily_loss, max_loss, profit_target, min_trading_days, consistency, profitable_days, max_risk_per_trade, max_trades_per_day, max_consecutive_losses, no_weekend_holding',
      },
    ]);
  });

  it('names a negative percent, a percent above 100 and one with too many decimals', () => {
    expect(refusals({ ...base, rules: [{ kind: 'max_loss', params: { pct: -5 } }] })).toEqual([
      { path: 'rules.0.params.pct', message: 'pct must be a percent of 0 or more' },
    ]);
    expect(refusals({ ...base, rules: [{ kind: 'consistency', params: { maxPct: 150 } }] })).toEqual([
      { path: 'rules.0.params.maxPct', message: 'maxPct must be a percent of at most 100' },
    ]);
    expect(refusals({ ...base, rules: [{ kind: 'profit_target', params: { pct: 0.00001 } }] })).toEqual([
      { path: 'rules.0.params.pct', message: 'pct must have at most 4 decimals' },
    ]);
  });

  it('names an unknown IANA zone and a reset time that is not HH:MM', () => {
    expect(refusals({ ...base, rules: [{ kind: 'daily_loss', params: { pct: 5, zone: 'Europe/Atlantis' } }] })).toEqual(
      [{ path: 'rules.0.params.zone', message: 'zone must be an IANA time zone such as Europe/Prague' }],
    );
    expect(refusals({ ...base, rules: [{ kind: 'daily_loss', params: { pct: 5, resetTime: '24:00' } }] })).toEqual([
      { path: 'rules.0.params.resetTime', message: 'resetTime must be a local time "HH:MM", e.g. "00:00" or "17:00"' },
    ]);
  });

  it('asks for pct or amount, one of the two', () => {
    expect(refusals({ ...base, rules: [{ kind: 'daily_loss', params: {} }] })).toEqual([
      { path: 'rules.0.params.pct', message: 'daily_loss needs pct or amount (one of the two)' },
    ]);
    expect(refusals({ ...base, rules: [{ kind: 'max_loss', params: { pct: 5, amount: '5000' } }] })).toEqual([
      { path: 'rules.0.params.pct', message: 'max_loss needs pct or amount (one of the two)' },
    ]);
    expect(refusals({ ...base, rules: [{ kind: 'max_loss', params: { amount: '-5' } }] })[0]!.message).toBe(
      'amount must be an amount of 0 or more as a decimal string, e.g. "5000"',
    );
  });

  it('names an unknown enum value, an unknown effect and a count that is not whole', () => {
    expect(refusals({ ...base, rules: [{ kind: 'max_loss', params: { pct: 5, mode: 'trailing' } }] })).toEqual([
      {
        path: 'rules.0.params.mode',
        message: 'mode must be one of static, trail_eod_balance, trail_intraday_balance, trail_intraday_equity',
      },
    ]);
    expect(refusals({ ...base, rules: [{ kind: 'max_trades_per_day', effect: 'warn', params: { max: 3 } }] })).toEqual([
      { path: 'rules.0.effect', message: 'effect must be one of fail, pause_until_reset' },
    ]);
    expect(refusals({ ...base, rules: [{ kind: 'min_trading_days', params: { min: 2.5 } }] })).toEqual([
      { path: 'rules.0.params.min', message: 'min must be a whole number of 0 or more' },
    ]);
  });

  it('keeps one daily reset per rule set', () => {
    expect(
      refusals({
        ...base,
        rules: [
          { kind: 'daily_loss', params: { pct: 5, zone: 'Europe/Prague' } },
          { kind: 'min_trading_days', params: { min: 4, zone: 'America/New_York' } },
        ],
      }),
    ).toEqual([
      {
        path: 'rules.1.params.zone',
        message: 'zone must be the same in every rule (Europe/Prague): a rule set has one daily reset',
      },
    ]);
  });

  it('names the set’s own fields', () => {
    expect(refusals({ ...base, initialBalance: '0', rules: [] })).toEqual([
      { path: 'initialBalance', message: 'initialBalance must be an amount above 0' },
    ]);
    expect(refusals({ ...base, startTime: 'yesterday', rules: [] })[0]!.path).toBe('startTime');
    expect(ruleSchema.safeParse({ kind: 'no_weekend_holding' }).success).toBe(true);
  });
});
