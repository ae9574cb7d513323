import { describe, expect, it } from 'vitest';
import { serverInstants } from '../../../domain/broker-time';
import { closedOn, inputs, lineOf, m, point, ruleSet, trade } from '../../../test/rule-inputs';
import { checkBestDay, evaluateRules, NO_DAYS, ruleSetFromPreset, withDay, type RuleInput } from './index';

/** docs/reference/prop-firms.md §8.9, "Edge cases that need tests": one test per item, named by it. */

const START = '2026-01-05T08:00:00Z';
const ftmo = (startTime = START) =>
  ruleSetFromPreset('ftmo-2step-challenge', { accountId: 'acc-1', startTime, initialBalance: '100000' });
const daily = (params: Record<string, unknown> = {}): RuleInput => ({
  kind: 'daily_loss',
  effect: 'fail',
  params: { pct: 5, zone: 'UTC', ...params },
});

describe('§8.9 edge cases', () => {
  it('1. a day without trades: the reset still happens and the anchor is taken again; not a trading or profitable day; end-of-day high-water marks unchanged', () => {
    const rules: RuleInput[] = [
      daily({ anchor: 'start_equity' }),
      { kind: 'max_loss', effect: 'fail', params: { pct: 10, mode: 'trail_eod_balance', zone: 'UTC' } },
      { kind: 'min_trading_days', effect: 'fail', params: { min: 1, zone: 'UTC' } },
      { kind: 'profitable_days', effect: 'fail', params: { min: 1 } },
    ];
    const result = evaluateRules(
      ruleSet(rules, { startTime: START }),
      inputs({
        trades: [closedOn('a', '2026-01-05', '1000'), trade('held', '2026-01-05T12:00:00Z', null)],
        points: [point('2026-01-05T23:00:00Z', '101500'), point('2026-01-06T23:59:00Z', '102500')],
      }),
      '2026-01-07T12:00:00Z',
    );
    const [, quiet, next] = result.days;
    // 6 Jan: no trade; the position held moves the equity, and each reset snapshots it.
    expect(quiet).toMatchObject({ date: '2026-01-06', anchor: m('101500'), tradingDay: false, closedPL: m('0') });
    expect(next).toMatchObject({ date: '2026-01-07', anchor: m('102500') });
    expect(lineOf(quiet!.lines, 'profitable_days').used).toBe(1);
    // The balance did not change: the end-of-day high-water mark (101,000) neither.
    expect(result.days.map((d) => lineOf(d.lines, 'max_loss').floor)).toEqual([m('90000'), m('91000'), m('91000')]);
  });

  it('2. daylight-saving weeks: FTMO’s day starts at 01:00 server time normally and at 02:00 in the March and October–November mismatch weeks', () => {
    /** The FTMO day of a trade opened at a MetaTrader server time (UTC+2, UTC+3 on US summer time). */
    const ftmoDayOf = (serverTime: string) => {
      const openTime = new Date(serverInstants(serverTime, { rule: 'ny-close-us' }).earlier).toISOString();
      const result = evaluateRules(
        ftmo('2026-01-01T00:00:00Z'),
        inputs({ trades: [trade('t', openTime, null)] }),
        openTime,
      );
      return result.days.filter((d) => d.tradingDay).map((d) => d.date);
    };
    // A normal week (4 Mar: server UTC+2, Prague UTC+1): 00:30 server is the day before, 01:30 the new day.
    expect(ftmoDayOf('2026-03-04T00:30:00')).toEqual(['2026-03-03']);
    expect(ftmoDayOf('2026-03-04T01:30:00')).toEqual(['2026-03-04']);
    // The March mismatch week (New York on summer time since 8 Mar, Prague from 29 Mar): the day starts at 02:00.
    expect(ftmoDayOf('2026-03-11T00:30:00')).toEqual(['2026-03-10']);
    expect(ftmoDayOf('2026-03-11T01:30:00')).toEqual(['2026-03-10']);
    expect(ftmoDayOf('2026-03-11T02:30:00')).toEqual(['2026-03-11']);
    // The autumn one (Prague on winter time from 25 Oct, New York from 1 Nov).
    expect(ftmoDayOf('2026-10-28T00:30:00')).toEqual(['2026-10-27']);
    expect(ftmoDayOf('2026-10-28T01:30:00')).toEqual(['2026-10-27']);
    expect(ftmoDayOf('2026-11-04T01:30:00')).toEqual(['2026-11-04']);
  });

  it('3. a trade spanning the reset: a floating profit gives room under a balance anchor, raises the floor under max(B, E); a trading day on its open day only; its P/L on its close day (or its open day, ATFunded)', () => {
    const trades = [trade('span', '2026-01-05T20:00:00Z', '2026-01-06T10:00:00Z', '1500')];
    const points = [point('2026-01-06T00:00:00Z', '103000'), point('2026-01-06T08:00:00Z', '97500')];
    const data = inputs({ trades, points });
    const rules = (anchor: string): RuleInput[] => [
      daily({ anchor }),
      { kind: 'min_trading_days', effect: 'fail', params: { min: 1, zone: 'UTC' } },
      { kind: 'profitable_days', effect: 'fail', params: { min: 1, pnlBasis: 'closed_by_open_day' } },
    ];
    const atBalance = evaluateRules(
      ruleSet(rules('start_balance'), { startTime: START }),
      data,
      '2026-01-06T12:00:00Z',
    );
    // Anchor $100,000, floor $95,000: at the reset the floating +$3,000 is extra room ($8,000).
    expect(lineOf(atBalance.days[1]!.lines, 'daily_loss').ok).toBe(true);
    expect(atBalance.days[1]).toMatchObject({ anchor: m('100000'), floor: m('95000') });
    const atMax = evaluateRules(
      ruleSet(rules('max_start_balance_equity'), { startTime: START }),
      data,
      '2026-01-06T12:00:00Z',
    );
    // max(B, E) = $103,000: the floor is $98,000, and $97,500 breaks it.
    expect(atMax.days[1]).toMatchObject({ anchor: m('103000'), floor: m('98000') });
    expect(atMax.status.breach).toEqual({ rule: 'daily_loss', time: '2026-01-06T08:00:00.000Z' });
    // A trading day on the open day only; the P/L on the close day; by open day for ATFunded's profitable days.
    expect(atBalance.days.map((d) => [d.tradingDay, d.closedPL])).toEqual([
      [true, m('0')],
      [false, m('1500')],
    ]);
    expect(lineOf(atBalance.status.rules, 'profitable_days').used).toBe(1);
  });

  it('4. commission at open or close: an MT5 entry commission moves B and the next midnight anchor on the entry day; an MT4 round-turn charge only at the close', () => {
    const mt5 = evaluateRules(
      ftmo(),
      inputs({
        trades: [trade('t', '2026-01-05T15:00:00Z', '2026-01-06T10:00:00Z', '93')],
        cashFlows: [{ time: '2026-01-05T15:00:00Z', type: 'fee', amount: '-7' }],
      }),
      '2026-01-06T12:00:00Z',
    );
    expect(mt5.days.map((d) => [d.anchor, d.closedPL])).toEqual([
      [m('100000'), m('-7')],
      [m('99993'), m('93')],
    ]);
    const mt4 = evaluateRules(
      ftmo(),
      inputs({ trades: [trade('t', '2026-01-05T15:00:00Z', '2026-01-06T10:00:00Z', '86')] }),
      '2026-01-06T12:00:00Z',
    );
    expect(mt4.days.map((d) => [d.anchor, d.closedPL])).toEqual([
      [m('100000'), m('0')],
      [m('100000'), m('86')],
    ]);
  });

  it('5. swaps booked at the reset instant itself: in the new day’s anchor or after it (a flag, both ways)', () => {
    // 17:00 New York is 22:00 UTC in January: the swap lands on the boundary.
    const run = (bookingAtReset: 'in_anchor' | 'after_anchor') =>
      evaluateRules(
        ruleSet([daily({ resetTime: '17:00', zone: 'America/New_York', bookingAtReset })], { startTime: START }),
        inputs({
          trades: [trade('t', '2026-01-05T12:00:00Z', '2026-01-06T12:00:00Z', '0')],
          cashFlows: [{ time: '2026-01-05T22:00:00Z', type: 'financing', amount: '-30' }],
        }),
        '2026-01-06T06:00:00Z',
      );
    const inAnchor = run('in_anchor');
    expect(inAnchor.days.map((d) => [d.date, d.anchor, d.closedPL])).toEqual([
      ['2026-01-04', m('100000'), m('-30')],
      ['2026-01-05', m('99970'), m('0')],
    ]);
    expect(inAnchor.status.today.remaining).toBe(m('5000'));
    const afterAnchor = run('after_anchor');
    expect(afterAnchor.days.map((d) => [d.date, d.anchor, d.closedPL])).toEqual([
      ['2026-01-04', m('100000'), m('0')],
      ['2026-01-05', m('100000'), m('-30')],
    ]);
    expect(afterAnchor.status.today.remaining).toBe(m('4970'));
  });

  it('6. balance operations: out of daily P/L, the best day, profitable days and targets; a payout never counts as a loss', () => {
    const rules: RuleInput[] = [
      { kind: 'profit_target', effect: 'fail', params: { pct: 10 } },
      daily(),
      { kind: 'consistency', effect: 'fail', params: { maxPct: 50 } },
      { kind: 'profitable_days', effect: 'fail', params: { min: 1 } },
    ];
    const result = evaluateRules(
      ruleSet(rules, { startTime: START }),
      inputs({
        trades: [closedOn('a', '2026-01-05', '-100')],
        cashFlows: [
          { time: '2026-01-05T12:00:00Z', type: 'deposit', amount: '20000' },
          { time: '2026-01-05T13:00:00Z', type: 'credit', amount: '500' },
          { time: '2026-01-05T14:00:00Z', type: 'withdrawal', amount: '-8000' },
        ],
      }),
      '2026-01-05T15:00:00Z',
    );
    const day = result.days[0]!;
    expect(day.closedPL).toBe(m('-100'));
    expect(lineOf(result.status.rules, 'profit_target')).toMatchObject({ used: m('-100'), ok: false });
    expect(lineOf(result.status.rules, 'profitable_days').used).toBe(0);
    // $8,000 out is more than the day's $5,000, yet no loss: $4,900 remain.
    expect(result.status.today.remaining).toBe(m('4900'));
    expect(result.status.state).toBe('on_track');
    // Floors and balances read as the account's own: $100,000 − 100 + 20,000 + 500 − 8,000.
    expect(day.endBalance).toBe(m('112400'));
    expect(day.floor).toBe(m('107500'));
    // The anchor is what the day started from: the operations later that day do not move it.
    expect(day.anchor).toBe(m('100000'));
  });

  it('6b. a percent of the anchor is of the balance held at the reset: a payout leaves less to lose the next day', () => {
    const result = evaluateRules(
      ruleSet([daily({ pct: 2, allowanceBase: 'anchor', measure: 'balance' })], { startTime: START }),
      inputs({
        trades: [closedOn('a', '2026-01-05', '500')],
        cashFlows: [{ time: '2026-01-05T14:00:00Z', type: 'withdrawal', amount: '-20000' }],
      }),
      '2026-01-06T15:00:00Z',
    );
    const second = result.days[1]!;
    // Held at the reset: $100,000 + 500 − 20,000 = $80,500; 2 % of it is $1,610.
    expect(second.anchor).toBe(m('80500'));
    expect(second.floor).toBe(m('78890'));
    expect(result.status.today.remaining).toBe(m('1610'));
  });

  it('7. comparator: "drops below" (lt) survives equity at the floor; "reaches" (lte) breaks there', () => {
    const data = inputs({
      trades: [trade('t', '2026-01-05T09:00:00Z', null)],
      points: [point('2026-01-05T10:00:00Z', '95000')],
    });
    const at = (comparator: string) =>
      evaluateRules(ruleSet([daily({ comparator })], { startTime: START }), data, '2026-01-05T12:00:00Z').status;
    expect(at('lt').state).toBe('on_track');
    expect(at('lte').breach).toEqual({ rule: 'daily_loss', time: '2026-01-05T10:00:00.000Z' });
  });

  it('8. both floors crossed by one move: the higher floor was hit first, and the failure is its rule', () => {
    const maxLoss = (params: Record<string, unknown>): RuleInput => ({
      kind: 'max_loss',
      effect: 'fail',
      params: { zone: 'UTC', ...params },
    });
    // Day 1: daily floor $95,000 above the static $90,000; one move to $89,000 crosses both.
    const first = evaluateRules(
      ruleSet([maxLoss({ pct: 10 }), daily()], { startTime: START }),
      inputs({ trades: [trade('t', '2026-01-05T09:00:00Z', null)], points: [point('2026-01-05T10:00:00Z', '89000')] }),
      '2026-01-05T12:00:00Z',
    );
    expect(first.status.breach).toEqual({ rule: 'daily_loss', time: '2026-01-05T10:00:00.000Z' });
    expect(first.days[0]!.breaks).toEqual(['daily_loss', 'max_loss']);
    // Day 2 after +$4,000: the trailing floor ($101,000) is above the daily one ($99,000); a move to $98,000.
    const second = evaluateRules(
      ruleSet([daily(), maxLoss({ amount: '3000', mode: 'trail_intraday_balance' })], { startTime: START }),
      inputs({
        trades: [closedOn('a', '2026-01-05', '4000'), trade('t', '2026-01-06T09:00:00Z', null)],
        points: [point('2026-01-06T10:00:00Z', '98000')],
      }),
      '2026-01-06T12:00:00Z',
    );
    expect(second.status.breach).toEqual({ rule: 'max_loss', time: '2026-01-06T10:00:00.000Z' });
  });

  it('9. no equity data: balance floors are exact, equity floors are "unknown", never "passed"', () => {
    const trades = ['05', '06', '07', '08'].map((d, i) => closedOn(`t${i}`, `2026-01-${d}`, '2600'));
    const closedOnly = evaluateRules(ftmo(), inputs({ trades, closedOnly: true }), '2026-01-09T12:00:00Z');
    // Every objective holds, but the equity between the closes is unknown: a breach is possible.
    expect(closedOnly.status).toMatchObject({ state: 'unknown', breach: null, equityBasis: 'closed-only' });
    // The objectives all held from the 8th, but the phase is not said to have passed.
    expect(closedOnly.status.passedAt).toBeNull();
    expect(closedOnly.days.find((d) => d.passedAt !== null)?.passedAt).toBe('2026-01-08T11:00:00.000Z');
    expect(lineOf(closedOnly.status.rules, 'daily_loss').ok).toBeNull();
    expect(lineOf(closedOnly.status.rules, 'max_loss').ok).toBeNull();
    expect(closedOnly.days[0]!.lowestEquity).toBeNull();
    // With equity (samples or candles) the same trades pass.
    expect(evaluateRules(ftmo(), inputs({ trades }), '2026-01-09T12:00:00Z').status.state).toBe('passed');
    // A balance below the floor with every position closed is equity below it: a breach for certain.
    const lost = evaluateRules(
      ftmo(),
      inputs({ trades: [closedOn('a', '2026-01-05', '-5000.01')], closedOnly: true }),
      '2026-01-05T12:00:00Z',
    );
    expect(lost.status.breach).toEqual({ rule: 'daily_loss', time: '2026-01-05T11:00:00.000Z' });
    // Rules on the balance are decided from closed P/L alone.
    const personal = ruleSetFromPreset('personal', { accountId: 'acc-1', startTime: START, initialBalance: '100000' });
    const decided = evaluateRules(personal, inputs({ trades, closedOnly: true }), '2026-01-09T12:00:00Z');
    expect(decided.status.state).toBe('on_track');
    // A rebuild still running (equityComplete false) is not a pass either.
    const running = evaluateRules(ftmo(), inputs({ trades, equityComplete: false }), '2026-01-09T12:00:00Z');
    expect(running.status.state).toBe('unknown');
  });

  it('10. partial closes realise P/L on each exit’s own day; one position opened once is one trading day', () => {
    const result = evaluateRules(
      ftmo(),
      inputs({
        trades: [
          trade('p', '2026-01-05T09:00:00Z', '2026-01-07T10:00:00Z', '300', {
            exits: [
              { time: '2026-01-06T10:00:00Z', realizedPL: '500' },
              { time: '2026-01-07T10:00:00Z', realizedPL: '-200' },
            ],
          }),
        ],
      }),
      '2026-01-07T12:00:00Z',
    );
    expect(result.days.map((d) => [d.date, d.closedPL, d.tradingDay])).toEqual([
      ['2026-01-05', m('0'), true],
      ['2026-01-06', m('500'), false],
      ['2026-01-07', m('-200'), false],
    ]);
    expect(result.status.tradingDays.done).toBe(1);
    expect(result.days[2]!.anchor).toBe(m('100500'));
  });

  it('11. best day with a denominator of 0 or less is not satisfied; a day with 0 P/L is not profitable', () => {
    const losing = ['-500', '-300']
      .map(Number)
      .map((v) => v * 10_000)
      .reduce(withDay, NO_DAYS);
    expect(checkBestDay(losing, 50, 'net_total', 0).ok).toBe(false);
    expect(checkBestDay(losing, 50, 'positive_days_sum', 0).ok).toBe(false);
    expect(checkBestDay(NO_DAYS, 50, 'positive_days_sum', 0).ok).toBe(false);
    const result = evaluateRules(
      ruleSet(
        [
          { kind: 'profitable_days', effect: 'fail', params: { min: 1, threshold: 0 } },
          { kind: 'consistency', effect: 'fail', params: { maxPct: 50, denominator: 'net_total' } },
        ],
        { startTime: START },
      ),
      inputs({ trades: [closedOn('a', '2026-01-05', '0'), closedOn('b', '2026-01-06', '0')] }),
      '2026-01-06T12:00:00Z',
    );
    expect(lineOf(result.status.rules, 'profitable_days')).toMatchObject({ used: 0, ok: false });
    expect(lineOf(result.status.rules, 'consistency')).toMatchObject({ used: null, ok: false });
  });

  it('12. the initial deposit row of an MT statement is I, not profit', () => {
    const result = evaluateRules(
      ftmo(),
      inputs({
        trades: [trade('t', '2026-01-05T09:00:00Z', null)],
        cashFlows: [{ time: '2026-01-05T07:59:00Z', type: 'deposit', amount: '100000' }],
        // The money module's equity includes the deposit.
        points: [point('2026-01-05T10:00:00Z', '99000')],
      }),
      '2026-01-05T12:00:00Z',
    );
    expect(result.days[0]).toMatchObject({ closedPL: m('0'), anchor: m('100000'), floor: m('95000') });
    expect(lineOf(result.status.rules, 'profit_target').used).toBe(m('0'));
    expect(result.status.today.remaining).toBe(m('4000'));
  });
});
