import { ruleSetSchema } from '@pipsense/contract';
import { instantOf, weekdayOfDay } from '../../../domain/calendar';
import { minorUnitsOf } from '../../../domain/money';
import { money } from './amounts';
import { DayBoundary } from './day-boundary';
import { foldStatus } from './status';
import { createTracker, type Tracker } from './trackers';
import type {
  DayRecord,
  RuleBreak,
  RuleCashFlowType,
  RuleEvaluation,
  RuleInputs,
  RuleSet,
  RuleSetInput,
  RuleTrade,
} from './types';

/**
 * The rule engine: (rule set, inputs, at) → {status, days, breaks}, docs/rules.md. Pure: no database, no clock.
 *
 * One pass over the account's events in time order, day by day (docs/reference/prop-firms.md §8.2): at each reset
 * the day's anchors and floors are taken, then every booking, open and equity reading is applied and every rule
 * checked against it. Each day ends in a record holding what the status needs (its rules' lines, breaks and
 * times), so the status is a fold over the day records (status.ts): stored records answer without the trades.
 *
 * The amounts are the rules' own account (§8.1): the trading balance B = I + Σ P/L booked since the start, and the
 * trading equity E = B + the open positions' P/L, both in exact minor units (domain/money.ts). Balance operations
 * (deposits, withdrawals, credits) never enter them (§8.9, item 6); a withdrawal is a payout, which moves only the
 * maximum-loss floor, by its payoutPolicy.
 */

/** Cash flows that are not trading P/L: money brought in or taken out (as in docs/money.md, Returns). */
const BALANCE_OPERATIONS: ReadonlySet<RuleCashFlowType> = new Set(['deposit', 'withdrawal', 'credit']);

/** The weekly close of the forex market: Friday 17:00 New York (docs/rules.md, no_weekend_holding). */
const WEEKLY_CLOSE = new DayBoundary('17:00', 'America/New_York');
const FRIDAY = 5;

type Event =
  /** A trade's exit or a P/L cash flow (financing, fee, adjustment). */
  | { at: number; rank: 0; type: 'booking'; minor: number; trade: RuleTrade | null; closes: boolean }
  | { at: number; rank: 0; type: 'operation'; minor: number; flow: RuleCashFlowType }
  | { at: number; rank: 1; type: 'open'; trade: RuleTrade }
  /** The account's equity as the money module reports it (operations included), minor units; null unknown. */
  | { at: number; rank: 2; type: 'point'; minor: number | null }
  | { at: number; rank: 3; type: 'weekend'; trade: RuleTrade };

/** The rule set's day boundary: the first rule naming a reset time or zone (the contract makes the others agree). */
export function boundaryOf(ruleSet: Pick<RuleSet, 'rules'>): DayBoundary {
  let resetTime: string | undefined;
  let zone: string | undefined;
  for (const rule of ruleSet.rules) {
    const params = rule.params as { resetTime?: string; zone?: string };
    resetTime ??= params.resetTime;
    zone ??= params.zone;
  }
  return new DayBoundary(resetTime ?? '00:00', zone ?? 'UTC');
}

const NO_EXITS: Array<{ at: number; minor: number }> = [];

/** The trades' exits: each partial close on its own time, else the one booking at the close. */
function exitsOf(trade: RuleTrade): Array<{ at: number; minor: number }> {
  if (trade.exits && trade.exits.length > 0)
    return trade.exits.map((exit) => ({ at: instantOf(exit.time), minor: minorUnitsOf(exit.realizedPL) }));
  if (trade.closeTime === null) return NO_EXITS;
  return [{ at: instantOf(trade.closeTime), minor: minorUnitsOf(trade.realizedPL) }];
}

/** Each weekly close (Friday 17:00 New York) a position is open across: opened before it, still open after it. */
function weeklyClosesHeld(open: number, close: number | null, until: number): number[] {
  const end = close === null ? until : Math.min(close, until);
  const out: number[] = [];
  for (let day = WEEKLY_CLOSE.dayOf(open); ; day++) {
    const at = WEEKLY_CLOSE.resetOf(day);
    if (at > end || (close !== null && at >= close)) break;
    if (weekdayOfDay(day) === FRIDAY && at > open) out.push(at);
  }
  return out;
}

/**
 * The events of the pass from `from` on (the start of the day a resumed pass begins with; −Infinity for a whole
 * one): a booking or operation at `from` itself belongs to the day before when the next anchor includes it.
 */
function eventsOf(
  ruleSet: RuleSet,
  inputs: RuleInputs,
  start: number,
  at: number,
  from = Number.NEGATIVE_INFINITY,
  inAnchor = true,
): Event[] {
  const all: Event[] = [];
  /** Every event in one shape (one hidden class: the sort and the pass read them fast). */
  const push = (
    at: number,
    rank: Event['rank'],
    type: Event['type'],
    minor: number | null,
    trade: RuleTrade | null,
    closes: boolean,
    flow: RuleCashFlowType | null,
  ) => {
    if (at < from || (at === from && inAnchor && (type === 'booking' || type === 'operation'))) return;
    all.push({ at, rank, type, minor, trade, closes, flow } as Event);
  };
  const weekends = ruleSet.rules.some((r) => r.kind === 'no_weekend_holding');
  for (const trade of inputs.trades) {
    const opened = instantOf(trade.openTime);
    // A phase starts flat: a position opened before it belongs to the account's earlier life.
    if (opened < start || opened > at) continue;
    const close = trade.closeTime === null ? null : instantOf(trade.closeTime);
    // Done before a resumed pass begins: nothing of it is left to apply.
    if (opened < from && close !== null && close < from && !trade.exits?.length) continue;
    push(opened, 1, 'open', null, trade, false, null);
    const exits = exitsOf(trade);
    for (let i = 0; i < exits.length; i++) {
      const exit = exits[i]!;
      const closes = i === exits.length - 1 && close !== null;
      if (exit.at <= at) push(exit.at, 0, 'booking', exit.minor, trade, closes, null);
    }
    if (weekends) for (const w of weeklyClosesHeld(opened, close, at)) push(w, 3, 'weekend', null, trade, false, null);
  }
  for (const flow of inputs.cashFlows) {
    const time = instantOf(flow.time);
    // Operations up to the start fund the initial balance (an MT statement's initial deposit row is I: §8.9, 12).
    if (time <= start || time > at) continue;
    const minor = minorUnitsOf(flow.amount);
    if (BALANCE_OPERATIONS.has(flow.type)) push(time, 0, 'operation', minor, null, false, flow.type);
    else push(time, 0, 'booking', minor, null, false, null);
  }
  if (!inputs.equity.equityUnknown) {
    for (const point of inputs.equity.points) {
      const time = instantOf(point.time);
      if (time < start || time > at) continue;
      push(time, 2, 'point', point.equity === null ? null : minorUnitsOf(point.equity), null, false, null);
    }
  }
  // Stable: among equal times and ranks the input order stays.
  return all.sort((a, b) => a.at - b.at || a.rank - b.rank);
}

/** The trading account as the rules see it, at the moment of the pass. */
export interface Account {
  /** I, minor units. */
  readonly initial: number;
  /**
   * The trading balance B (I + P/L booked since the start). The answers add the balance operations since the start
   * (`operations`), so that floors and balances read as the account's own, next to the money module's equity.
   */
  balance: number;
  /** The trading equity E, or null while it is unknown. */
  equity: number | null;
  /** Open positions. */
  open: number;
  /** Payouts (withdrawals) since the start, positive. */
  payouts: number;
  /** Σ of the balance operations since the start: an equity reading less these is the trading equity. */
  operations: number;
}

/** What a day collects while it runs; becomes a DayRecord. */
export interface DayState {
  day: number;
  start: number;
  end: number;
  /** The instant the pass is at. */
  now: number;
  startBalance: number;
  /** The balance operations since the start, at the reset: the day's anchor reads in these terms. */
  operationsAtStart: number;
  closedPL: number;
  tradingDay: boolean;
  lowestEquity: number | null;
  equityKnown: boolean;
  breaks: DayRecord['breaks'];
  breakTimes: DayRecord['breakTimes'];
  passedAt: number | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * What a pass carries into a day (docs/rules.md, Status): the account, the day before (its closed P/L and trading
 * day), the first fail and pass, and each rule's tracker (a losing streak, the open-day P/L of `closed_by_open_day`,
 * a trailing high-water mark, …). JSON: stored beside the day's record, a pass resumes from it.
 */
export interface RuleCarriedState {
  /** The day about to begin (days since 1970-01-01, local dates). */
  day: number;
  account: Omit<Account, 'initial'>;
  previousDay: DayState;
  failedAt: number | null;
  passedAt: number | null;
  trackers: Array<Record<string, unknown>>;
}

/** Where a pass resumes: the state carried into a day, and the records and trade breaks of the days before it. */
interface RuleResume {
  state: RuleCarriedState;
  days: readonly DayRecord[];
  breaks: readonly RuleBreak[];
}

interface EvaluateOptions {
  /** Resume from a stored carried state instead of the start: the answer equals a whole pass's. */
  resumeFrom?: RuleResume | undefined;
  /**
   * Also answer the state carried into each day evaluated (`carried[i]` for the i-th day evaluated; null for the set's
   * first day) and how many trade breaks there were at each such day's end (`breakCounts[i]`).
   */
  carry?: boolean | undefined;
}

/** A pass's answer, with what `carry` asks for. */
export type CarriedEvaluation = RuleEvaluation & {
  carried?: Array<RuleCarriedState | null>;
  breakCounts?: number[];
};

/** The pass over one rule set's events; the trackers (trackers.ts) read and break through it. */
export class Run {
  readonly ruleSet: RuleSet;
  readonly account: Account;
  readonly boundary: DayBoundary;
  /** The money module's equityComplete: false makes every moment with a position open undecided. */
  readonly equityComplete: boolean;
  readonly closedOnly: boolean;
  readonly trackers: Tracker[];
  /** The trackers that check at every moment (the loss rules), in the set's order. */
  private readonly checked: Tracker[];
  /** The objectives, for a pass. */
  private readonly objectives: Tracker[];
  readonly tradeBreaks: RuleBreak[] = [];
  readonly records: DayRecord[] = [];
  day!: DayState;
  /** The day before the current one (null on the first). */
  previous: DayState | null = null;
  failedAt: number | null = null;
  passedAt: number | null = null;
  private readonly tradingDayRule: 'opened' | 'opened_or_closed' | 'nonzero_pnl' | 'open_and_close_same_day';

  constructor(ruleSet: RuleSet, inputs: RuleInputs) {
    this.ruleSet = ruleSet;
    const initial = minorUnitsOf(ruleSet.initialBalance);
    this.account = { initial, balance: initial, equity: initial, open: 0, payouts: 0, operations: 0 };
    this.boundary = boundaryOf(ruleSet);
    this.equityComplete = inputs.equity.equityComplete && !inputs.equity.equityUnknown;
    this.closedOnly = inputs.equity.equityUnknown;
    this.trackers = ruleSet.rules.map((rule, index) => createTracker(rule, index, ruleSet));
    this.checked = this.trackers.filter((t) => t.rule.kind === 'daily_loss' || t.rule.kind === 'max_loss');
    this.objectives = this.trackers.filter((t) => t.objective);
    const days = ruleSet.rules.find((r) => r.kind === 'min_trading_days');
    this.tradingDayRule = days?.kind === 'min_trading_days' ? days.params.rule : 'opened';
  }

  /** What the pass carries into the day it is about to begin (JSON): see `RuleCarriedState`. */
  carried(day: number): RuleCarriedState {
    return structuredClone({
      day,
      account: { ...this.account },
      previousDay: this.day,
      failedAt: this.failedAt,
      passedAt: this.passedAt,
      trackers: this.trackers.map((t) => t.carried()),
    });
  }

  /** Takes up a pass where `carried` left it. */
  restore(state: RuleCarriedState): void {
    const copy = structuredClone(state);
    Object.assign(this.account, copy.account);
    this.day = copy.previousDay;
    this.failedAt = copy.failedAt;
    this.passedAt = copy.passedAt;
    this.trackers.forEach((t, i) => t.restore(copy.trackers[i] ?? {}));
  }

  /** Whether the equity at this moment is a guess or unknown (docs/reference/prop-firms.md §8.9, item 9). */
  equityUnsure(): boolean {
    return this.account.equity === null || (this.account.open > 0 && !this.equityComplete);
  }

  /** A rule broken at `at`, by a trade (tradeKey) or by the account. */
  break(tracker: Tracker, at: number, tradeKey: string | null = null): void {
    const fail = tracker.rule.effect === 'fail';
    if (tradeKey === null && (fail ? tracker.brokenEver : tracker.brokenToday)) return;
    const { kind } = tracker.rule;
    const time = iso(at);
    if (tradeKey !== null) this.tradeBreaks.push({ tradeKey, kind, time });
    if (!this.day.breaks.includes(kind)) this.day.breaks.push(kind);
    if (!this.day.breakTimes.some((b) => b.index === tracker.index))
      this.day.breakTimes.push({ kind, index: tracker.index, time });
    tracker.brokenToday = true;
    tracker.brokenEver = true;
    if (fail && tracker.breakable) this.failedAt ??= at;
  }

  markTradingDay(kind: 'open' | 'exit' | 'close', minor: number): void {
    const rule = this.tradingDayRule;
    if (
      (rule === 'opened' && kind === 'open') ||
      rule === 'opened_or_closed' ||
      (rule === 'nonzero_pnl' && kind !== 'open' && minor !== 0) ||
      (rule === 'open_and_close_same_day' && kind === 'close')
    )
      this.day.tradingDay = true;
  }

  /** An amount of the rules' trading terms in the account's own terms: with the balance operations since the start. */
  shown(minor: number): string {
    return money(minor + this.account.operations);
  }

  private observe(): void {
    const { equity, operations } = this.account;
    if (this.equityUnsure()) this.day.equityKnown = false;
    if (equity !== null && (this.day.lowestEquity === null || equity + operations < this.day.lowestEquity))
      this.day.lowestEquity = equity + operations;
    // Floors crossed by one move: the higher floor was hit first, its rule breaks first (§8.9, item 8). Only the
    // loss rules check at every moment (the others answer to their events): they are ordered, stably.
    const order = this.checked;
    if (order.length === 2) {
      const [a, b] = order as [Tracker, Tracker];
      const first = (b.currentFloor(this) ?? -Infinity) > (a.currentFloor(this) ?? -Infinity) ? b : a;
      first.check(this);
      (first === a ? b : a).check(this);
    } else if (order.length > 2) {
      const floors = order.map((t) => t.currentFloor(this) ?? -Infinity);
      const sorted = order.map((t, i) => ({ t, floor: floors[i]!, i }));
      sorted.sort((a, b) => b.floor - a.floor || a.i - b.i);
      for (const { t } of sorted) t.check(this);
    } else for (const tracker of order) tracker.check(this);
  }

  beginDay(day: number, first: boolean, start: number, pending: Event[]): Event[] {
    const dayStart = this.boundary.resetOf(day);
    const now = first ? start : dayStart;
    // Equity read at the reset itself is the equity the reset snapshots.
    const atReset = (event: Event) => event.at === dayStart && event.type === 'point';
    for (const event of pending) if (atReset(event)) this.apply(event);
    const rest = pending.filter((event) => !atReset(event));
    if (!first) this.previous = this.day;
    this.day = {
      day,
      start: dayStart,
      end: this.boundary.resetOf(day + 1),
      now,
      startBalance: this.account.balance + this.account.operations,
      operationsAtStart: this.account.operations,
      closedPL: 0,
      tradingDay: false,
      lowestEquity: null,
      equityKnown: true,
      breaks: [],
      breakTimes: [],
      passedAt: null,
    };
    for (const tracker of this.trackers) tracker.startDay(this, first);
    // The new floors hold from the reset on: equity already below one breaks at the reset itself (§8.9, item 3).
    this.observe();
    return rest;
  }

  apply(event: Event): void {
    const account = this.account;
    switch (event.type) {
      case 'booking':
        account.balance += event.minor;
        this.day.closedPL += event.minor;
        if (event.trade !== null) {
          if (event.closes) account.open--;
          this.markTradingDay(event.closes ? 'close' : 'exit', event.minor);
        }
        if (account.open === 0) account.equity = account.balance;
        // Equity between readings: an exit turns open P/L into balance (E goes on), a cost moves both at once.
        else if (event.trade === null && account.equity !== null) account.equity += event.minor;
        break;
      case 'operation':
        account.operations += event.minor;
        if (event.flow === 'withdrawal') {
          account.payouts -= event.minor;
          for (const tracker of this.trackers) tracker.payout?.(this, -event.minor);
        }
        break;
      case 'open':
        account.open++;
        if (this.closedOnly) account.equity = null;
        this.markTradingDay('open', 0);
        break;
      case 'point':
        if (account.open === 0) account.equity = account.balance;
        else account.equity = event.minor === null ? null : event.minor - account.operations;
        break;
      case 'weekend':
        break;
    }
  }

  step(event: Event): void {
    this.day.now = event.at;
    this.apply(event);
    for (const tracker of this.trackers) {
      if (event.type === 'booking') tracker.booking?.(this, event);
      else if (event.type === 'open') tracker.open?.(this, event.trade);
      else if (event.type === 'weekend') tracker.weekend?.(this, event.trade);
    }
    this.observe();
    if (event.type === 'booking') this.tryPass();
  }

  /**
   * A phase passes at the first moment its objectives hold at once, every position closed and nothing broken
   * (docs/reference/prop-firms.md §8.5: FTMO's "satisfy all… concurrently"); only a rule set with a profit target
   * passes.
   */
  private tryPass(): void {
    if (this.passedAt !== null || this.failedAt !== null || this.account.open > 0) return;
    const objectives = this.objectives;
    if (!objectives.some((t) => t.rule.kind === 'profit_target')) return;
    if (objectives.every((t) => t.met(this))) {
      this.passedAt = this.day.now;
      this.day.passedAt = this.day.now;
    }
  }

  endDay(complete: boolean): void {
    if (complete) {
      this.day.now = this.day.end;
      for (const tracker of this.trackers) tracker.endDay?.(this);
    }
    const day = this.day;
    this.records.push({
      date: this.boundary.dateOf(day.day),
      start: iso(day.start),
      end: iso(day.end),
      ...this.dailyAnchor(),
      lowestEquity: day.equityKnown && day.lowestEquity !== null ? money(day.lowestEquity) : null,
      closedPL: money(day.closedPL),
      tradingDay: day.tradingDay,
      breaks: day.breaks,
      breakTimes: day.breakTimes,
      startBalance: money(day.startBalance),
      endBalance: this.shown(this.account.balance),
      endEquity: this.account.equity === null ? null : this.shown(this.account.equity),
      equityKnown: day.equityKnown,
      passedAt: day.passedAt === null ? null : iso(day.passedAt),
      lines: this.trackers.map((tracker) => tracker.line(this)),
    });
  }

  /**
   * The first daily-loss rule's anchor and floor, for the day record, in the account's terms: the anchor as the day
   * started (a withdrawal later that day does not move what the day started from), the floor as the day ends (a
   * withdrawal moves it down with the balance, so it reads beside the day's balances and lowest equity).
   */
  private dailyAnchor(): { anchor: string | null; floor: string | null } {
    const daily = this.trackers.find((t) => t.rule.kind === 'daily_loss');
    const values = daily?.dayValues?.() ?? { anchor: null, floor: null };
    return {
      anchor: values.anchor === null ? null : money(values.anchor + this.day.operationsAtStart),
      floor: values.floor === null ? null : this.shown(values.floor),
    };
  }
}

/**
 * Evaluates a rule set at `at` (UTC ISO-8601): the status, one record per day from the start's day to `at`'s, and
 * the breaks of trade-level rules. The rule set is checked and completed by the contract's schema (its defaults);
 * an invalid one throws its ZodError.
 */
export function evaluateRules(
  input: RuleSetInput,
  inputs: RuleInputs,
  atText: string,
  options: EvaluateOptions = {},
): CarriedEvaluation {
  const ruleSet = ruleSetSchema.parse(input);
  const start = instantOf(ruleSet.startTime);
  const at = instantOf(atText);
  if (Number.isNaN(at)) throw new RangeError(`at is not a time: ${atText}`);
  if (at < start) throw new RangeError(`at (${atText}) is before the rule set starts (${ruleSet.startTime})`);
  const run = new Run(ruleSet, inputs);
  const boundary = run.boundary;
  const inAnchor = !ruleSet.rules.some((r) => r.kind === 'daily_loss' && r.params.bookingAtReset === 'after_anchor');

  const first = boundary.dayOf(start);
  const last = boundary.dayOf(at);
  const resume = options.resumeFrom;
  let from = first;
  if (resume) {
    from = resume.state.day;
    if (from <= first || from > last) throw new RangeError(`cannot resume at day ${from}: outside the pass`);
    run.restore(resume.state);
    run.records.push(...resume.days);
    run.tradeBreaks.push(...resume.breaks);
  }
  const events = eventsOf(
    ruleSet,
    inputs,
    start,
    at,
    resume ? boundary.resetOf(from) : Number.NEGATIVE_INFINITY,
    inAnchor,
  );
  const carried: Array<RuleCarriedState | null> = [];
  const breakCounts: number[] = [];
  let next = 0;
  for (let day = from; day <= last; day++) {
    const end = boundary.resetOf(day + 1);
    // The day's events: up to its end; a booking at the end itself belongs to it when the next anchor includes it.
    const bucket: Event[] = [];
    while (next < events.length) {
      const event = events[next]!;
      const belongs =
        event.at < end || (event.at === end && inAnchor && (event.type === 'booking' || event.type === 'operation'));
      if (!belongs) break;
      bucket.push(event);
      next++;
    }
    if (options.carry) carried.push(day === first ? null : run.carried(day));
    const rest = run.beginDay(day, day === first, start, bucket);
    for (const event of rest) run.step(event);
    run.endDay(end <= at);
    if (options.carry) breakCounts.push(run.tradeBreaks.length);
  }

  return {
    status: foldStatus(ruleSet, run.records, {
      currency: inputs.currency,
      equityBasis: inputs.equity.equityUnknown ? 'closed-only' : 'samples+candles',
    }),
    days: run.records,
    breaks: run.tradeBreaks,
    ...(options.carry ? { carried, breakCounts } : {}),
  };
}
