import { describe, expect, it } from 'vitest';
import { inputs, lineOf, m, ruleSet, trade } from '../../../test/rule-inputs';
import { evaluateRules, ruleSetFromPreset, type RuleInput } from './index';

/** Trade-level rules (docs/rules.md, Personal rules): every trade beyond a limit is a break of its own. */

const START = '2026-01-05T08:00:00Z';
const at = (hour: number, date = '2026-01-05') => `${date}T${String(hour).padStart(2, '0')}:00:00Z`;

describe('personal rules', () => {
  it('max_trades_per_day 3: the 4th and 5th trades both break it; the next day counts again', () => {
    const rule: RuleInput = { kind: 'max_trades_per_day', effect: 'pause_until_reset', params: { max: 3 } };
    const trades = [9, 10, 11, 12, 13].map((h) =>
      trade(`t${h}`, at(h), at(h, '2026-01-05').replace(':00:00', ':30:00')),
    );
    trades.push(trade('next', at(9, '2026-01-06'), at(10, '2026-01-06')));
    const result = evaluateRules(ruleSet([rule], { startTime: START }), inputs({ trades }), at(8, '2026-01-06'));
    expect(result.breaks).toEqual([
      { tradeKey: 't12', kind: 'max_trades_per_day', time: '2026-01-05T12:00:00.000Z' },
      { tradeKey: 't13', kind: 'max_trades_per_day', time: '2026-01-05T13:00:00.000Z' },
    ]);
    expect(result.days[0]!.breaks).toEqual(['max_trades_per_day']);
    // The pause ends at the reset.
    expect(result.status.state).toBe('on_track');
    const later = evaluateRules(ruleSet([rule], { startTime: START }), inputs({ trades }), at(12, '2026-01-06'));
    expect(lineOf(later.status.rules, 'max_trades_per_day')).toMatchObject({ used: 1, remaining: 2, ok: true });
    const during = evaluateRules(ruleSet([rule], { startTime: START }), inputs({ trades }), at(14));
    expect(during.status.state).toBe('paused');
    expect(lineOf(during.status.rules, 'max_trades_per_day')).toMatchObject({ limit: 3, used: 5, ok: false });
  });

  it('max_risk_per_trade: the risk at the initial stop against 1 % of the balance at the open', () => {
    const rule: RuleInput = { kind: 'max_risk_per_trade', effect: 'fail', params: { pct: 1, basis: 'balance' } };
    const trades = [
      trade('win', at(9), at(10), '2000', { riskAtOpen: '1000' }),
      // 1 % of $102,000 is $1,020.
      trade('ok', at(11), at(12), '0', { riskAtOpen: '1020' }),
      trade('over', at(13), at(14), '0', { riskAtOpen: '1020.01' }),
      trade('no-stop', at(15), at(16), '0'),
    ];
    const result = evaluateRules(ruleSet([rule], { startTime: START }), inputs({ trades }), at(17));
    expect(result.breaks).toEqual([{ tradeKey: 'over', kind: 'max_risk_per_trade', time: '2026-01-05T13:00:00.000Z' }]);
    expect(result.status.breach).toEqual({ rule: 'max_risk_per_trade', time: '2026-01-05T13:00:00.000Z' });
    expect(lineOf(result.status.rules, 'max_risk_per_trade')).toMatchObject({
      limit: m('1020'),
      used: m('1020.01'),
      ok: false,
    });
    // Of the initial balance: $1,000, which the first trade uses whole.
    const ofInitial: RuleInput = { kind: 'max_risk_per_trade', effect: 'fail', params: { pct: 1, basis: 'initial' } };
    const strict = evaluateRules(ruleSet([ofInitial], { startTime: START }), inputs({ trades }), at(17));
    expect(strict.breaks.map((b) => b.tradeKey)).toEqual(['ok', 'over']);
  });

  it('max_consecutive_losses 2: the 3rd and 4th losses in a row break it; a win ends the run', () => {
    const rule: RuleInput = { kind: 'max_consecutive_losses', effect: 'fail', params: { max: 2 } };
    const results = ['-10', '-10', '-10', '-10', '5', '-10', '-10'];
    const trades = results.map((pnl, i) => trade(`t${i}`, at(9 + i), at(9 + i).replace(':00:00', ':30:00'), pnl));
    const result = evaluateRules(ruleSet([rule], { startTime: START }), inputs({ trades }), at(18));
    expect(result.breaks.map((b) => [b.tradeKey, b.time])).toEqual([
      ['t2', '2026-01-05T11:30:00.000Z'],
      ['t3', '2026-01-05T12:30:00.000Z'],
    ]);
    expect(lineOf(result.status.rules, 'max_consecutive_losses')).toMatchObject({ used: 2, remaining: 0 });
  });

  it('max_consecutive_losses with pause_until_reset starts again at each reset', () => {
    const rule: RuleInput = { kind: 'max_consecutive_losses', effect: 'pause_until_reset', params: { max: 1 } };
    const trades = [
      trade('a', at(9), at(10), '-10'),
      trade('b', at(9, '2026-01-06'), at(10, '2026-01-06'), '-10'),
      trade('c', at(11, '2026-01-06'), at(12, '2026-01-06'), '-10'),
    ];
    const result = evaluateRules(ruleSet([rule], { startTime: START }), inputs({ trades }), at(13, '2026-01-06'));
    expect(result.breaks.map((b) => b.tradeKey)).toEqual(['c']);
    expect(result.status.state).toBe('paused');
  });

  it('no_weekend_holding: a position open across Friday 17:00 New York breaks it, once per weekend', () => {
    const rule: RuleInput = { kind: 'no_weekend_holding', effect: 'fail', params: {} };
    const trades = [
      // Closed at 16:59 New York on Friday 9 January: in time.
      trade('closed', '2026-01-09T10:00:00Z', '2026-01-09T21:59:00Z', '10'),
      // Held over two weekends.
      trade('held', '2026-01-09T10:00:00Z', '2026-01-19T10:00:00Z', '10'),
      // Still open.
      trade('open', '2026-01-16T10:00:00Z', null),
    ];
    const result = evaluateRules(ruleSet([rule], { startTime: START }), inputs({ trades }), '2026-01-20T12:00:00Z');
    expect(result.breaks).toEqual([
      { tradeKey: 'held', kind: 'no_weekend_holding', time: '2026-01-09T22:00:00.000Z' },
      { tradeKey: 'held', kind: 'no_weekend_holding', time: '2026-01-16T22:00:00.000Z' },
      { tradeKey: 'open', kind: 'no_weekend_holding', time: '2026-01-16T22:00:00.000Z' },
    ]);
    expect(result.status.breach).toEqual({ rule: 'no_weekend_holding', time: '2026-01-09T22:00:00.000Z' });
    expect(lineOf(result.status.rules, 'no_weekend_holding')).toMatchObject({ used: 3, ok: false });
  });

  it('the personal preset: a 2 % daily loss on closed P/L pauses the day, the trade rules break per trade', () => {
    const set = ruleSetFromPreset('personal', { accountId: 'acc-1', startTime: START, initialBalance: '10000' });
    const result = evaluateRules(
      set,
      inputs({
        trades: [
          trade('a', at(9), at(10), '-150', { riskAtOpen: '90' }),
          trade('b', at(11), at(12), '-50', { riskAtOpen: '150' }),
        ],
        closedOnly: true,
      }),
      at(13),
    );
    // 2 % of $10,000 below the start is $9,800: reached at the second close.
    expect(result.status).toMatchObject({ state: 'paused', breach: null, equityBasis: 'closed-only' });
    expect(result.days[0]!.breakTimes.map((b) => [b.kind, b.time])).toEqual([
      ['max_risk_per_trade', '2026-01-05T11:00:00.000Z'],
      ['daily_loss', '2026-01-05T12:00:00.000Z'],
    ]);
    expect(result.breaks).toEqual([{ tradeKey: 'b', kind: 'max_risk_per_trade', time: '2026-01-05T11:00:00.000Z' }]);
  });
});
