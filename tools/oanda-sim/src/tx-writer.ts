// Appends OANDA-shaped transactions to an account: the one place where trades open, shrink and
// close and where balances move, used both when seeding history and by the test mutators.

import { toMoneyUnits } from './format';
import type { InstrumentSpec } from './instruments';
import type {
  AccountRec,
  ClientExtensions,
  DependentOrder,
  FillReason,
  OrderKind,
  Stamp,
  TradeRec,
  TxRec,
} from './ledger-types';
import { MINUTE } from './market-hours';
import type { Market } from './market';
import type { Rng } from './rng';

export type CloseKind = OrderKind | 'MARKET';

/** The margin rate that applies: the instrument's, or the account's if that is stricter. */
export function effectiveMarginRate(spec: InstrumentSpec, account: AccountRec | { marginRate: number }): number {
  return Math.max(Number(spec.marginRate), account.marginRate);
}

export interface OpenTradeInput {
  readonly spec: InstrumentSpec;
  /** Signed units. */
  readonly units: number;
  /** Fill price, ticks. */
  readonly price: number;
  readonly tp?: number;
  readonly sl?: number;
  readonly tslDistance?: number;
  readonly clientExtensions?: ClientExtensions;
}

/** Appends OANDA-shaped transactions to an account and keeps its trades and balance in step. */
export class TxWriter {
  constructor(
    private readonly market: Market,
    private readonly account: AccountRec,
    private readonly nextRequestId: () => string,
  ) {}

  private get nextId(): number {
    return this.account.txs.length + 1;
  }

  private push(tx: TxRec): void {
    if (tx.id !== this.account.txs.length + 1) throw new Error(`transaction id ${tx.id} out of sequence`);
    this.account.txs.push(tx);
  }

  openAccount(rng: Rng): void {
    const a = this.account;
    const requestId = this.nextRequestId();
    this.push({ id: 1, batchId: 1, time: a.created, requestId, type: 'CREATE' });
    this.push({ id: 2, batchId: 1, time: a.created, requestId, type: 'CLIENT_CONFIGURE' });
    const fundedAt = { ms: a.created.ms + rng.int(10, 180) * MINUTE + rng.int(0, 59_999), ns: rng.int(0, 999_999) };
    a.balance = a.deposit;
    this.push({
      id: 3,
      batchId: 3,
      time: fundedAt,
      requestId: this.nextRequestId(),
      type: 'TRANSFER_FUNDS',
      amount: a.deposit,
      balance: a.balance,
    });
  }

  openTrade(at: Stamp, input: OpenTradeInput): TradeRec {
    const a = this.account;
    const { spec } = input;
    const batchId = this.nextId;
    const requestId = this.nextRequestId();
    const orderId = batchId;
    const tradeId = batchId + 1;
    const conversion = this.market.conversion(spec.quote, a.currency, at.ms);
    const mid = (input.price - Math.sign(input.units) * spec.halfSpreadTicks) / spec.scale;
    const rec: TradeRec = {
      id: tradeId,
      spec,
      initialUnits: input.units,
      currentUnits: input.units,
      price: input.price,
      open: at,
      initialMargin: toMoneyUnits(Math.abs(input.units) * mid * conversion * effectiveMarginRate(spec, a)),
      realizedPL: 0,
      financing: 0,
      closingTxIds: [],
      closedUnits: 0,
      closedValue: 0,
      state: 'OPEN',
      clientExtensions: input.clientExtensions,
      lastTxId: tradeId,
    };
    this.push({
      id: orderId,
      batchId,
      time: at,
      requestId,
      type: 'MARKET_ORDER',
      trade: rec,
      units: input.units,
      reason: 'CLIENT_ORDER',
      onFill: { tp: input.tp, sl: input.sl, tslDistance: input.tslDistance },
    });
    this.push({
      id: tradeId,
      batchId,
      time: at,
      requestId,
      type: 'ORDER_FILL',
      trade: rec,
      orderId,
      units: input.units,
      price: input.price,
      pl: 0,
      balance: a.balance,
      reason: 'MARKET_ORDER',
      effect: 'OPEN',
      halfSpreadCost: this.halfSpreadCost(spec, Math.abs(input.units), conversion),
      conversion,
    });
    const add = (kind: OrderKind, price: number | undefined) => {
      if (price === undefined) return undefined;
      const order: DependentOrder = { id: this.nextId, kind, tradeId, price, created: at, state: 'PENDING' };
      if (kind === 'TRAILING_STOP_LOSS') {
        const dir = Math.sign(input.units);
        // Starts one distance behind the closing side (bid for a long, ask for a short).
        order.trailingValue = input.price - dir * (2 * spec.halfSpreadTicks + price);
        rec.trailBest = dir * (input.price - dir * spec.halfSpreadTicks);
      }
      this.push({
        id: order.id,
        batchId,
        time: at,
        requestId,
        type: `${kind}_ORDER`,
        order,
        trade: rec,
        reason: 'ON_FILL',
        fillTxId: tradeId,
      });
      rec.lastTxId = order.id;
      return order;
    };
    rec.tp = add('TAKE_PROFIT', input.tp);
    rec.sl = add('STOP_LOSS', input.sl);
    rec.tsl = add('TRAILING_STOP_LOSS', input.tslDistance);
    a.trades.push(rec);
    a.tradesById.set(rec.id, rec);
    if (rec.clientExtensions) a.tradesByClientId.set(rec.clientExtensions.id, rec);
    a.lastOrderFill = at;
    return rec;
  }

  /** Closes `units` of a trade at `price` (closing side, ticks): all of it closes the trade. */
  closeUnits(at: Stamp, rec: TradeRec, units: number, price: number, by: CloseKind): void {
    const a = this.account;
    const dir = Math.sign(rec.initialUnits);
    const closesAll = units >= Math.abs(rec.currentUnits);
    const batchId = this.nextId;
    let orderId: number;
    let requestId: string | undefined;
    let reason: FillReason;
    if (by === 'MARKET') {
      requestId = this.nextRequestId();
      orderId = batchId;
      this.push({
        id: orderId,
        batchId,
        time: at,
        requestId,
        type: 'MARKET_ORDER',
        trade: rec,
        units: -dir * units,
        reason: 'TRADE_CLOSE',
        closeUnits: closesAll ? 'ALL' : units,
      });
      reason = 'MARKET_ORDER_TRADE_CLOSE';
    } else {
      const order = by === 'TAKE_PROFIT' ? rec.tp : by === 'STOP_LOSS' ? rec.sl : rec.tsl;
      if (!order) throw new Error(`trade ${rec.id} has no ${by} order`);
      orderId = order.id;
      reason = `${by}_ORDER`;
    }
    const fillId = this.nextId;
    const conversion = this.market.conversion(rec.spec.quote, a.currency, at.ms);
    const pl = toMoneyUnits((((price - rec.price) * dir * units) / rec.spec.scale) * conversion);
    a.balance += pl;
    a.pl += pl;
    rec.realizedPL += pl;
    rec.currentUnits -= dir * units;
    rec.closedUnits += units;
    rec.closedValue += units * price;
    rec.closingTxIds.push(fillId);
    rec.lastTxId = fillId;
    this.push({
      id: fillId,
      batchId,
      time: at,
      requestId,
      type: 'ORDER_FILL',
      trade: rec,
      orderId,
      units: -dir * units,
      price,
      pl,
      balance: a.balance,
      reason,
      effect: closesAll ? 'CLOSE' : 'REDUCE',
      halfSpreadCost: this.halfSpreadCost(rec.spec, units, conversion),
      conversion,
    });
    a.lastOrderFill = at;
    if (!closesAll) return;
    rec.state = 'CLOSED';
    rec.currentUnits = 0;
    rec.closeTime = at;
    for (const order of [rec.tp, rec.sl, rec.tsl]) {
      if (!order || order.state !== 'PENDING') continue;
      if (order.id === orderId) {
        order.state = 'FILLED';
        order.fillTxId = fillId;
        order.fillTime = at;
        continue;
      }
      const cancelId = this.nextId;
      order.state = 'CANCELLED';
      order.cancelTxId = cancelId;
      order.cancelTime = at;
      rec.lastTxId = cancelId;
      this.push({
        id: cancelId,
        batchId,
        time: at,
        requestId,
        type: 'ORDER_CANCEL',
        order,
        reason: 'LINKED_TRADE_CLOSED',
      });
    }
  }

  /** Replaces (or adds, or with null removes) a trade's take-profit or stop-loss. */
  replaceOrder(at: Stamp, rec: TradeRec, kind: 'TAKE_PROFIT' | 'STOP_LOSS', price: number | null): void {
    const key = kind === 'TAKE_PROFIT' ? 'tp' : 'sl';
    const previous = rec[key];
    const wasPending = previous?.state === 'PENDING';
    const batchId = this.nextId;
    const requestId = this.nextRequestId();
    let replacement: DependentOrder | undefined;
    if (price !== null) {
      replacement = { id: this.nextId, kind, tradeId: rec.id, price, created: at, state: 'PENDING' };
      if (previous && wasPending) replacement.replacesOrderId = previous.id;
      this.push({
        id: replacement.id,
        batchId,
        time: at,
        requestId,
        type: `${kind}_ORDER`,
        order: replacement,
        trade: rec,
        reason: previous && wasPending ? 'REPLACEMENT' : 'CLIENT_ORDER',
      });
      rec.lastTxId = replacement.id;
    }
    if (previous && wasPending) {
      const cancelId = this.nextId;
      previous.state = 'CANCELLED';
      previous.cancelTxId = cancelId;
      previous.cancelTime = at;
      if (replacement) previous.replacedByOrderId = replacement.id;
      this.push({
        id: cancelId,
        batchId,
        time: at,
        requestId,
        type: 'ORDER_CANCEL',
        order: previous,
        reason: 'CLIENT_REQUEST_REPLACED',
        replacedById: replacement?.id,
      });
      rec.lastTxId = cancelId;
    }
    rec[key] = replacement ?? (wasPending ? undefined : previous);
  }

  /** A deposit (positive) or withdrawal (negative) of `amount` ten-thousandths of the account currency. */
  transferFunds(at: Stamp, amount: number, comment?: string): void {
    const a = this.account;
    a.balance += amount;
    const id = this.nextId;
    this.push({
      id,
      batchId: id,
      time: at,
      requestId: this.nextRequestId(),
      type: 'TRANSFER_FUNDS',
      amount,
      balance: a.balance,
      ...(comment === undefined ? {} : { comment }),
    });
  }

  dailyFinancing(
    at: Stamp,
    total: number,
    positions: { instrument: string; amount: number }[],
    eachTrade: (apply: (rec: TradeRec, amount: number) => void) => void,
  ): void {
    const a = this.account;
    a.balance += total;
    a.financing += total;
    eachTrade((rec, amount) => {
      rec.financing += amount;
    });
    const id = this.nextId;
    this.push({ id, batchId: id, time: at, type: 'DAILY_FINANCING', total, balance: a.balance, positions });
  }

  private halfSpreadCost(spec: InstrumentSpec, units: number, conversion: number): number {
    return toMoneyUnits(((units * spec.halfSpreadTicks) / spec.scale) * conversion);
  }
}
