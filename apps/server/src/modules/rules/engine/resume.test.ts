import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMinorUnits } from '../../../domain/money';
import { inputs, point, ruleSet, trade } from '../../../test/rule-inputs';
import { evaluateRules, type RuleCarriedState, type RuleCashFlow, type RuleInput, type RuleTrade } from './index';

/**
 * A pass resumed from the state carried into any day (docs/rules.md, Status: what stored day records resume from)
 * answers what the whole pass answers: the same days, breaks and status, for rule sets of every kind.
 */

const START_MS = Date.parse('2026-03-23T08:00:00Z'); // a week holding Prague's switch to summer time
const SPAN_MINUTES = 12 * 24 * 60;
const iso = (minutes: number) => new Date(START_MS + minutes * 60_000).toISOString();
const START = iso(0);
const cents = (n: number) => formatMinorUnits(n * 100, 2);

/** Times on whole hours often: a reset instant (Prague midnight, New York 17:00) is one of them. */
const minute = fc.oneof(
  fc.integer({ min: 1, max: SPAN_MINUTES }),
  fc.integer({ min: 1, max: SPAN_MINUTES / 60 }).map((h) => h * 60),
);

const generatedTrade = fc.record({
  open: minute,
  duration: fc.oneof(fc.integer({ min: 1, max: 4 * 24 * 60 }), fc.constant(24 * 60)),
  pnl: fc.integer({ min: -400_000, max: 300_000 }),
  risk: fc.option(fc.integer({ min: 0, max: 200_000 })),
  stillOpen: fc.boolean(),
  partial: fc.option(fc.integer({ min: -100_000, max: 100_000 })),
});
type GeneratedTrade = typeof generatedTrade extends fc.Arbitrary<infer T> ? T : never;

const toTrades = (generated: GeneratedTrade[]): RuleTrade[] =>
  generated.map((g, i) => {
    const close = g.stillOpen ? null : iso(g.open + g.duration);
    const more: Partial<RuleTrade> = { riskAtOpen: g.risk === null ? null : cents(g.risk) };
    // A partial close half-way, then the rest at the close (or still open).
    if (g.partial !== null) {
      const half = iso(g.open + Math.max(1, Math.floor(g.duration / 2)));
      more.exits = [{ time: half, realizedPL: cents(g.partial) }];
      if (close !== null) more.exits.push({ time: close, realizedPL: cents(g.pnl - g.partial) });
    }
    return trade(`t${i}`, iso(g.open), close, cents(g.pnl), more);
  });

const flows = fc.array(
  fc.record({
    at: minute,
    type: fc.constantFrom('deposit' as const, 'withdrawal' as const, 'fee' as const, 'financing' as const),
    amount: fc.integer({ min: 1, max: 500_000 }),
  }),
  { maxLength: 5 },
);

const points = fc.array(
  fc.record({ at: minute, equity: fc.option(fc.integer({ min: 8_500_000, max: 11_000_000 }), { freq: 8 }) }),
  { maxLength: 25 },
);

const effect = fc.constantFrom('fail' as const, 'pause_until_reset' as const);

/** A set of every kind, its options drawn. */
const rules = fc
  .record({
    zone: fc.constantFrom('Europe/Prague', 'America/New_York', 'UTC'),
    resetTime: fc.constantFrom('00:00', '17:00'),
    anchor: fc.constantFrom('start_balance', 'start_equity', 'max_start_balance_equity', 'intraday_peak_equity'),
    measure: fc.constantFrom('equity' as const, 'balance' as const),
    check: fc.constantFrom('continuous' as const, 'end_of_day' as const),
    bookingAtReset: fc.constantFrom('in_anchor' as const, 'after_anchor' as const),
    mode: fc.constantFrom('static', 'trail_eod_balance', 'trail_intraday_balance', 'trail_intraday_equity'),
    lock: fc.constantFrom('none' as const, 'at_initial' as const),
    payoutPolicy: fc.constantFrom('keep_floor', 'floor_from_balance', 'reduce_hwm', 'reset_on_new_account'),
    dayRule: fc.constantFrom('opened', 'opened_or_closed', 'nonzero_pnl', 'open_and_close_same_day'),
    denominator: fc.constantFrom('positive_days_sum', 'net_total', 'max_target_net_total'),
    pnlBasis: fc.constantFrom('closed_on_day' as const, 'closed_by_open_day' as const),
    effects: fc.array(effect, { minLength: 6, maxLength: 6 }),
  })
  .map((o): RuleInput[] => [
    {
      kind: 'daily_loss',
      effect: o.effects[0]!,
      params: {
        pct: 2,
        anchor: o.anchor,
        measure: o.measure,
        check: o.check,
        bookingAtReset: o.bookingAtReset,
        zone: o.zone,
        resetTime: o.resetTime,
      },
    },
    {
      kind: 'max_loss',
      effect: o.effects[1]!,
      params: { pct: 5, mode: o.mode, lock: o.lock, payoutPolicy: o.payoutPolicy },
    },
    { kind: 'profit_target', effect: 'fail', params: { pct: 2 } },
    { kind: 'min_trading_days', effect: 'fail', params: { min: 3, rule: o.dayRule } },
    { kind: 'consistency', effect: 'fail', params: { maxPct: 50, denominator: o.denominator } },
    { kind: 'profitable_days', effect: 'fail', params: { min: 2, threshold: 0.5, pnlBasis: o.pnlBasis } },
    { kind: 'max_risk_per_trade', effect: o.effects[2]!, params: { pct: 1 } },
    { kind: 'max_trades_per_day', effect: o.effects[3]!, params: { max: 2 } },
    { kind: 'max_consecutive_losses', effect: o.effects[4]!, params: { max: 2 } },
    { kind: 'no_weekend_holding', effect: o.effects[5]!, params: {} },
  ]);

describe('a pass resumed from a carried state', () => {
  it('answers the same days, breaks and status as the whole pass, from any day', () => {
    fc.assert(
      fc.property(
        fc.array(generatedTrade, { maxLength: 14 }),
        flows,
        points,
        rules,
        fc.boolean(),
        fc.integer({ min: 60, max: SPAN_MINUTES + 600 }),
        (generated, cash, equity, set, closedOnly, atMinutes) => {
          const data = inputs({
            trades: toTrades(generated),
            cashFlows: cash.map((f): RuleCashFlow => ({
              time: iso(f.at),
              type: f.type,
              amount: cents(f.type === 'withdrawal' || f.type === 'fee' ? -f.amount : f.amount),
            })),
            points: equity.map((p) => point(iso(p.at), p.equity === null ? null : cents(p.equity))),
            closedOnly,
          });
          const rs = ruleSet(set, { startTime: START });
          const at = iso(atMinutes);
          const whole = evaluateRules(rs, data, at, { carry: true });
          const plain = evaluateRules(rs, data, at);
          expect({ status: whole.status, days: whole.days, breaks: whole.breaks }).toEqual(plain);
          const carried = whole.carried!;
          expect(carried).toHaveLength(whole.days.length);
          for (let i = 1; i < whole.days.length; i++) {
            // As stored: through JSON.
            const state = JSON.parse(JSON.stringify(carried[i])) as RuleCarriedState;
            const before = JSON.parse(JSON.stringify(whole.days.slice(0, i))) as typeof whole.days;
            const breaks = whole.breaks.slice(0, whole.breakCounts![i - 1]);
            const resumed = evaluateRules(rs, data, at, { resumeFrom: { state, days: before, breaks }, carry: true });
            expect(resumed.days).toEqual(whole.days);
            expect(resumed.breaks).toEqual(whole.breaks);
            expect(resumed.status).toEqual(whole.status);
            expect(resumed.breakCounts).toEqual(whole.breakCounts!.slice(i));
            expect(JSON.parse(JSON.stringify(resumed.carried))).toEqual(JSON.parse(JSON.stringify(carried.slice(i))));
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
