import type { RuleKind, RuleLine, RuleOf } from '@pipsense/contract';
import { instantOf } from '../../../domain/calendar';
import { divideDecimals, multiplyDecimals, subtractDecimals } from '../../../domain/decimal';
import { minorUnitsOf } from '../../../domain/money';
import { money, percentOf, percentText, ratioPercent } from './amounts';
import { checkBestDay, NO_DAYS, withDay, type DayTotals } from './consistency';
import type { Run } from './evaluate';
import type { Rule, RuleSet, RuleTrade } from './types';

/**
 * One tracker per rule of a set: what the rule keeps between events and how it answers (docs/rules.md, Rules). The
 * pass (evaluate.ts) calls `startDay` at each reset, the event hooks as events come, `check` after every event,
 * `endDay` at a completed day's end, and `line` for the day record.
 */
export abstract class Tracker<K extends RuleKind = RuleKind> {
  readonly rule: RuleOf<K>;
  readonly index: number;
  /** A loss or conduct rule: it breaks. The others are objectives: met or not yet. */
  readonly breakable: boolean;
  brokenToday = false;
  brokenEver = false;
  /** The rule could not be decided at some moment (equity unknown): today, or ever. */
  undecidedToday = false;
  undecidedEver = false;

  constructor(rule: RuleOf<K>, index: number, breakable: boolean) {
    this.rule = rule;
    this.index = index;
    this.breakable = breakable;
  }

  get objective(): boolean {
    return !this.breakable;
  }

  startDay(_run: Run, _first: boolean): void {
    this.brokenToday = false;
    this.undecidedToday = false;
  }

  check(_run: Run): void {}
  booking?(run: Run, event: { minor: number; trade: RuleTrade | null; closes: boolean }): void;
  open?(run: Run, trade: RuleTrade): void;
  weekend?(run: Run, trade: RuleTrade): void;
  /** A withdrawal of `amount` (positive): a payout. */
  payout?(run: Run, amount: number): void;
  endDay?(run: Run): void;
  dayValues?(): { anchor: number | null; floor: number | null };

  /** The rule's floor now (trading terms), for the order of breaks at one instant; null: none. */
  currentFloor(_run: Run): number | null {
    return null;
  }

  /** Whether an objective holds now. */
  met(_run: Run): boolean {
    return false;
  }

  /**
   * What the tracker carries into the next day, as JSON (docs/rules.md, Status: stored records resume from it): its
   * own fields but the rule and what is made from it. `restore` puts it back on a fresh tracker of the same rule.
   */
  carried(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(this))
      if (!CONFIG_FIELDS.has(name)) out[name] = value instanceof Map ? { map: [...value.entries()] } : value;
    return structuredClone(out);
  }

  restore(state: Record<string, unknown>): void {
    for (const [name, value] of Object.entries(structuredClone(state))) {
      const current: unknown = (this as unknown as Record<string, unknown>)[name];
      if (current instanceof Map) {
        current.clear();
        for (const [k, v] of (value as { map: Array<[unknown, unknown]> }).map) current.set(k, v);
      } else (this as unknown as Record<string, unknown>)[name] = value;
    }
  }

  /** Marks the rule undecided at this moment (equity unknown). */
  undecided(): void {
    this.undecidedToday = true;
    this.undecidedEver = true;
  }

  /** fail: broken once is broken for good; pause_until_reset: broken today. null: could not be decided. */
  protected ok(run: Run): boolean | null {
    if (this.objective) return this.met(run);
    const fail = this.rule.effect === 'fail';
    if (fail ? this.brokenEver : this.brokenToday) return false;
    if (fail ? this.undecidedEver : this.undecidedToday) return null;
    return true;
  }

  abstract line(run: Run): RuleLine;

  protected moneyLine(
    run: Run,
    limit: number | null,
    used: number | null,
    remaining: number | null,
    floor: number | null,
  ): RuleLine {
    const text = (minor: number | null) => (minor === null ? null : money(minor));
    return {
      kind: this.rule.kind,
      unit: 'money',
      limit: text(limit),
      used: text(used),
      remaining: text(remaining),
      percentUsed: limit === null || used === null ? null : ratioPercent(used, limit),
      floor: floor === null ? null : run.shown(floor),
      ok: this.ok(run),
    };
  }

  protected countLine(run: Run, unit: 'count' | 'days', limit: number, used: number, remaining: number): RuleLine {
    return {
      kind: this.rule.kind,
      unit,
      limit,
      used,
      remaining,
      percentUsed: ratioPercent(used, limit),
      floor: null,
      ok: this.ok(run),
    };
  }
}

/** A tracker's fields made from its rule set: not carried. */
const CONFIG_FIELDS: ReadonlySet<string> = new Set(['rule', 'index', 'breakable', 'min', 'targetRule']);

/** `pct` % of the initial balance, or `amount`. */
function sizeOf(params: { pct?: number; amount?: string }, of: number): number {
  return params.amount !== undefined ? minorUnitsOf(params.amount) : percentOf(params.pct ?? 0, of);
}

/** The measure of a loss rule now, trading terms; null when unknown. Flags the rule undecided when unsure. */
function measureOf(run: Run, tracker: Tracker, measure: 'equity' | 'balance'): number | null {
  if (measure === 'balance') return run.account.balance;
  if (run.equityUnsure()) tracker.undecided();
  return run.account.equity;
}

const crossed = (value: number, floor: number, comparator: 'lt' | 'lte') =>
  comparator === 'lt' ? value < floor : value <= floor;

/**
 * Daily loss, docs/reference/prop-firms.md §8.3:
 *   anchor_d = f(B(R_d), E(R_d)) (day 1: I);  floor_d = anchor_d − pct × (I or anchor_d);
 *   breach at the first t of the day with measure(t) comparator floor_d;  remaining(t) = measure(t) − floor_d.
 */
class DailyLoss extends Tracker<'daily_loss'> {
  private anchor: number | null = null;
  private allowance: number | null = null;
  private floor: number | null = null;

  override startDay(run: Run, first: boolean): void {
    super.startDay(run, first);
    const { balance, equity } = run.account;
    const p = this.rule.params;
    if (first) this.anchor = run.account.initial;
    else if (p.anchor === 'start_balance') this.anchor = balance;
    else {
      if (run.equityUnsure()) this.undecided();
      if (equity === null) this.anchor = null;
      else this.anchor = p.anchor === 'max_start_balance_equity' ? Math.max(balance, equity) : equity;
    }
    this.setFloor(run);
  }

  private setFloor(run: Run): void {
    const p = this.rule.params;
    if (this.anchor === null) {
      this.allowance = null;
      this.floor = null;
      return;
    }
    // A percent of the anchor is of the balance the trader holds at the reset: with the balance operations since the
    // start (a payout leaves less to lose), while the anchor and floor stay in trading terms (docs/rules.md).
    this.allowance = sizeOf(
      p,
      p.allowanceBase === 'initial' ? run.account.initial : this.anchor + run.account.operations,
    );
    this.floor = this.anchor - this.allowance;
  }

  override check(run: Run): void {
    const p = this.rule.params;
    if (p.check !== 'continuous') return;
    const { equity } = run.account;
    if (p.anchor === 'intraday_peak_equity' && this.anchor !== null && equity !== null && equity > this.anchor) {
      this.anchor = equity;
      this.setFloor(run);
    }
    this.test(run);
  }

  override endDay(run: Run): void {
    if (this.rule.params.check === 'end_of_day') this.test(run);
  }

  private test(run: Run): void {
    const p = this.rule.params;
    const value = measureOf(run, this, p.measure);
    if (value === null || this.floor === null) return this.undecided();
    if (crossed(value, this.floor, p.comparator)) run.break(this, run.day.now);
  }

  override dayValues() {
    return { anchor: this.anchor, floor: this.floor };
  }

  override currentFloor(): number | null {
    return this.floor;
  }

  line(run: Run): RuleLine {
    const p = this.rule.params;
    const value = p.measure === 'balance' ? run.account.balance : run.account.equity;
    const remaining = value === null || this.floor === null ? null : value - this.floor;
    const used = remaining === null || this.allowance === null ? null : Math.max(0, this.allowance - remaining);
    return this.moneyLine(run, this.allowance, used, remaining, this.floor);
  }
}

/**
 * Maximum loss, docs/reference/prop-firms.md §8.4. The high-water mark `base` is kept on the account as the firm
 * sees it (payouts taken out); the floor is answered in the rules' trading terms, floor + payouts, so that a
 * payout left out of E still counts as the firm counts it.
 *   static: floor = I − A;  trail_eod_balance: max(I, B at each reset) − A;  trail_intraday_balance: max B − A;
 *   trail_intraday_equity: max E − A;  lock at_initial(o): min(HWM − A, I + o).
 */
class MaxLoss extends Tracker<'max_loss'> {
  private base = 0;
  private allowance = 0;

  override startDay(run: Run, first: boolean): void {
    super.startDay(run, first);
    const { account } = run;
    if (first) {
      this.base = account.initial;
      this.allowance = sizeOf(this.rule.params, account.initial);
    } else if (this.rule.params.mode === 'trail_eod_balance') {
      this.base = Math.max(this.base, account.balance - account.payouts);
    }
  }

  override booking(run: Run): void {
    if (this.rule.params.mode === 'trail_intraday_balance')
      this.base = Math.max(this.base, run.account.balance - run.account.payouts);
  }

  override payout(run: Run, amount: number): void {
    const { account } = run;
    switch (this.rule.params.payoutPolicy) {
      case 'keep_floor':
        break;
      case 'floor_from_balance':
        if (this.rule.params.mode !== 'static')
          this.base = Math.max(account.initial, account.balance - account.payouts);
        break;
      case 'reduce_hwm':
        this.base -= amount;
        break;
      case 'reset_on_new_account':
        this.base = account.initial;
        break;
    }
  }

  /** The floor in trading terms. */
  floor(run: Run): number {
    const p = this.rule.params;
    const trailing = this.base - this.allowance;
    const firm =
      p.lock === 'at_initial' ? Math.min(trailing, run.account.initial + minorUnitsOf(p.lockOffset)) : trailing;
    return firm + run.account.payouts;
  }

  override currentFloor(run: Run): number {
    return this.floor(run);
  }

  override check(run: Run): void {
    const p = this.rule.params;
    const { equity, payouts } = run.account;
    if (p.mode === 'trail_intraday_equity') {
      if (run.equityUnsure()) this.undecided();
      if (equity !== null) this.base = Math.max(this.base, equity - payouts);
    }
    const value = measureOf(run, this, p.measure);
    if (value === null) return this.undecided();
    if (crossed(value, this.floor(run), p.comparator)) run.break(this, run.day.now);
  }

  line(run: Run): RuleLine {
    const value = this.rule.params.measure === 'balance' ? run.account.balance : run.account.equity;
    const floor = this.floor(run);
    const remaining = value === null ? null : value - floor;
    const used = remaining === null ? null : Math.max(0, this.allowance - remaining);
    return this.moneyLine(run, this.allowance, used, remaining, floor);
  }
}

/** Profit target, §8.5: met when B − I ≥ target with every position closed; open profit never counts. */
class ProfitTarget extends Tracker<'profit_target'> {
  target(run: Run): number {
    return sizeOf(this.rule.params, run.account.initial);
  }

  override met(run: Run): boolean {
    return run.account.open === 0 && run.account.balance - run.account.initial >= this.target(run);
  }

  line(run: Run): RuleLine {
    const target = this.target(run);
    const made = run.account.balance - run.account.initial;
    return this.moneyLine(run, target, made, Math.max(0, target - made), null);
  }
}

/** An objective of at least `min` days of a kind. */
abstract class DaysAtLeast<K extends 'min_trading_days' | 'profitable_days'> extends Tracker<K> {
  protected abstract readonly min: number;
  abstract count(run: Run): number;

  override met(run: Run): boolean {
    return this.count(run) >= this.min;
  }

  line(run: Run): RuleLine {
    const { min } = this;
    const count = this.count(run);
    return this.countLine(run, 'days', min, count, Math.max(0, min - count));
  }
}

/** Minimum trading days, §8.6: distinct days by the rule's definition (the day records' `tradingDay`). */
class MinTradingDays extends DaysAtLeast<'min_trading_days'> {
  protected readonly min = this.rule.params.min;
  private before = 0;

  override startDay(run: Run, first: boolean): void {
    super.startDay(run, first);
    if (!first && run.previous?.tradingDay) this.before++;
  }

  count(run: Run): number {
    return this.before + (run.day.tradingDay ? 1 : 0);
  }
}

/** Consistency (best day), §8.7: each day's closed P/L; the current day's as it stands (an intraday pass). */
class Consistency extends Tracker<'consistency'> {
  private totals: DayTotals = NO_DAYS;
  private readonly targetRule: RuleOf<'profit_target'> | undefined;

  constructor(rule: RuleOf<'consistency'>, index: number, ruleSet: RuleSet) {
    super(rule, index, false);
    this.targetRule = ruleSet.rules.find((r): r is RuleOf<'profit_target'> => r.kind === 'profit_target');
  }

  override startDay(run: Run, first: boolean): void {
    super.startDay(run, first);
    if (!first && run.previous) this.totals = withDay(this.totals, run.previous.closedPL);
  }

  private now(run: Run) {
    const target = this.targetRule ? sizeOf(this.targetRule.params, run.account.initial) : 0;
    const p = this.rule.params;
    return checkBestDay(withDay(this.totals, run.day.closedPL), p.maxPct, p.denominator, target);
  }

  override met(run: Run): boolean {
    return this.now(run).ok;
  }

  line(run: Run): RuleLine {
    const check = this.now(run);
    const limit = percentText(this.rule.params.maxPct);
    const used = ratioPercent(check.best, check.denominator);
    return {
      kind: 'consistency',
      unit: 'percent',
      limit,
      used,
      remaining: used === null ? null : subtractDecimals(limit, used),
      percentUsed: used === null ? null : divideDecimals(multiplyDecimals(used, '100'), limit, 2),
      floor: null,
      ok: this.ok(run),
    };
  }
}

/** Profitable days, §8.6: days whose P/L reaches the threshold (a % of I) and is above 0 (§8.9, item 11). */
class ProfitableDays extends DaysAtLeast<'profitable_days'> {
  protected readonly min = this.rule.params.min;
  private before = 0;
  /** By the trades' open day (closed_by_open_day): the P/L of days that may still change (a trade of them open). */
  private readonly byOpenDay = new Map<number, number>();
  /** Positions open per open day (closed_by_open_day). */
  private readonly openByDay = new Map<number, number>();
  /** Open days that can no longer change (past, every trade of them closed) and qualified. */
  private settled = 0;

  private qualifies(run: Run, pnl: number): boolean {
    return pnl > 0 && pnl >= percentOf(this.rule.params.threshold, run.account.initial);
  }

  override startDay(run: Run, first: boolean): void {
    super.startDay(run, first);
    if (!first && run.previous && this.qualifies(run, run.previous.closedPL)) this.before++;
    // A past open day whose trades are all closed is final: counted once, then no longer kept.
    for (const [day, pnl] of this.byOpenDay)
      if (day < run.day.day && !this.openByDay.has(day)) {
        if (this.qualifies(run, pnl)) this.settled++;
        this.byOpenDay.delete(day);
      }
  }

  override open(run: Run, trade: RuleTrade): void {
    if (this.rule.params.pnlBasis !== 'closed_by_open_day') return;
    const day = run.boundary.dayOf(instantOf(trade.openTime));
    this.openByDay.set(day, (this.openByDay.get(day) ?? 0) + 1);
  }

  override booking(run: Run, event: { minor: number; trade: RuleTrade | null; closes: boolean }): void {
    if (this.rule.params.pnlBasis !== 'closed_by_open_day' || event.trade === null) return;
    const day = run.boundary.dayOf(instantOf(event.trade.openTime));
    this.byOpenDay.set(day, (this.byOpenDay.get(day) ?? 0) + event.minor);
    if (event.closes) {
      const open = (this.openByDay.get(day) ?? 0) - 1;
      if (open > 0) this.openByDay.set(day, open);
      else this.openByDay.delete(day);
    }
  }

  count(run: Run): number {
    if (this.rule.params.pnlBasis === 'closed_by_open_day')
      return this.settled + [...this.byOpenDay.values()].filter((pnl) => this.qualifies(run, pnl)).length;
    return this.before + (this.qualifies(run, run.day.closedPL) ? 1 : 0);
  }
}

/** Risk per trade, §8.8: the risk at the initial stop against pct of I or of the balance at the open. */
class MaxRiskPerTrade extends Tracker<'max_risk_per_trade'> {
  private largestToday = 0;

  override startDay(run: Run, first: boolean): void {
    super.startDay(run, first);
    this.largestToday = 0;
  }

  limit(run: Run): number {
    const p = this.rule.params;
    // The balance the trader holds at the open, balance operations included (docs/rules.md).
    return sizeOf(p, p.basis === 'initial' ? run.account.initial : run.account.balance + run.account.operations);
  }

  override open(run: Run, trade: RuleTrade): void {
    if (trade.riskAtOpen === null) return;
    const risk = minorUnitsOf(trade.riskAtOpen);
    this.largestToday = Math.max(this.largestToday, risk);
    if (risk > this.limit(run)) run.break(this, run.day.now, trade.key);
  }

  line(run: Run): RuleLine {
    const limit = this.limit(run);
    return this.moneyLine(run, limit, this.largestToday, limit - this.largestToday, null);
  }
}

/** Trades opened per day: every trade past `max` breaks the rule. */
class MaxTradesPerDay extends Tracker<'max_trades_per_day'> {
  private today = 0;

  override startDay(run: Run, first: boolean): void {
    super.startDay(run, first);
    this.today = 0;
  }

  override open(run: Run, trade: RuleTrade): void {
    this.today++;
    if (this.today > this.rule.params.max) run.break(this, run.day.now, trade.key);
  }

  line(run: Run): RuleLine {
    const { max } = this.rule.params;
    return this.countLine(run, 'count', max, this.today, Math.max(0, max - this.today));
  }
}

/**
 * Losing trades in a row, by close: every loss past `max` breaks the rule; a trade of 0 or more ends the run. With
 * pause_until_reset the run starts again at each reset, with fail it goes on across days.
 */
class MaxConsecutiveLosses extends Tracker<'max_consecutive_losses'> {
  private streak = 0;

  override startDay(run: Run, first: boolean): void {
    super.startDay(run, first);
    if (this.rule.effect === 'pause_until_reset') this.streak = 0;
  }

  override booking(run: Run, event: { trade: RuleTrade | null; closes: boolean }): void {
    if (event.trade === null || !event.closes) return;
    const exits = event.trade.exits;
    const result =
      exits && exits.length > 0
        ? exits.reduce((sum, exit) => sum + minorUnitsOf(exit.realizedPL), 0)
        : minorUnitsOf(event.trade.realizedPL);
    if (result >= 0) {
      this.streak = 0;
      return;
    }
    this.streak++;
    if (this.streak > this.rule.params.max) run.break(this, run.day.now, event.trade.key);
  }

  line(run: Run): RuleLine {
    const { max } = this.rule.params;
    return this.countLine(run, 'count', max, this.streak, Math.max(0, max - this.streak));
  }
}

/** A position open across the weekly close breaks the rule (§8.8, Weekend and market breaks). */
class NoWeekendHolding extends Tracker<'no_weekend_holding'> {
  private today = 0;
  private ever = 0;

  override startDay(run: Run, first: boolean): void {
    super.startDay(run, first);
    this.today = 0;
  }

  override weekend(run: Run, trade: RuleTrade): void {
    this.today++;
    this.ever++;
    run.break(this, run.day.now, trade.key);
  }

  line(run: Run): RuleLine {
    const held = this.rule.effect === 'fail' ? this.ever : this.today;
    return this.countLine(run, 'count', 0, held, 0);
  }
}

export function createTracker(rule: Rule, index: number, ruleSet: RuleSet): Tracker {
  switch (rule.kind) {
    case 'daily_loss':
      return new DailyLoss(rule, index, true);
    case 'max_loss':
      return new MaxLoss(rule, index, true);
    case 'profit_target':
      return new ProfitTarget(rule, index, false);
    case 'min_trading_days':
      return new MinTradingDays(rule, index, false);
    case 'consistency':
      return new Consistency(rule, index, ruleSet);
    case 'profitable_days':
      return new ProfitableDays(rule, index, false);
    case 'max_risk_per_trade':
      return new MaxRiskPerTrade(rule, index, true);
    case 'max_trades_per_day':
      return new MaxTradesPerDay(rule, index, true);
    case 'max_consecutive_losses':
      return new MaxConsecutiveLosses(rule, index, true);
    case 'no_weekend_holding':
      return new NoWeekendHolding(rule, index, true);
  }
}
