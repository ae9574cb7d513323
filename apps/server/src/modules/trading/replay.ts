import {
  REPLAY_GRANULARITIES,
  REPLAY_LIMITS,
  type Replay,
  type ReplayEvent,
  type ReplayGranularity,
} from '@pipsense/contract';
import {
  compareDecimals,
  divideDecimals,
  isPlainDecimal,
  multiplyDecimals,
  negateDecimal,
  roundDecimal,
  subtractDecimals,
  sumDecimals,
  trimDecimal,
} from '../../domain/decimal';
import { pipSizeOf } from '../../domain/instruments';
import { initialRiskOf } from '../../domain/risk';
import type { Candle } from '../candles';
import type { TradeRow } from './trade.repository';

/*
 * A trade's replay (docs/review.md, Replay): which candles, which events, and what a pip of the trade is worth.
 * Pure functions; trading.service.ts reads the rows and the candles and hands them in.
 */

/** Seconds per replay granularity. */
export const GRANULARITY_SECONDS: Readonly<Record<ReplayGranularity, number>> = {
  M1: 60,
  M5: 300,
  M15: 900,
  M30: 1800,
  H1: 3600,
  H4: 14_400,
};

/** Candles the trade spans at `granularity`: every candle from the one holding the entry to the one holding the end. */
export function tradeCandleCount(openMs: number, endMs: number, granularity: ReplayGranularity): number {
  const step = GRANULARITY_SECONDS[granularity] * 1000;
  return Math.floor(Math.max(0, endMs) / step) - Math.floor(openMs / step) + 1;
}

/** The finest granularity that keeps the trade (open to close, or to now while open) within REPLAY_LIMITS.maxCandles. */
export function defaultGranularity(openMs: number, endMs: number): ReplayGranularity {
  return (
    REPLAY_GRANULARITIES.find((g) => tradeCandleCount(openMs, endMs, g) <= REPLAY_LIMITS.maxCandles) ??
    REPLAY_GRANULARITIES[REPLAY_GRANULARITIES.length - 1]!
  );
}

/** The start of the candle holding `ms` (OANDA aligns M1..H4 candles to UTC). */
export const candleStart = (ms: number, granularity: ReplayGranularity): number => {
  const step = GRANULARITY_SECONDS[granularity] * 1000;
  return Math.floor(ms / step) * step;
};

/** A stored transaction of the trade, as the transaction store keeps it (account-transactions.ts). */
export interface ReplayTransaction {
  transaction_num: number | string;
  type: string;
  time: string;
  trade_id: string | null;
  /** An ORDER_CANCEL's cancelled order (an order's id is its transaction's number). */
  order_id?: string | null;
  price: string | null;
  distance: string | null;
}

/** A stored fill that reduced or closed the trade (trade_reductions, account-transactions.ts tradeReductionsOf). */
export interface ReplayFill {
  transaction_num: number | string;
  kind: string;
  time: string;
  /** Signed as OANDA gives them. */
  units: string;
  price: string | null;
}

const STOP_TYPES = new Set(['STOP_LOSS_ORDER', 'GUARANTEED_STOP_LOSS_ORDER', 'TRAILING_STOP_LOSS_ORDER']);

const isLong = (trade: Pick<TradeRow, 'initial_units'>) => !trade.initial_units.trim().startsWith('-');

/**
 * The price a trailing stop's distance is measured from: OANDA sets it that far from the market price when the
 * order is created. That is the latest price known by the order's time: the entry (at the trade's open), or, when
 * later, the close of the last candle that ended by then, else the open of the candle holding it (that candle's
 * later prices may be from after the order). So one set with the trade starts from the entry, and one added later
 * from where the price had gone.
 */
function priceWhenSet(
  trade: Pick<TradeRow, 'price' | 'open_time'>,
  at: number,
  candles: readonly Pick<Candle, 'time' | 'o' | 'c'>[],
  candleMs: number,
): string | null {
  let last: Pick<Candle, 'time' | 'o' | 'c'> | undefined;
  for (const candle of candles) {
    // A candle starting at the order's time opens with a price from after it.
    if (Date.parse(candle.time) >= at) break;
    last = candle;
  }
  if (!last) return trade.price;
  const start = Date.parse(last.time);
  const [price, known] = start + candleMs <= at ? [last.c, start + candleMs] : [last.o, start];
  return known > Date.parse(trade.open_time) && isPlainDecimal(price) ? price : trade.price;
}

/** A stop given as a distance: that far from `from` (the price when it was set) against the trade. */
function stopFromDistance(
  trade: Pick<TradeRow, 'initial_units'>,
  from: string | null,
  distance: string | null,
): string | null {
  if (!isPlainDecimal(distance) || !isPlainDecimal(from)) return null;
  return isLong(trade) ? subtractDecimals(from, distance) : subtractDecimals(from, negateDecimal(distance));
}

/** A trailing stop order of the trade: from its time to the next stop order's or the exit, `distance` behind. */
interface TrailingSpan {
  /** The order's id: its transaction's number. */
  order: string;
  from: number;
  to: number;
  distance: string;
  /** Its level when set. */
  level: string;
}

/**
 * A trailing stop's moves read from the candles (docs/review.md, Replay): OANDA moves a trailing stop as the price
 * goes the trade's way and books no transaction for it. For a long the level is the highest (high − distance) since
 * the order was set, never below where it was; for a short the lowest (low + distance), never above. Only candles
 * wholly within the order's span count (one that starts before it or ends after the next stop order or the exit
 * may hold prices from outside it). A move is listed once the level has gone at least a pip from the last one
 * listed, at the start of the candle that moved it. The candles are mid prices, where OANDA trails the bid (a long)
 * or the ask (a short): a derived level is within half a spread of OANDA's.
 */
function trailingStopMoves(
  span: TrailingSpan,
  long: boolean,
  candles: readonly Pick<Candle, 'time' | 'h' | 'l'>[],
  candleMs: number,
  pip: string,
): ReplayEvent[] {
  const moves: ReplayEvent[] = [];
  let level = span.level;
  let listed = span.level;
  for (const candle of candles) {
    const start = Date.parse(candle.time);
    if (start < span.from) continue;
    if (start + candleMs > span.to) break;
    const extreme = long ? candle.h : candle.l;
    if (!isPlainDecimal(extreme)) continue;
    const trail = long ? subtractDecimals(extreme, span.distance) : sumDecimals([extreme, span.distance]);
    // The level only ever moves the trade's way.
    if (compareDecimals(trail, level) * (long ? 1 : -1) > 0) level = trail;
    const moved = long ? subtractDecimals(level, listed) : subtractDecimals(listed, level);
    if (compareDecimals(moved, pip) >= 0) {
      moves.push({ time: candle.time, kind: 'stop_moved', price: level, units: null, fromCandles: true });
      listed = level;
    }
  }
  return moves;
}

/**
 * The trade's events, in time order. OANDA trades: the stop-loss, trailing-stop and take-profit orders the
 * transaction store keeps for the trade (docs/decisions/022-transaction-store.md): the first stop is `stop_set`,
 * every later one (a replacement) `stop_moved`; each take-profit order is `take_profit_set`. A trade without
 * stored orders (an imported one, or one synced before the store kept them) gets its stored initial stop and target
 * at the entry. Each fill that reduced the trade before its close is a `partial_close` at the fill's time and price
 * with the units it closed. The exit is the final close: at the close time, with the price of the fill that closed
 * the trade when it is stored (else the average close price the trade carries) and the units left open until then.
 * A stop cancelled without a replacement is not listed.
 */
function replayEvents(
  trade: TradeRow,
  transactions: readonly ReplayTransaction[],
  fills: readonly ReplayFill[],
  candles: { list: readonly Candle[]; ms: number },
): ReplayEvent[] {
  const events: ReplayEvent[] = [{ time: trade.open_time, kind: 'entry', price: trade.price, units: null }];
  const own = transactions
    .filter((t) => t.trade_id === trade.trade_id)
    .sort((a, b) => Number(a.transaction_num) - Number(b.transaction_num));
  let stops = 0;
  let targets = 0;
  const end = trade.state === 'CLOSED' && trade.close_time ? Date.parse(trade.close_time) : Infinity;
  const pip = String(pipSizeOf(trade.instrument));
  /** The trailing stop in force, if any; `trail` lists its moves up to `to` and ends it. */
  const open: { trailing: TrailingSpan | null } = { trailing: null };
  const trail = (to: number) => {
    const span = open.trailing;
    if (span) events.push(...trailingStopMoves({ ...span, to }, isLong(trade), candles.list, candles.ms, pip));
    open.trailing = null;
  };
  for (const t of own) {
    if (STOP_TYPES.has(t.type)) {
      const at = Date.parse(t.time);
      const trailing = t.type === 'TRAILING_STOP_LOSS_ORDER';
      const from = trailing ? priceWhenSet(trade, at, candles.list, candles.ms) : trade.price;
      const price = isPlainDecimal(t.price) ? t.price : stopFromDistance(trade, from, t.distance);
      // A new stop order ends the trailing one it replaces.
      trail(Math.min(end, at));
      events.push({ time: t.time, kind: stops === 0 ? 'stop_set' : 'stop_moved', price, units: null });
      stops += 1;
      if (trailing && isPlainDecimal(t.distance) && price !== null)
        open.trailing = {
          order: String(t.transaction_num),
          from: at,
          to: end,
          distance: t.distance,
          level: price,
        };
    } else if (t.type === 'ORDER_CANCEL' && t.order_id === open.trailing?.order)
      // Cancelled without a replacement (a replacement's cancel comes with it: the new order ends the span alike).
      trail(Math.min(end, Date.parse(t.time)));
    else if (t.type === 'TAKE_PROFIT_ORDER') {
      events.push({ time: t.time, kind: 'take_profit_set', price: t.price, units: null });
      targets += 1;
    }
  }
  trail(end);
  if (stops === 0) {
    const stop = trade.initial_stop_loss_price ?? (trade.platform === 'oanda' ? null : trade.stop_loss_price);
    if (isPlainDecimal(stop)) events.push({ time: trade.open_time, kind: 'stop_set', price: stop, units: null });
  }
  if (targets === 0 && isPlainDecimal(trade.take_profit_price) && trade.platform !== 'oanda')
    events.push({ time: trade.open_time, kind: 'take_profit_set', price: trade.take_profit_price, units: null });
  let left = trade.initial_units.replace(/^-/, '');
  let closing: ReplayFill | undefined;
  for (const fill of [...fills].sort((a, b) => Number(a.transaction_num) - Number(b.transaction_num))) {
    const units = fill.units.replace(/^-/, '');
    if (fill.kind === 'close') closing = fill;
    else if (fill.kind === 'reduce' && isPlainDecimal(units)) {
      events.push({ time: fill.time, kind: 'partial_close', price: fill.price, units });
      if (isPlainDecimal(left)) left = trimDecimal(subtractDecimals(left, units));
    }
  }
  if (trade.state === 'CLOSED' && trade.close_time)
    events.push({
      time: trade.close_time,
      kind: 'exit',
      price: closing?.price ?? trade.average_close_price,
      units: left,
    });
  // Stable: events at one time keep the order above (entry, then its stop and target, the exit last).
  return events
    .map((e, i) => ({ e, i, at: Date.parse(e.time) }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map(({ e }) => e);
}

/** The quote currency of an OANDA instrument name (EUR_USD → USD); null for a name of another form. */
export const quoteOf = (instrument: string): string | null =>
  /^[A-Z0-9]{2,10}_([A-Z]{3})$/.exec(instrument)?.[1] ?? null;

/** Decimals a pip value keeps when it is derived by division (a rate is not a finite decimal). */
const VALUE_PLACES = 6;

/**
 * The value of one pip of the whole trade in the account currency. Exact when the instrument's quote currency is
 * the account's (pip size × units). Otherwise, for a closed trade, derived from what the trade realized over its
 * price move (realized P/L ÷ the move in pips): the rate the broker booked the trade at. Null when neither holds
 * (an open trade quoted in another currency, or a close at the entry price).
 */
export function pipValueOf(trade: TradeRow, accountCurrency: string | null): string | null {
  const pip = String(pipSizeOf(trade.instrument));
  const units = trade.initial_units.replace(/^-/, '');
  if (!isPlainDecimal(units)) return null;
  if (accountCurrency !== null && quoteOf(trade.instrument) === accountCurrency)
    return trimDecimal(multiplyDecimals(pip, units));
  if (
    trade.state !== 'CLOSED' ||
    !isPlainDecimal(trade.price) ||
    !isPlainDecimal(trade.average_close_price) ||
    !isPlainDecimal(trade.realized_pl)
  )
    return null;
  const move = subtractDecimals(trade.average_close_price, trade.price);
  if (compareDecimals(move, '0') === 0) return null;
  const favourable = isLong(trade) ? move : negateDecimal(move);
  // realized / (move / pip) = realized × pip / move
  const value = divideDecimals(multiplyDecimals(trade.realized_pl, pip), favourable, VALUE_PLACES);
  return compareDecimals(value, '0') > 0 ? trimDecimal(value) : null;
}

/**
 * One pip of the whole trade at `rate`, the value of one unit of its quote currency in the account currency (a daily
 * close, decision 024): pip size × units × rate, to 6 decimals.
 */
export function pipValueAtRate(trade: TradeRow, rate: string): string | null {
  const units = trade.initial_units.replace(/^-/, '');
  if (!isPlainDecimal(units) || !isPlainDecimal(rate)) return null;
  const value = roundDecimal(multiplyDecimals(multiplyDecimals(String(pipSizeOf(trade.instrument)), units), rate), 6);
  return compareDecimals(value, '0') > 0 ? trimDecimal(value) : null;
}

/** 1 R in money: the initial stop's distance in pips × the pip value (domain/risk.ts decides what an initial stop is). */
export function riskAmountOf(trade: TradeRow, pipValue: string | null): string | null {
  if (pipValue === null) return null;
  const risk = initialRiskOf({
    instrument: trade.instrument,
    initialUnits: trade.initial_units,
    price: trade.price,
    averageClosePrice: trade.average_close_price,
    initialStopLossPrice: trade.initial_stop_loss_price,
  });
  if (!risk) return null;
  const pip = String(pipSizeOf(trade.instrument));
  const pips = divideDecimals(risk.distance, pip, 4);
  return divideDecimals(multiplyDecimals(pips, pipValue), '1', 2);
}

/**
 * The replay's candles: the complete ones, the last `before` of them ahead of the candle holding the entry, then
 * every one to the end; and the index of the entry's candle.
 */
export function replayWindow(
  candles: readonly Candle[],
  openMs: number,
  before: number,
): { candles: Candle[]; entryIndex: number } {
  const complete = candles.filter((c) => c.complete);
  let entry = -1;
  for (let i = 0; i < complete.length; i++) {
    if (Date.parse(complete[i]!.time) <= openMs) entry = i;
    else break;
  }
  // An entry before the first candle read (a gap): the first candle after it stands for the entry.
  const at = entry < 0 ? 0 : entry;
  const start = Math.max(0, at - before);
  return { candles: complete.slice(start), entryIndex: at - start };
}

/** The replay as the route answers it. */
export function replayOf(input: {
  trade: TradeRow;
  granularity: ReplayGranularity;
  candles: readonly Candle[];
  before: number;
  transactions: readonly ReplayTransaction[];
  /** The fills that reduced or closed the trade (none for an imported trade). */
  fills?: readonly ReplayFill[];
  accountCurrency: string | null;
  /**
   * The quote currency's value in the account currency on the trade's day (the last complete day while it is open),
   * for a pip value `pipValueOf` cannot give; null or left out when unknown.
   */
  quoteRate?: string | null;
}): Replay {
  const { trade } = input;
  const window = replayWindow(input.candles, Date.parse(trade.open_time), input.before);
  const pipValue =
    pipValueOf(trade, input.accountCurrency) ?? (input.quoteRate ? pipValueAtRate(trade, input.quoteRate) : null);
  return {
    instrument: trade.instrument,
    granularity: input.granularity,
    candles: window.candles.map((c) => ({
      time: c.time,
      volume: c.volume,
      complete: c.complete,
      mid: { o: c.o, h: c.h, l: c.l, c: c.c },
    })),
    events: replayEvents(trade, input.transactions, input.fills ?? [], {
      list: window.candles,
      ms: GRANULARITY_SECONDS[input.granularity] * 1000,
    }),
    entryIndex: window.entryIndex,
    side: isLong(trade) ? 'long' : 'short',
    entryPrice: trade.price ?? '0',
    units: trade.initial_units.replace(/^-/, ''),
    pipSize: String(pipSizeOf(trade.instrument)),
    currency: input.accountCurrency,
    pipValue,
    riskAmount: riskAmountOf(trade, pipValue),
  };
}
