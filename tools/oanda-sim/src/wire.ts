// Turns ledger records into OANDA's JSON, key for key in the order of the reference fixtures:
// decimal strings, digit-string ids, nanosecond date-times, and fields present only when OANDA
// would send them (no unrealizedPL/marginUsed on closed trades, no closeTime on open ones).

import { fixedPoint, money, percent5, type TimeFormat } from './format';
import type { InstrumentSpec } from './instruments';
import type { AccountRec, DependentOrder, Stamp, TradeRec } from './ledger-types';
import type { Market } from './market';
import { effectiveMarginRate } from './tx-writer';

/** Everything a serializer needs for one response: the date-time format and one consistent "now". */
export class WireContext {
  private readonly mids = new Map<string, number>();
  private readonly conversions = new Map<string, number>();

  constructor(
    readonly market: Market,
    readonly nowMs: number,
    readonly fmt: TimeFormat,
  ) {}

  time(stamp: Stamp): string {
    return this.fmt(stamp.ms, stamp.ns);
  }

  /** Current mid of an instrument, ticks (memoised so one response prices everything alike). */
  midTicks(spec: InstrumentSpec): number {
    let mid = this.mids.get(spec.name);
    if (mid === undefined) {
      mid = this.market.path(spec).midAt(this.nowMs);
      this.mids.set(spec.name, mid);
    }
    return mid;
  }

  conversion(from: string, home: string): number {
    const key = `${from}/${home}`;
    let factor = this.conversions.get(key);
    if (factor === undefined) {
      factor = this.market.conversion(from, home, this.nowMs);
      this.conversions.set(key, factor);
    }
    return factor;
  }
}

export function price(spec: InstrumentSpec, ticks: number): string {
  return fixedPoint(ticks, spec.displayPrecision);
}

export function units(n: number): string {
  return String(n === 0 ? 0 : n);
}

/** Live valuation of an open trade, in ten-thousandths of the account currency. */
interface TradeValuation {
  readonly unrealizedPL: number;
  readonly closeoutPL: number;
  readonly marginUsed: number;
  readonly positionValue: number;
}

function valueTrade(ctx: WireContext, account: AccountRec, rec: TradeRec): TradeValuation {
  if (rec.state !== 'OPEN' || rec.currentUnits === 0)
    return { unrealizedPL: 0, closeoutPL: 0, marginUsed: 0, positionValue: 0 };
  const spec = rec.spec;
  const dir = Math.sign(rec.currentUnits);
  const held = Math.abs(rec.currentUnits);
  const mid = ctx.midTicks(spec);
  const conv = ctx.conversion(spec.quote, account.currency);
  const closing = mid - dir * spec.halfSpreadTicks;
  const value = ((held * mid) / spec.scale) * conv;
  return {
    unrealizedPL: Math.round((((closing - rec.price) * dir * held) / spec.scale) * conv * 10_000),
    // Closing out the whole book would cost another half spread.
    closeoutPL: Math.round(
      (((closing - dir * spec.halfSpreadTicks - rec.price) * dir * held) / spec.scale) * conv * 10_000,
    ),
    marginUsed: Math.round(value * effectiveMarginRate(spec, account) * 10_000),
    positionValue: Math.round(value * 10_000),
  };
}

function averageClosePrice(rec: TradeRec): number | undefined {
  if (rec.closedUnits === 0) return undefined;
  return Math.round(rec.closedValue / rec.closedUnits);
}

export function orderWire(ctx: WireContext, rec: TradeRec, order: DependentOrder): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: String(order.id),
    createTime: ctx.time(order.created),
    type: order.kind,
    tradeID: String(rec.id),
  };
  if (rec.clientExtensions) out.clientTradeID = rec.clientExtensions.id;
  if (order.kind === 'TRAILING_STOP_LOSS') {
    out.distance = price(rec.spec, order.price);
  } else {
    out.price = price(rec.spec, order.price);
  }
  out.timeInForce = 'GTC';
  out.triggerCondition = 'DEFAULT';
  if (order.kind === 'TRAILING_STOP_LOSS' && order.trailingValue !== undefined)
    out.trailingStopValue = price(rec.spec, order.trailingValue);
  if (order.replacesOrderId !== undefined) out.replacesOrderID = String(order.replacesOrderId);
  if (order.state === 'FILLED' && order.fillTxId !== undefined && order.fillTime) {
    out.fillingTransactionID = String(order.fillTxId);
    out.filledTime = ctx.time(order.fillTime);
    out.tradeClosedIDs = [String(rec.id)];
  }
  if (order.state === 'CANCELLED' && order.cancelTxId !== undefined && order.cancelTime) {
    out.cancellingTransactionID = String(order.cancelTxId);
    out.cancelledTime = ctx.time(order.cancelTime);
    if (order.replacedByOrderId !== undefined) out.replacedByOrderID = String(order.replacedByOrderId);
  }
  out.state = order.state;
  return out;
}

/** A `Trade` (dependent orders as objects) or, with `summary`, a `TradeSummary` (as ids). */
export function tradeWire(
  ctx: WireContext,
  account: AccountRec,
  rec: TradeRec,
  summary = false,
): Record<string, unknown> {
  const spec = rec.spec;
  const out: Record<string, unknown> = {
    id: String(rec.id),
    instrument: spec.name,
    price: price(spec, rec.price),
    openTime: ctx.time(rec.open),
    initialUnits: units(rec.initialUnits),
    initialMarginRequired: money(rec.initialMargin),
    state: rec.state,
    currentUnits: units(rec.currentUnits),
    realizedPL: money(rec.realizedPL),
  };
  if (rec.closingTxIds.length > 0) out.closingTransactionIDs = rec.closingTxIds.map(String);
  out.financing = money(rec.financing);
  out.dividendAdjustment = '0.0000';
  const average = averageClosePrice(rec);
  if (rec.state === 'OPEN') {
    const v = valueTrade(ctx, account, rec);
    out.unrealizedPL = money(v.unrealizedPL);
    out.marginUsed = money(v.marginUsed);
    if (average !== undefined) out.averageClosePrice = price(spec, average);
  } else {
    if (rec.closeTime) out.closeTime = ctx.time(rec.closeTime);
    if (average !== undefined) out.averageClosePrice = price(spec, average);
  }
  if (rec.clientExtensions) out.clientExtensions = { ...rec.clientExtensions };
  if (summary) {
    if (rec.tp) out.takeProfitOrderID = String(rec.tp.id);
    if (rec.sl) out.stopLossOrderID = String(rec.sl.id);
    if (rec.tsl) out.trailingStopLossOrderID = String(rec.tsl.id);
  } else {
    if (rec.tp) out.takeProfitOrder = orderWire(ctx, rec, rec.tp);
    if (rec.sl) out.stopLossOrder = orderWire(ctx, rec, rec.sl);
    if (rec.tsl) out.trailingStopLossOrder = orderWire(ctx, rec, rec.tsl);
  }
  return out;
}

export interface AccountTotals {
  readonly unrealizedPL: number;
  readonly closeoutPL: number;
  readonly marginUsed: number;
  readonly positionValue: number;
  readonly openTradeCount: number;
  readonly openPositionCount: number;
  readonly pendingOrderCount: number;
  readonly perTrade: Map<TradeRec, TradeValuation>;
}

function accountTotals(ctx: WireContext, account: AccountRec): AccountTotals {
  let unrealizedPL = 0;
  let closeoutPL = 0;
  let marginUsed = 0;
  let positionValue = 0;
  let pendingOrderCount = 0;
  const instruments = new Set<string>();
  const perTrade = new Map<TradeRec, TradeValuation>();
  for (const rec of openTradesOf(account)) {
    const v = valueTrade(ctx, account, rec);
    perTrade.set(rec, v);
    unrealizedPL += v.unrealizedPL;
    closeoutPL += v.closeoutPL;
    marginUsed += v.marginUsed;
    positionValue += v.positionValue;
    instruments.add(rec.spec.name);
    for (const order of [rec.tp, rec.sl, rec.tsl]) if (order?.state === 'PENDING') pendingOrderCount++;
  }
  return {
    unrealizedPL,
    closeoutPL,
    marginUsed,
    positionValue,
    openTradeCount: perTrade.size,
    openPositionCount: instruments.size,
    pendingOrderCount,
    perTrade,
  };
}

/** Open trades, newest first. */
export function openTradesOf(account: AccountRec): TradeRec[] {
  const out: TradeRec[] = [];
  for (let i = account.trades.length - 1; i >= 0; i--) {
    const rec = account.trades[i];
    if (rec?.state === 'OPEN') out.push(rec);
  }
  return out;
}

/** The price-dependent fields shared by AccountSummary and AccountChangesState. */
function priceDependent(account: AccountRec, t: AccountTotals): Record<string, string> {
  const nav = account.balance + t.unrealizedPL;
  const closeoutNav = account.balance + t.closeoutPL;
  const available = Math.max(0, nav - t.marginUsed);
  return {
    unrealizedPL: money(t.unrealizedPL),
    NAV: money(nav),
    marginUsed: money(t.marginUsed),
    marginAvailable: money(available),
    positionValue: money(t.positionValue),
    marginCloseoutUnrealizedPL: money(t.closeoutPL),
    marginCloseoutNAV: money(closeoutNav),
    marginCloseoutMarginUsed: money(t.marginUsed),
    marginCloseoutPercent: percent5(t.marginUsed / (2 * closeoutNav)),
    marginCloseoutPositionValue: money(t.positionValue),
    withdrawalLimit: money(available),
    marginCallMarginUsed: money(t.marginUsed),
    marginCallPercent: percent5(t.marginUsed / closeoutNav),
  };
}

export function accountSummaryWire(
  ctx: WireContext,
  account: AccountRec,
  totals = accountTotals(ctx, account),
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: account.id,
    alias: account.alias,
    currency: account.currency,
    createdByUserID: account.userId,
    createdTime: ctx.time(account.created),
    guaranteedStopLossOrderMode: 'DISABLED',
    resettablePLTime: '0',
    marginRate: String(account.marginRate),
    openTradeCount: totals.openTradeCount,
    openPositionCount: totals.openPositionCount,
    pendingOrderCount: totals.pendingOrderCount,
    hedgingEnabled: false,
    ...priceDependent(account, totals),
    balance: money(account.balance),
    pl: money(account.pl),
    resettablePL: money(account.pl),
    financing: money(account.financing),
    commission: '0.0000',
    dividendAdjustment: '0.0000',
    guaranteedExecutionFees: '0.0000',
    lastTransactionID: String(account.txs.length),
  };
  if (account.lastOrderFill) out.lastOrderFillTimestamp = ctx.time(account.lastOrderFill);
  return out;
}

interface SideTotals {
  units: number;
  pl: number;
  financing: number;
  unrealizedPL: number;
  marginUsed: number;
  openValue: number;
  tradeIds: number[];
}

function emptySide(): SideTotals {
  return { units: 0, pl: 0, financing: 0, unrealizedPL: 0, marginUsed: 0, openValue: 0, tradeIds: [] };
}

/** Positions (one per instrument ever traded), as in Account details and AccountChanges. */
export function positionsWire(
  ctx: WireContext,
  account: AccountRec,
  only?: ReadonlySet<string>,
): Record<string, unknown>[] {
  const sides = new Map<string, { spec: InstrumentSpec; long: SideTotals; short: SideTotals }>();
  for (const rec of account.trades) {
    if (only && !only.has(rec.spec.name)) continue;
    let entry = sides.get(rec.spec.name);
    if (!entry) {
      entry = { spec: rec.spec, long: emptySide(), short: emptySide() };
      sides.set(rec.spec.name, entry);
    }
    const side = rec.initialUnits > 0 ? entry.long : entry.short;
    side.pl += rec.realizedPL;
    side.financing += rec.financing;
    if (rec.state === 'OPEN') {
      const v = valueTrade(ctx, account, rec);
      side.units += rec.currentUnits;
      side.unrealizedPL += v.unrealizedPL;
      side.marginUsed += v.marginUsed;
      side.openValue += Math.abs(rec.currentUnits) * rec.price;
      side.tradeIds.push(rec.id);
    }
  }
  const sideWire = (spec: InstrumentSpec, s: SideTotals): Record<string, unknown> => {
    const out: Record<string, unknown> = {
      units: units(s.units),
      pl: money(s.pl),
      resettablePL: money(s.pl),
      financing: money(s.financing),
      guaranteedExecutionFees: '0.0000',
      unrealizedPL: money(s.unrealizedPL),
    };
    if (s.units !== 0) {
      out.averagePrice = price(spec, Math.round(s.openValue / Math.abs(s.units)));
      out.tradeIDs = s.tradeIds.sort((a, b) => a - b).map(String);
    }
    return out;
  };
  return [...sides.values()]
    .sort((a, b) => (a.spec.name < b.spec.name ? -1 : 1))
    .map(({ spec, long, short }) => ({
      instrument: spec.name,
      long: sideWire(spec, long),
      short: sideWire(spec, short),
      pl: money(long.pl + short.pl),
      resettablePL: money(long.pl + short.pl),
      financing: money(long.financing + short.financing),
      commission: '0.0000',
      dividendAdjustment: '0.0000',
      guaranteedExecutionFees: '0.0000',
      unrealizedPL: money(long.unrealizedPL + short.unrealizedPL),
      marginUsed: money(long.marginUsed + short.marginUsed),
    }));
}

/** Pending dependent orders of open trades, ascending id. */
export function pendingOrders(account: AccountRec): { rec: TradeRec; order: DependentOrder }[] {
  const out: { rec: TradeRec; order: DependentOrder }[] = [];
  for (const rec of openTradesOf(account)) {
    for (const order of [rec.tp, rec.sl, rec.tsl]) if (order?.state === 'PENDING') out.push({ rec, order });
  }
  return out.sort((a, b) => a.order.id - b.order.id);
}

export function accountDetailsWire(ctx: WireContext, account: AccountRec): Record<string, unknown> {
  const totals = accountTotals(ctx, account);
  return {
    ...accountSummaryWire(ctx, account, totals),
    trades: openTradesOf(account)
      .reverse()
      .map((rec) => tradeWire(ctx, account, rec, true)),
    positions: positionsWire(ctx, account),
    orders: pendingOrders(account).map(({ rec, order }) => orderWire(ctx, rec, order)),
  };
}

/** AccountChangesState: price-dependent account fields plus per-order, per-trade and per-position state. */
export function changesStateWire(ctx: WireContext, account: AccountRec): Record<string, unknown> {
  const totals = accountTotals(ctx, account);
  const open = [...totals.perTrade.keys()].sort((a, b) => a.id - b.id);
  const positions = new Map<string, { long: number; short: number; margin: number }>();
  for (const rec of open) {
    const v = totals.perTrade.get(rec);
    if (!v) continue;
    const p = positions.get(rec.spec.name) ?? { long: 0, short: 0, margin: 0 };
    if (rec.currentUnits > 0) p.long += v.unrealizedPL;
    else p.short += v.unrealizedPL;
    p.margin += v.marginUsed;
    positions.set(rec.spec.name, p);
  }
  return {
    ...priceDependent(account, totals),
    orders: open
      .filter((rec) => rec.tsl?.state === 'PENDING')
      .map((rec) => {
        const tsl = rec.tsl as DependentOrder;
        const dir = Math.sign(rec.currentUnits);
        const closing = ctx.midTicks(rec.spec) - dir * rec.spec.halfSpreadTicks;
        const trigger = Math.abs(closing - (tsl.trailingValue ?? closing));
        return {
          id: String(tsl.id),
          trailingStopValue: price(rec.spec, tsl.trailingValue ?? closing),
          triggerDistance: fixedPoint(Math.round((trigger * 100_000) / rec.spec.scale), 5),
          isTriggerDistanceExact: true,
        };
      }),
    trades: open.map((rec) => {
      const v = totals.perTrade.get(rec);
      return { id: String(rec.id), unrealizedPL: money(v?.unrealizedPL ?? 0), marginUsed: money(v?.marginUsed ?? 0) };
    }),
    positions: [...positions]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([instrument, p]) => ({
        instrument,
        netUnrealizedPL: money(p.long + p.short),
        longUnrealizedPL: money(p.long),
        shortUnrealizedPL: money(p.short),
        marginUsed: money(p.margin),
      })),
  };
}
