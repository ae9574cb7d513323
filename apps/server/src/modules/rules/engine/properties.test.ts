import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMinorUnits, minorUnitsOf } from '../../../domain/money';
import { inputs, point, ruleSet, trade } from '../../../test/rule-inputs';
import { evaluateRules, type RuleCashFlow, type RuleEvaluation, type RuleInput, type RuleTrade } from './index';

/**
 * Properties of the engine over generated accounts (fast-check): trailing floors never go down, the remaining loss
 * is the measure less the floor, and balance operations never change the P/L rules (docs/reference/prop-firms.md
 * §8.4, §8.3 and §8.9 item 6).
 */

const START_MS = Date.parse('2026-03-23T08:00:00Z'); // a week holding Prague's switch to summer time
const SPAN_MINUTES = 10 * 24 * 60;
const iso = (minutes: number) => new Date(START_MS + minutes * 60_000).toISOString();
const START = iso(0);
const END = iso(SPAN_MINUTES + 60);
/** Cents as an exact decimal string. */
const cents = (n: number) => formatMinorUnits(n * 100, 2);

const generatedTrade = fc.record({
  open: fc.integer({ min: 1, max: SPAN_MINUTES }),
  duration: fc.integer({ min: 1, max: 3 * 24 * 60 }),
  pnl: fc.integer({ min: -300_000, max: 300_000 }),
  risk: fc.option(fc.integer({ min: 0, max: 200_000 })),
  stillOpen: fc.boolean(),
});
type GeneratedTrade = typeof generatedTrade extends fc.Arbitrary<infer T> ? T : never;

const toTrades = (generated: GeneratedTrade[]): RuleTrade[] =>
  generated.map((g, i) =>
    trade(`t${i}`, iso(g.open), g.stillOpen ? null : iso(g.open + g.duration), cents(g.pnl), {
      riskAtOpen: g.risk === null ? null : cents(g.risk),
    }),
  );

const equityPoints = fc.array(
  fc.record({ at: fc.integer({ min: 0, max: SPAN_MINUTES }), equity: fc.integer({ min: 9_000_000, max: 11_000_000 }) }),
  { maxLength: 30 },
);

const operations = fc.array(
  fc.record({
    at: fc.integer({ min: 1, max: SPAN_MINUTES }),
    type: fc.constantFrom('deposit' as const, 'credit' as const, 'withdrawal' as const),
    amount: fc.integer({ min: 1, max: 2_000_000 }),
  }),
  { minLength: 1, maxLength: 6 },
);

type MaxLossParams = Extract<RuleInput, { kind: 'max_loss' }>['params'];

const maxLossRule = (mode: MaxLossParams['mode'], lock: MaxLossParams['lock'], lockOffset: string): RuleInput => ({
  kind: 'max_loss',
  effect: 'fail',
  params: { amount: '3000', mode, lock, lockOffset, resetTime: '00:00', zone: 'Europe/Prague' },
});

describe('rule engine properties', () => {
  it('trailing floors never go down, and once locked stay at the lock', () => {
    fc.assert(
      fc.property(
        fc.array(generatedTrade, { maxLength: 12 }),
        equityPoints,
        fc.constantFrom(
          'trail_eod_balance' as const,
          'trail_intraday_balance' as const,
          'trail_intraday_equity' as const,
        ),
        fc.constantFrom('none' as const, 'at_initial' as const),
        fc.constantFrom('0', '100'),
        fc.array(fc.integer({ min: 0, max: SPAN_MINUTES }), { minLength: 2, maxLength: 12 }),
        (generated, points, mode, lock, lockOffset, times) => {
          const set = ruleSet([maxLossRule(mode, lock, lockOffset)], { startTime: START });
          const data = inputs({
            trades: toTrades(generated),
            points: points.map((p) => point(iso(p.at), cents(p.equity))),
          });
          const lockLevel = minorUnitsOf('100000') + minorUnitsOf(lockOffset);
          let previous = -Infinity;
          let locked = false;
          for (const minutes of [...times].sort((a, b) => a - b)) {
            const line = evaluateRules(set, data, iso(minutes)).status.rules[0]!;
            const floor = minorUnitsOf(line.floor as string);
            expect(floor).toBeGreaterThanOrEqual(previous);
            if (locked) expect(floor).toBe(lockLevel);
            if (lock === 'at_initial' && floor === lockLevel) locked = true;
            if (lock === 'at_initial') expect(floor).toBeLessThanOrEqual(lockLevel);
            previous = floor;
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('the remaining loss is the measure less the floor, for every day and rule', () => {
    fc.assert(
      fc.property(
        fc.array(generatedTrade, { maxLength: 12 }),
        equityPoints,
        fc.constantFrom('start_balance', 'start_equity', 'max_start_balance_equity', 'intraday_peak_equity'),
        fc.constantFrom('equity', 'balance'),
        fc.constantFrom('static', 'trail_eod_balance', 'trail_intraday_balance', 'trail_intraday_equity'),
        (generated, points, anchor, measure, mode) => {
          const rules: RuleInput[] = [
            {
              kind: 'daily_loss',
              effect: 'pause_until_reset',
              params: { pct: 5, anchor, measure, zone: 'Europe/Prague' },
            },
            { kind: 'max_loss', effect: 'fail', params: { pct: 10, mode, measure } },
          ];
          const result = evaluateRules(
            ruleSet(rules, { startTime: START }),
            inputs({ trades: toTrades(generated), points: points.map((p) => point(iso(p.at), cents(p.equity))) }),
            END,
          );
          for (const day of result.days) {
            const value = measure === 'equity' ? day.endEquity : day.endBalance;
            for (const line of day.lines) {
              if (line.unit !== 'money' || line.floor === null || value === null) continue;
              expect(minorUnitsOf(line.remaining!)).toBe(minorUnitsOf(value) - minorUnitsOf(line.floor));
            }
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  /** What the P/L rules answer, without the amounts that read in the account's own terms (floors, balances). */
  const pnlView = (result: RuleEvaluation) => ({
    state: result.status.state,
    breach: result.status.breach,
    passedAt: result.status.passedAt,
    tradingDays: result.status.tradingDays,
    breaks: result.breaks,
    rules: result.status.rules.map(({ floor: _floor, ...line }) => line),
    today: result.status.today.remaining,
    days: result.days.map((d) => ({
      closedPL: d.closedPL,
      tradingDay: d.tradingDay,
      breakTimes: d.breakTimes,
      passedAt: d.passedAt,
      lines: d.lines.map(({ floor: _floor, ...line }) => line),
    })),
  });

  it('balance operations never change the P/L rules', () => {
    fc.assert(
      fc.property(fc.array(generatedTrade, { maxLength: 12 }), equityPoints, operations, (generated, points, ops) => {
        const rules: RuleInput[] = [
          { kind: 'profit_target', effect: 'fail', params: { pct: 3 } },
          { kind: 'daily_loss', effect: 'fail', params: { pct: 2, zone: 'Europe/Prague' } },
          {
            kind: 'max_loss',
            effect: 'fail',
            params: { pct: 4, mode: 'trail_eod_balance', payoutPolicy: 'reduce_hwm' },
          },
          { kind: 'min_trading_days', effect: 'fail', params: { min: 2 } },
          { kind: 'consistency', effect: 'fail', params: { maxPct: 60 } },
          { kind: 'profitable_days', effect: 'fail', params: { min: 1, threshold: 0.5 } },
          { kind: 'max_risk_per_trade', effect: 'pause_until_reset', params: { pct: 1, basis: 'initial' } },
          { kind: 'max_trades_per_day', effect: 'pause_until_reset', params: { max: 2 } },
        ];
        const set = ruleSet(rules, { startTime: START });
        const trades = toTrades(generated);
        const flows: RuleCashFlow[] = ops.map((o) => ({
          time: iso(o.at),
          type: o.type,
          amount: cents(o.type === 'withdrawal' ? -o.amount : o.amount),
        }));
        // The equity the money module reports includes every operation booked by then.
        const opsUntil = (minutes: number) =>
          ops
            .filter((o) => o.at <= minutes)
            .reduce((sum, o) => sum + (o.type === 'withdrawal' ? -o.amount : o.amount), 0);
        const without = evaluateRules(
          set,
          inputs({ trades, points: points.map((p) => point(iso(p.at), cents(p.equity))) }),
          END,
        );
        const withOps = evaluateRules(
          set,
          inputs({
            trades,
            cashFlows: flows,
            points: points.map((p) => point(iso(p.at), cents(p.equity + opsUntil(p.at)))),
          }),
          END,
        );
        expect(pnlView(withOps)).toEqual(pnlView(without));
      }),
      { numRuns: 80 },
    );
  });
});
