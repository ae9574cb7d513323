import { describe, expect, it } from 'vitest';
import { minorUnitsOf } from '../../../domain/money';
import { closedOn, inputs, lineOf, m, point, ruleSet, trade } from '../../../test/rule-inputs';
import {
  checkBestDay,
  evaluateRules,
  NO_DAYS,
  ruleSetFromPreset,
  withDay,
  type RuleInput,
  type RulePresetId,
  type RuleTrade,
} from './index';

/**
 * Every worked example of docs/reference/prop-firms.md, sections FTMO to Trailing drawdown models, through the
 * engine. Times are UTC; Prague's midnight is 23:00 UTC in winter, New York's 17:00 is 22:00 UTC.
 */

const preset = (id: RulePresetId, initialBalance = '100000', startTime = '2026-01-05T08:00:00Z') =>
  ruleSetFromPreset(id, { accountId: 'acc-1', startTime, initialBalance });

const START = '2026-01-05T08:00:00Z';

describe('FTMO 2-Step (docs/reference/prop-firms.md, FTMO 2-Step)', () => {
  it('daily loss: floors $95,000, then $97,000 after a $102,000 midnight balance, then $96,000 after $101,000', () => {
    const result = evaluateRules(
      preset('ftmo-2step-challenge'),
      inputs({ trades: [closedOn('a', '2026-01-05', '2000'), closedOn('b', '2026-01-06', '-1000')] }),
      '2026-01-07T12:00:00Z',
    );
    expect(result.days.map((d) => [d.date, d.anchor, d.floor])).toEqual([
      ['2026-01-05', m('100000'), m('95000')],
      ['2026-01-06', m('102000'), m('97000')],
      ['2026-01-07', m('101000'), m('96000')],
    ]);
    // The floor moves down as well as up with the midnight balance.
    expect(result.status.today.floor).toBe(m('96000'));
    expect(result.status.state).toBe('on_track');
  });

  it('daily loss (academy, $200k): a floating loss held through midnight breaches at the reset itself', () => {
    const set = ruleSetFromPreset('ftmo-2step-challenge', {
      accountId: 'acc-1',
      startTime: '2026-01-05T07:00:00Z',
      initialBalance: '200000',
    });
    const data = inputs({
      trades: [
        trade('monday', '2026-01-05T08:00:00Z', '2026-01-05T09:00:00Z', '4000'),
        trade('held', '2026-01-05T12:00:00Z', null),
      ],
      points: [point('2026-01-05T13:00:00Z', '191000')],
    });
    // Balance $204,000 after Monday's close: the floor is still $190,000, $14,000 of permitted loss for the day.
    const noon = evaluateRules(set, data, '2026-01-05T10:00:00Z').status;
    expect(noon.today).toMatchObject({ anchor: m('200000'), floor: m('190000'), remaining: m('14000') });
    // Floating −$13,000: equity $191,000, above the floor, no breach before midnight.
    const late = evaluateRules(set, data, '2026-01-05T22:59:00Z').status;
    expect(late.state).toBe('on_track');
    expect(late.today.remaining).toBe(m('1000'));
    // At 00:00 Prague the floor is $204,000 − $10,000 = $194,000; equity $191,000 is below it.
    const after = evaluateRules(set, data, '2026-01-06T00:30:00Z');
    expect(after.status.breach).toEqual({ rule: 'daily_loss', time: '2026-01-05T23:00:00.000Z' });
    expect(after.status.state).toBe('breached');
    expect(after.days[1]).toMatchObject({ anchor: m('204000'), floor: m('194000'), breaks: ['daily_loss'] });
  });

  it('maximum loss: a $92,000 balance floating −$2,001 is equity $89,999, a violation; $90,000 is not', () => {
    const closed = [closedOn('a', '2026-01-05', '-4000'), closedOn('b', '2026-01-06', '-4000')];
    const held = trade('c', '2026-01-07T09:00:00Z', null);
    const at = (equity: string) =>
      evaluateRules(
        preset('ftmo-2step-challenge'),
        inputs({ trades: [...closed, held], points: [point('2026-01-07T10:00:00Z', equity)] }),
        '2026-01-07T12:00:00Z',
      ).status;
    const violated = at('89999');
    expect(violated.breach).toEqual({ rule: 'max_loss', time: '2026-01-07T10:00:00.000Z' });
    expect(lineOf(violated.rules, 'max_loss')).toMatchObject({ floor: m('90000'), remaining: m('-1'), ok: false });
    // The day's own floor is $92,000 − $5,000 = $87,000: only the maximum loss is broken.
    expect(lineOf(violated.rules, 'daily_loss').ok).toBe(true);
    expect(at('90000').state).toBe('on_track');
  });

  it('minimum trading days: opens on 12 Jan (closed 14 Jan), 18 Jan (two) and 24 Jan make 3 trading days', () => {
    const result = evaluateRules(
      preset('ftmo-2step-challenge', '100000', '2026-01-12T00:00:00Z'),
      inputs({
        trades: [
          trade('a', '2026-01-12T10:00:00Z', '2026-01-14T10:00:00Z', '100'),
          trade('b', '2026-01-18T10:00:00Z', '2026-01-18T11:00:00Z', '100'),
          trade('c', '2026-01-18T12:00:00Z', '2026-01-18T13:00:00Z', '100'),
          trade('d', '2026-01-24T10:00:00Z', '2026-01-24T11:00:00Z', '100'),
        ],
      }),
      '2026-01-25T12:00:00Z',
    );
    expect(result.status.tradingDays).toEqual({ done: 3, required: 4 });
    expect(result.days.filter((d) => d.tradingDay).map((d) => d.date)).toEqual([
      '2026-01-12',
      '2026-01-18',
      '2026-01-24',
    ]);
    // The day a position is only held or closed does not count.
    expect(result.days.find((d) => d.date === '2026-01-14')!.tradingDay).toBe(false);
  });

  it('the profit target is met on the balance with every position closed, and passes with the minimum days', () => {
    const trades = ['05', '06', '07', '08'].map((d, i) => closedOn(`t${i}`, `2026-01-${d}`, '2600'));
    const result = evaluateRules(preset('ftmo-2step-challenge'), inputs({ trades }), '2026-01-09T12:00:00Z');
    expect(result.status.state).toBe('passed');
    expect(result.status.passedAt).toBe('2026-01-08T11:00:00.000Z');
    // Three days and $7,800 are not enough.
    const early = evaluateRules(preset('ftmo-2step-challenge'), inputs({ trades }), '2026-01-07T12:00:00Z');
    expect(early.status.state).toBe('on_track');
    // Verification: 5 %.
    const verification = evaluateRules(
      preset('ftmo-2step-verification'),
      inputs({ trades: trades.map((t) => ({ ...t, realizedPL: '1250' })) }),
      '2026-01-09T12:00:00Z',
    );
    expect(lineOf(verification.status.rules, 'profit_target')).toMatchObject({ limit: m('5000'), ok: true });
    expect(verification.status.state).toBe('passed');
  });
});

describe('FTMO 1-Step (docs/reference/prop-firms.md, FTMO 1-Step)', () => {
  it('daily loss 3 %: $97,000, then $99,000 after a $102,000 midnight balance, then $98,000 after $101,000', () => {
    const result = evaluateRules(
      preset('ftmo-1step'),
      inputs({ trades: [closedOn('a', '2026-01-05', '2000'), closedOn('b', '2026-01-06', '-1000')] }),
      '2026-01-07T12:00:00Z',
    );
    expect(result.days.map((d) => d.floor)).toEqual([m('97000'), m('99000'), m('98000')]);
  });

  it('maximum loss trails the midnight balance: $90,000, $94,000 after $104,000, still $94,000 after $103,000', () => {
    const result = evaluateRules(
      preset('ftmo-1step'),
      inputs({ trades: [closedOn('a', '2026-01-05', '4000'), closedOn('b', '2026-01-06', '-1000')] }),
      '2026-01-07T12:00:00Z',
    );
    expect(result.days.map((d) => lineOf(d.lines, 'max_loss').floor)).toEqual([m('90000'), m('94000'), m('94000')]);
  });

  it('best day: −2,000 / +10,000 / −2,000 / −2,000 / +6,000 is 62.5 % of $16,000: not met, $20,000 needed', () => {
    const pnl = ['-2000', '10000', '-2000', '-2000', '6000'];
    const totals = pnl.map(minorUnitsOf).reduce(withDay, NO_DAYS);
    const check = checkBestDay(totals, 50, 'positive_days_sum', 0);
    expect(check).toEqual({
      best: minorUnitsOf('10000'),
      // Losing days do not lower the denominator.
      denominator: minorUnitsOf('16000'),
      ok: false,
      required: minorUnitsOf('20000'),
      shortfall: minorUnitsOf('4000'),
    });

    const days = ['05', '06', '07', '08', '09'];
    const result = evaluateRules(
      preset('ftmo-1step'),
      inputs({ trades: days.map((d, i) => closedOn(`t${i}`, `2026-01-${d}`, pnl[i]!)) }),
      '2026-01-09T12:00:00Z',
    );
    expect(lineOf(result.status.rules, 'consistency')).toMatchObject({
      limit: '50',
      used: '62.50',
      remaining: '-12.50',
      ok: false,
    });
    // The 10 % target is met ($110,000), but the best day is not: trading goes on, no breach.
    expect(lineOf(result.status.rules, 'profit_target').ok).toBe(true);
    expect(result.status.state).toBe('on_track');
    expect(result.status.breach).toBeNull();
  });
});

describe('The5ers (docs/reference/prop-firms.md, The5ers)', () => {
  it('stop-out: Hyper Growth $10,000 at 6 % closes below $9,400; at $10,300 the allowance is $900', () => {
    const at = (pnl: string) =>
      evaluateRules(
        preset('the5ers-hyper-growth', '10000'),
        inputs({ trades: [closedOn('a', '2026-01-05', pnl)] }),
        '2026-01-05T12:00:00Z',
      ).status;
    expect(lineOf(at('300').rules, 'max_loss')).toMatchObject({ floor: m('9400'), remaining: m('900') });
    // $9,400 is the level itself: still open. (The day's 3 % pause is broken on the way: $300 below its floor.)
    expect(lineOf(at('-600').rules, 'max_loss').ok).toBe(true);
    expect(lineOf(at('-600.01').rules, 'max_loss').ok).toBe(false);
    expect(at('-600.01').breach).toEqual({ rule: 'max_loss', time: '2026-01-05T11:00:00.000Z' });
  });

  it('stop-out: High Stakes $5,000 at 10 % is $4,500', () => {
    const status = evaluateRules(preset('the5ers-high-stakes', '5000'), inputs(), '2026-01-05T12:00:00Z').status;
    expect(lineOf(status.rules, 'max_loss').floor).toBe(m('4500'));
  });

  it('payouts reduce the balance, hence the room: $10,300 less a $300 payout leaves $600 above $9,400', () => {
    const status = evaluateRules(
      preset('the5ers-hyper-growth', '10000'),
      inputs({
        trades: [closedOn('a', '2026-01-05', '300')],
        cashFlows: [{ time: '2026-01-05T12:00:00Z', type: 'withdrawal', amount: '-300' }],
      }),
      '2026-01-05T13:00:00Z',
    ).status;
    expect(lineOf(status.rules, 'max_loss')).toMatchObject({ floor: m('9400'), remaining: m('600') });
  });

  it('daily base (disputed): an anchor of $104,000 gives $99,000 with 5 % of I, $98,800 with 5 % of the anchor', () => {
    const set = preset('the5ers-high-stakes');
    const data = inputs({ trades: [closedOn('a', '2026-01-05', '4000')] });
    const ofInitial = evaluateRules(set, data, '2026-01-06T12:00:00Z');
    expect(ofInitial.days.at(-1)).toMatchObject({ anchor: m('104000'), floor: m('99000') });
    const daily = set.rules.find((r) => r.kind === 'daily_loss')!;
    (daily.params as { allowanceBase: string }).allowanceBase = 'anchor';
    const ofAnchor = evaluateRules(set, data, '2026-01-06T12:00:00Z');
    expect(ofAnchor.days.at(-1)).toMatchObject({ anchor: m('104000'), floor: m('98800') });
  });

  it('profitable days: 3 days of at least 0.5 % of I in closed positions', () => {
    const result = evaluateRules(
      preset('the5ers-high-stakes'),
      inputs({
        trades: [
          closedOn('a', '2026-01-05', '500'),
          closedOn('b', '2026-01-06', '499.99'),
          closedOn('c', '2026-01-07', '3000'),
          closedOn('d', '2026-01-08', '4500'),
        ],
      }),
      '2026-01-08T12:00:00Z',
    );
    expect(lineOf(result.status.rules, 'profitable_days')).toMatchObject({ limit: 3, used: 3, ok: true });
    expect(result.status.state).toBe('passed');
  });
});

describe('FundedNext (docs/reference/prop-firms.md, FundedNext)', () => {
  it('intraday allowance: $5,000 from a flat start; after +$2,000 closed by noon the remaining loss is $7,000', () => {
    const set = preset('fundednext-stellar-2step');
    const data = inputs({ trades: [trade('a', '2026-01-05T09:00:00Z', '2026-01-05T12:00:00Z', '2000')] });
    expect(evaluateRules(set, data, '2026-01-05T08:30:00Z').status.today.remaining).toBe(m('5000'));
    const noon = evaluateRules(set, data, '2026-01-05T12:30:00Z').status.today;
    // The floor stays at the start-of-day value − 5 % of I.
    expect(noon).toMatchObject({ floor: m('95000'), remaining: m('7000') });
  });
});

describe('Funding Pips (docs/reference/prop-firms.md, Funding Pips)', () => {
  /** A day 1 that closes `closed` and holds a position worth `equity` at Prague midnight. */
  const heldOverMidnight = (initial: string, closed: string, equity: string, allowanceBase: 'initial' | 'anchor') => {
    const set = preset('fundingpips-2step', initial);
    const daily = set.rules.find((r) => r.kind === 'daily_loss')!;
    (daily.params as { allowanceBase: string }).allowanceBase = allowanceBase;
    return evaluateRules(
      set,
      inputs({
        trades: [closedOn('a', '2026-01-05', closed), trade('held', '2026-01-05T15:00:00Z', null)],
        points: [point('2026-01-05T23:00:00Z', equity)],
      }),
      '2026-01-06T09:00:00Z',
    ).days.at(-1)!;
  };

  it('on the anchor (a clone of the site): equity $107,000, balance $105,000 → 5 % × 107,000, floor $101,650', () => {
    expect(heldOverMidnight('100000', '5000', '107000', 'anchor')).toMatchObject({
      anchor: m('107000'),
      floor: m('101650'),
    });
  });

  it('of I (a 2026 dossier): balance $52,000, equity $51,800 on $50k → floor $49,500', () => {
    expect(heldOverMidnight('50000', '2000', '51800', 'initial')).toMatchObject({
      anchor: m('52000'),
      floor: m('49500'),
    });
  });
});

describe('Trailing drawdown models (docs/reference/prop-firms.md, The four maximum-loss modes)', () => {
  const maxLoss = (params: Record<string, unknown>): RuleInput => ({
    kind: 'max_loss',
    effect: 'fail',
    params: { amount: '3000', resetTime: '00:00', zone: 'UTC', ...params },
  });
  const floors = (rule: RuleInput, trades: RuleTrade[], points: ReturnType<typeof point>[], at: string) => {
    const result = evaluateRules(ruleSet([rule], { startTime: START }), inputs({ trades, points }), at);
    return { result, floors: result.days.map((d) => lineOf(d.lines, 'max_loss').floor) };
  };

  it('static: $97,000 for ever', () => {
    const { floors: f } = floors(
      maxLoss({ mode: 'static' }),
      [closedOn('a', '2026-01-05', '5000'), closedOn('b', '2026-01-06', '5000')],
      [],
      '2026-01-07T12:00:00Z',
    );
    expect(f).toEqual([m('97000'), m('97000'), m('97000')]);
  });

  it('end-of-day balance: a spike to $104,000 closing at $99,500 leaves $97,000; $104,500 gives $101,500; $101,000 fails', () => {
    const trades = [
      trade('spike', '2026-01-05T09:00:00Z', '2026-01-05T15:00:00Z', '-500'),
      closedOn('b', '2026-01-06', '5000'),
      trade('c', '2026-01-07T09:00:00Z', null),
    ];
    const points = [point('2026-01-05T12:00:00Z', '104000'), point('2026-01-07T10:00:00Z', '101000')];
    const { result, floors: f } = floors(
      maxLoss({ mode: 'trail_eod_balance' }),
      trades,
      points,
      '2026-01-07T12:00:00Z',
    );
    expect(f).toEqual([m('97000'), m('97000'), m('101500')]);
    // Above break-even, yet a failure.
    expect(result.status.breach).toEqual({ rule: 'max_loss', time: '2026-01-07T10:00:00.000Z' });
  });

  it('intraday equity: floating to +$2,000 (floor $99,000), then back $3,500 to $98,500 fails; static survives', () => {
    const trades = [trade('a', '2026-01-05T09:00:00Z', null)];
    const points = [point('2026-01-05T10:00:00Z', '102000'), point('2026-01-05T11:00:00Z', '98500')];
    const peak = floors(maxLoss({ mode: 'trail_intraday_equity' }), trades, points, '2026-01-05T10:30:00Z');
    expect(peak.floors).toEqual([m('99000')]);
    const after = floors(maxLoss({ mode: 'trail_intraday_equity' }), trades, points, '2026-01-05T12:00:00Z');
    expect(after.result.status.breach).toEqual({ rule: 'max_loss', time: '2026-01-05T11:00:00.000Z' });
    const still = floors(maxLoss({ mode: 'static' }), trades, points, '2026-01-05T12:00:00Z');
    expect(still.result.status.state).toBe('on_track');
  });

  it('locking at I: after +$4,000 a pure trail gives $101,000, the locking floor stays $100,000', () => {
    const trades = [trade('a', '2026-01-05T09:00:00Z', null)];
    const points = [point('2026-01-05T10:00:00Z', '104000')];
    const pure = floors(maxLoss({ mode: 'trail_intraday_equity' }), trades, points, '2026-01-05T12:00:00Z');
    const locked = floors(
      maxLoss({ mode: 'trail_intraday_equity', lock: 'at_initial' }),
      trades,
      points,
      '2026-01-05T12:00:00Z',
    );
    expect(pure.floors).toEqual([m('101000')]);
    expect(locked.floors).toEqual([m('100000')]);
  });
});

describe('Firm texts (docs/reference/prop-firms.md, Firm texts)', () => {
  it('Topstep $50K, $2,000: end of day $50,500 → $48,500; a −$500 day keeps it; $52,500 → $50,000, where it stays', () => {
    // Topstep's day ends at 17:00 New York: 22:00 UTC in winter.
    const result = evaluateRules(
      preset('trailing-eod', '50000', '2026-01-05T23:00:00Z'),
      inputs({
        trades: [
          closedOn('a', '2026-01-06', '500'),
          closedOn('b', '2026-01-07', '-500'),
          closedOn('c', '2026-01-08', '2500'),
          closedOn('d', '2026-01-09', '1000'),
        ],
      }),
      '2026-01-10T12:00:00Z',
    );
    expect(result.days.map((d) => [d.date, lineOf(d.lines, 'max_loss').floor])).toEqual([
      ['2026-01-05', m('48000')],
      ['2026-01-06', m('48500')],
      ['2026-01-07', m('48500')],
      ['2026-01-08', m('50000')],
      ['2026-01-09', m('50000')],
    ]);
  });

  const e8One: RuleInput = {
    kind: 'max_loss',
    effect: 'fail',
    params: { pct: 6, mode: 'trail_intraday_balance', lock: 'at_initial', payoutPolicy: 'keep_floor' },
  };

  it('E8 One, 6 %: $94,000; a $101,000 closed balance moves it at once to $95,000; at $106,000 it locks at $100,000', () => {
    const set = ruleSet([e8One], { startTime: START });
    const trades = [
      trade('a', '2026-01-05T09:00:00Z', '2026-01-05T10:00:00Z', '1000'),
      trade('b', '2026-01-05T11:00:00Z', '2026-01-05T12:00:00Z', '5000'),
      trade('c', '2026-01-05T13:00:00Z', '2026-01-05T14:00:00Z', '2000'),
    ];
    const floorAt = (at: string) => lineOf(evaluateRules(set, inputs({ trades }), at).status.rules, 'max_loss').floor;
    expect(floorAt('2026-01-05T09:30:00Z')).toBe(m('94000'));
    // Not the next day: immediately.
    expect(floorAt('2026-01-05T10:30:00Z')).toBe(m('95000'));
    expect(floorAt('2026-01-05T12:30:00Z')).toBe(m('100000'));
    expect(floorAt('2026-01-05T14:30:00Z')).toBe(m('100000'));
  });

  it('E8 One: after a $3,000 payout from $103,000 the floor stays $97,000', () => {
    const status = evaluateRules(
      ruleSet([e8One], { startTime: START }),
      inputs({
        trades: [closedOn('a', '2026-01-05', '3000')],
        cashFlows: [{ time: '2026-01-05T15:00:00Z', type: 'withdrawal', amount: '-3000' }],
      }),
      '2026-01-05T16:00:00Z',
    ).status;
    expect(lineOf(status.rules, 'max_loss')).toMatchObject({ floor: m('97000'), remaining: m('3000') });
  });

  it('TX3, end of day locking at I + $100 (trail $3,500): $97,500, $98,800, then $100,100 from $103,600', () => {
    const rule: RuleInput = {
      kind: 'max_loss',
      effect: 'fail',
      params: { amount: '3500', mode: 'trail_eod_balance', lock: 'at_initial', lockOffset: '100', zone: 'UTC' },
    };
    const result = evaluateRules(
      ruleSet([rule], { startTime: START }),
      inputs({
        trades: [
          closedOn('a', '2026-01-05', '1000'),
          closedOn('b', '2026-01-06', '1300'),
          closedOn('c', '2026-01-07', '1300'),
          closedOn('d', '2026-01-08', '1400'),
        ],
      }),
      '2026-01-09T12:00:00Z',
    );
    expect(result.days.map((d) => lineOf(d.lines, 'max_loss').floor)).toEqual([
      m('96500'),
      m('97500'),
      m('98800'),
      m('100100'),
      m('100100'),
    ]);
  });

  it('ToponeTrader Flash, 7 % locking at I: $105,000 gives $98,000, from $107,000 it locks at $100,000', () => {
    const rule: RuleInput = {
      kind: 'max_loss',
      effect: 'fail',
      params: { pct: 7, mode: 'trail_intraday_balance', lock: 'at_initial' },
    };
    const set = ruleSet([rule], { startTime: START });
    const trades = [
      trade('a', '2026-01-05T09:00:00Z', '2026-01-05T10:00:00Z', '5000'),
      trade('b', '2026-01-05T11:00:00Z', '2026-01-05T12:00:00Z', '2000'),
      trade('c', '2026-01-05T13:00:00Z', '2026-01-05T14:00:00Z', '3000'),
    ];
    const floorAt = (at: string) => lineOf(evaluateRules(set, inputs({ trades }), at).status.rules, 'max_loss').floor;
    expect(floorAt('2026-01-05T10:30:00Z')).toBe(m('98000'));
    expect(floorAt('2026-01-05T12:30:00Z')).toBe(m('100000'));
    expect(floorAt('2026-01-05T14:30:00Z')).toBe(m('100000'));
  });
});

describe('Other daily and best-day variants (docs/reference/prop-firms.md)', () => {
  /** Day 1 closes `closed` and holds a position worth `equity` at the reset; the day-2 record. */
  const dayTwo = (params: Record<string, unknown>, closed: string, equity: string, reset = '2026-01-06T00:00:00Z') =>
    evaluateRules(
      ruleSet([{ kind: 'daily_loss', effect: 'fail', params: { zone: 'UTC', ...params } }], { startTime: START }),
      inputs({
        trades: [closedOn('a', '2026-01-05', closed), trade('held', '2026-01-05T15:00:00Z', null)],
        points: [point(reset, equity)],
      }),
      '2026-01-06T09:00:00Z',
    ).days.at(-1)!;

  it('older E8: 5 % of I below max(start balance, start equity): equity $103,000, balance $100,000 → $98,000', () => {
    expect(dayTwo({ pct: 5, anchor: 'max_start_balance_equity' }, '0', '103000')).toMatchObject({
      anchor: m('103000'),
      floor: m('98000'),
    });
  });

  it('iTrader (05:00 GMT+8): 5 % of the start equity itself: $103,000 × 0.95 = $97,850', () => {
    const day = dayTwo(
      { pct: 5, anchor: 'start_equity', allowanceBase: 'anchor', resetTime: '05:00', zone: 'Etc/GMT-8' },
      '0',
      '103000',
      '2026-01-05T21:00:00Z',
    );
    expect(day).toMatchObject({ start: '2026-01-05T21:00:00.000Z', anchor: m('103000'), floor: m('97850') });
  });

  it('AeonFunded: 3 % below the day’s highest equity, re-based at 00:00 UTC', () => {
    const rule: RuleInput = {
      kind: 'daily_loss',
      effect: 'fail',
      params: { pct: 3, anchor: 'intraday_peak_equity', allowanceBase: 'anchor', zone: 'UTC' },
    };
    const data = inputs({
      trades: [trade('a', '2026-01-05T09:00:00Z', null)],
      points: [point('2026-01-05T10:00:00Z', '102000'), point('2026-01-05T11:00:00Z', '98939')],
    });
    const set = ruleSet([rule], { startTime: START });
    // 102,000 × 0.97 = 98,940.
    expect(evaluateRules(set, data, '2026-01-05T10:30:00Z').status.today.floor).toBe(m('98940'));
    expect(evaluateRules(set, data, '2026-01-05T12:00:00Z').status.breach).toEqual({
      rule: 'daily_loss',
      time: '2026-01-05T11:00:00.000Z',
    });
  });

  it('E8 Signature daily pause: 2 % of I below a $102,435 start is $100,435; reaching it pauses until the reset', () => {
    const rule: RuleInput = {
      kind: 'daily_loss',
      effect: 'pause_until_reset',
      params: { pct: 2, anchor: 'start_balance', comparator: 'lte', zone: 'UTC' },
    };
    const set = ruleSet([rule], { startTime: START });
    const data = inputs({
      trades: [
        closedOn('a', '2026-01-05', '2435'),
        trade('b', '2026-01-06T09:00:00Z', '2026-01-06T11:00:00Z', '-2000'),
      ],
      points: [point('2026-01-06T10:00:00Z', '100435')],
    });
    const paused = evaluateRules(set, data, '2026-01-06T12:00:00Z');
    expect(paused.days.at(-1)).toMatchObject({ anchor: m('102435'), floor: m('100435'), breaks: ['daily_loss'] });
    expect(paused.status.state).toBe('paused');
    expect(paused.status.breach).toBeNull();
    // One break a day, and the next day the account trades again: a soft breach.
    expect(paused.days.at(-1)!.breakTimes).toEqual([
      { kind: 'daily_loss', index: 0, time: '2026-01-06T10:00:00.000Z' },
    ]);
    const next = evaluateRules(set, data, '2026-01-07T01:00:00Z').status;
    expect(next.state).toBe('on_track');
    expect(next.today.floor).toBe(m('98435'));
  });

  it('best day on the net total (E8): days 1,100 / 900 / −400 / 1,500 → 3,100; 35 % and 40 % are not met', () => {
    const totals = ['1100', '900', '-400', '1500'].map(minorUnitsOf).reduce(withDay, NO_DAYS);
    const signature = checkBestDay(totals, 35, 'net_total', 0);
    expect(signature).toMatchObject({ best: minorUnitsOf('1500'), denominator: minorUnitsOf('3100'), ok: false });
    const futures = checkBestDay(totals, 40, 'net_total', 0);
    expect(futures.ok).toBe(false);
    // In evaluation the target becomes best day ÷ 0.4 = $3,750.
    expect(futures.required).toBe(minorUnitsOf('3750'));
    // FTMO's denominator would be the profitable days only: 3,500.
    expect(checkBestDay(totals, 40, 'positive_days_sum', 0).denominator).toBe(minorUnitsOf('3500'));
  });
});
