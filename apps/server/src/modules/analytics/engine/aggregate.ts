/**
 * The single pass over all trades. Everything later works on these typed arrays and counters, so
 * the hot loop allocates nothing per trade except Map entries for new instruments and days.
 * Money is in integer ten-thousandths (domain/money.ts); times are epoch milliseconds. Win, loss and
 * P/L totals of the closed trades are the shared PerformanceTally (domain/performance.ts), the same
 * one the assistant's performance figures come from.
 *
 * The per-trade work sits in a small method rather than in one long loop: V8 optimises a small
 * hot function after a few hundred calls, while a long loop body runs unoptimised (boxing every
 * intermediate double) for much longer. On a cold process that halves the first computation.
 */
import type { EngineAccount, EngineTrade, EngineOptions } from './types';
import { pipSizeOf } from '../../../domain/instruments';
import { sessionIndexAt } from './sessions';
import { DAY_MS, HOUR_MS, weekdayOfDay, zoneClock, type ZoneClock } from '../../../domain/calendar';
import { medianInPlace } from './stats';
import { toMinorUnits } from '../../../domain/money';
import { PerformanceTally } from '../../../domain/performance';
import { RTally } from './r-tally';

export interface InstrumentAgg {
  instrument: string;
  /** Position in Aggregates.instrumentList and value in Aggregates.instrumentIndex. */
  index: number;
  trades: number;
  closed: number;
  wins: number;
  losses: number;
  breakEvens: number;
  pl: number;
  holdMs: number;
  pips: number;
}

export interface BucketAgg {
  trades: number;
  wins: number;
  losses: number;
  pl: number;
}

export interface DayAgg {
  day: number;
  trades: number;
  closed: number;
  wins: number;
  pl: number;
}

function newBuckets(count: number): BucketAgg[] {
  return Array.from({ length: count }, () => ({ trades: 0, wins: 0, losses: 0, pl: 0 }));
}

export class Aggregates {
  readonly clock: ZoneClock;
  readonly tradeCount: number;
  readonly accountIds: Set<string>;
  weeklyTrades = 0;
  longTrades = 0;
  shortTrades = 0;
  /** Trades with an initial stop (the one definition of "with a stop-loss"; METRICS.md, "Risk in R"). */
  withInitialStop = 0;
  openTrades = 0;
  openWithoutStopLoss = 0;
  /** |initial units| of every trade (index = trade index). */
  readonly absUnits: Float64Array;
  /** Open instant of every trade. */
  readonly openMs: Float64Array;
  readonly sessionCounts: [number, number, number] = [0, 0, 0];
  readonly instruments = new Map<string, InstrumentAgg>();
  readonly instrumentList: InstrumentAgg[] = [];
  /** Instrument of every trade, as an index into instrumentList. */
  readonly instrumentIndex: Int32Array;
  /** Local open day → activity of that day. */
  readonly days = new Map<number, DayAgg>();
  /** Index 0 = Sunday. */
  readonly weekdays = newBuckets(7);
  readonly hours = newBuckets(24);
  /** Realized P/L + financing of trades whose account is in the accounts list (for equity). */
  bookedOnListedAccounts = 0;

  closedCount = 0;
  /** Per closed trade (0 … closedCount−1): index into trades, close instant and local day, P/L, hold. */
  readonly closedIndex: Int32Array;
  readonly closeMs: Float64Array;
  readonly closeDay: Int32Array;
  readonly closedPl: Float64Array;
  readonly holdMs: Float64Array;
  holdSumMs = 0;
  /** Wins, losses, gross profit and loss, financing and extremes of the closed trades. */
  readonly performance = new PerformanceTally();
  /** Results in R of the closed trades with an initial stop. */
  readonly r = new RTally();
  pipsWon = 0;
  pipsLost = 0;

  private readonly nowMs: number;
  private readonly weekStartMs: number;
  private readonly listedAccounts: Set<string>;
  private readonly pipSizes: Readonly<Record<string, number>> | undefined;
  private lastInstrument = '';
  private lastInstrumentAgg: InstrumentAgg | undefined;
  private lastDay = Number.NaN;
  private lastDayAgg: DayAgg | undefined;
  private lastAccount = '';

  constructor(tradeCount: number, accounts: readonly EngineAccount[], options: EngineOptions) {
    const n = tradeCount;
    this.clock = zoneClock(options.timeZone);
    this.tradeCount = n;
    this.nowMs = options.now.getTime();
    this.weekStartMs = this.nowMs - 7 * DAY_MS;
    this.listedAccounts = new Set(accounts.map((account) => account.accountId));
    this.accountIds = new Set(this.listedAccounts);
    this.pipSizes = options.pipSizes;
    this.absUnits = new Float64Array(n);
    this.openMs = new Float64Array(n);
    this.instrumentIndex = new Int32Array(n);
    this.closedIndex = new Int32Array(n);
    this.closeMs = new Float64Array(n);
    this.closeDay = new Int32Array(n);
    this.closedPl = new Float64Array(n);
    this.holdMs = new Float64Array(n);
  }

  private instrumentAgg(instrument: string): InstrumentAgg {
    if (instrument === this.lastInstrument && this.lastInstrumentAgg !== undefined) return this.lastInstrumentAgg;
    let agg = this.instruments.get(instrument);
    if (agg === undefined) {
      agg = {
        instrument,
        index: this.instrumentList.length,
        trades: 0,
        closed: 0,
        wins: 0,
        losses: 0,
        breakEvens: 0,
        pl: 0,
        holdMs: 0,
        pips: 0,
      };
      this.instruments.set(instrument, agg);
      this.instrumentList.push(agg);
    }
    this.lastInstrument = instrument;
    this.lastInstrumentAgg = agg;
    return agg;
  }

  private dayAgg(day: number): DayAgg {
    if (day === this.lastDay && this.lastDayAgg !== undefined) return this.lastDayAgg;
    let agg = this.days.get(day);
    if (agg === undefined) {
      agg = { day, trades: 0, closed: 0, wins: 0, pl: 0 };
      this.days.set(day, agg);
    }
    this.lastDay = day;
    this.lastDayAgg = agg;
    return agg;
  }

  add(trade: EngineTrade, i: number): void {
    const opened = trade.openTime;
    const localOpen = this.clock.local(opened);
    const day = Math.floor(localOpen / DAY_MS);
    this.openMs[i] = opened;
    this.absUnits[i] = Math.abs(trade.units);
    this.sessionCounts[sessionIndexAt(opened) as 0 | 1 | 2]++;
    if (trade.units > 0) this.longTrades++;
    else if (trade.units < 0) this.shortTrades++;
    const hasStop = trade.stopLossPrice !== null || trade.trailingStopDistance !== null;
    if (trade.initialStop) this.withInitialStop++;
    if (opened >= this.weekStartMs && opened <= this.nowMs) this.weeklyTrades++;
    if (trade.accountId !== this.lastAccount) {
      this.accountIds.add(trade.accountId);
      this.lastAccount = trade.accountId;
    }
    if (this.listedAccounts.has(trade.accountId)) {
      this.bookedOnListedAccounts += toMinorUnits(trade.realizedPL) + toMinorUnits(trade.financing);
    }
    const instrument = this.instrumentAgg(trade.instrument);
    instrument.trades++;
    this.instrumentIndex[i] = instrument.index;
    const dayAgg = this.dayAgg(day);
    dayAgg.trades++;

    if (trade.state !== 'CLOSED') {
      this.openTrades++;
      if (!hasStop) this.openWithoutStopLoss++;
      return;
    }
    this.addClosed(trade, i, opened, localOpen - day * DAY_MS, weekdayOfDay(day), instrument, dayAgg);
  }

  private addClosed(
    trade: EngineTrade,
    i: number,
    opened: number,
    localTimeOfDay: number,
    weekday: number,
    instrument: InstrumentAgg,
    dayAgg: DayAgg,
  ): void {
    const closed = trade.closeTime ?? opened;
    const pl = toMinorUnits(trade.realizedPL);
    const held = closed > opened ? closed - opened : 0;
    const c = this.closedCount++;
    this.closedIndex[c] = i;
    this.closeMs[c] = closed;
    this.closeDay[c] = Math.floor(this.clock.local(closed) / DAY_MS);
    this.closedPl[c] = pl;
    this.holdMs[c] = held;
    this.holdSumMs += held;
    instrument.closed++;
    instrument.pl += pl;
    instrument.holdMs += held;
    dayAgg.closed++;
    dayAgg.pl += pl;
    const weekdayAgg = this.weekdays[weekday]!;
    const hourAgg = this.hours[Math.floor(localTimeOfDay / HOUR_MS)]!;
    weekdayAgg.trades++;
    weekdayAgg.pl += pl;
    hourAgg.trades++;
    hourAgg.pl += pl;

    const sign = this.performance.add(pl, toMinorUnits(trade.financing));
    this.r.add(trade.rMultiple, sign);
    if (sign > 0) {
      instrument.wins++;
      dayAgg.wins++;
      weekdayAgg.wins++;
      hourAgg.wins++;
    } else if (sign < 0) {
      instrument.losses++;
      weekdayAgg.losses++;
      hourAgg.losses++;
    } else {
      instrument.breakEvens++;
    }

    if (trade.closePrice !== null && trade.units !== 0) {
      const pipSize = pipSizeOf(trade.instrument, this.pipSizes);
      const pips = ((trade.closePrice - trade.openPrice) * (trade.units > 0 ? 1 : -1)) / pipSize;
      instrument.pips += pips;
      if (pips > 0) this.pipsWon += pips;
      else this.pipsLost += pips;
    }
  }
}

/**
 * Median |initial units| per instrument (by instrument index): the trader's usual size there.
 * Trades are grouped by a counting sort, then each group's median is selected, O(n) overall.
 */
export function medianUnitsByInstrument(agg: Aggregates): Float64Array {
  const list = agg.instrumentList;
  const starts = new Int32Array(list.length + 1);
  for (let k = 0; k < list.length; k++) starts[k + 1] = starts[k]! + list[k]!.trades;
  const fill = starts.slice(0, list.length);
  const grouped = new Float64Array(agg.tradeCount);
  for (let i = 0; i < agg.tradeCount; i++) grouped[fill[agg.instrumentIndex[i]!]!++] = agg.absUnits[i]!;
  const medians = new Float64Array(list.length);
  for (let k = 0; k < list.length; k++) {
    medians[k] = medianInPlace(grouped.subarray(starts[k], starts[k + 1]), list[k]!.trades);
  }
  return medians;
}

export function aggregate(
  trades: readonly EngineTrade[],
  accounts: readonly EngineAccount[],
  options: EngineOptions,
): Aggregates {
  const agg = new Aggregates(trades.length, accounts, options);
  for (let i = 0; i < trades.length; i++) agg.add(trades[i]!, i);
  return agg;
}
