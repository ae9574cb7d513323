// GET .../accounts/{id}, /summary, /instruments, /positions, /openPositions, /positions/{instrument},
// /pendingOrders and /changes.

import { INSTRUMENTS, INSTRUMENT_NAME_RE, instrumentWire } from './instruments';
import type { DependentOrder, TradeRec } from './ledger-types';
import { ERRORS, ok, type Reply } from './reply';
import type { AccountRouteContext } from './route-context';
import {
  accountDetailsWire,
  accountSummaryWire,
  changesStateWire,
  orderWire,
  pendingOrders,
  positionsWire,
  tradeWire,
} from './wire';
import { marketOrderWire, transactionWire } from './wire-transactions';

export function getAccount(ctx: AccountRouteContext): Reply {
  return ok({ account: accountDetailsWire(ctx.wire, ctx.account), lastTransactionID: ctx.lastTransactionID });
}

export function getSummary(ctx: AccountRouteContext): Reply {
  return ok({ account: accountSummaryWire(ctx.wire, ctx.account), lastTransactionID: ctx.lastTransactionID });
}

export function getInstruments(ctx: AccountRouteContext): Reply {
  const raw = ctx.query.get('instruments');
  let wanted: Set<string> | undefined;
  if (raw !== null) {
    const names = raw.split(',');
    if (!names.every((n) => INSTRUMENT_NAME_RE.test(n))) return ERRORS.invalid('instruments');
    wanted = new Set(names);
  }
  return ok({
    instruments: INSTRUMENTS.filter((i) => !wanted || wanted.has(i.name)).map(instrumentWire),
    lastTransactionID: ctx.lastTransactionID,
  });
}

export function listPositions(ctx: AccountRouteContext, openOnly: boolean): Reply {
  const positions = positionsWire(ctx.wire, ctx.account).filter((p) => {
    if (!openOnly) return true;
    const side = (s: unknown) => (s as { units?: string }).units ?? '0';
    return side(p.long) !== '0' || side(p.short) !== '0';
  });
  return ok({ positions, lastTransactionID: ctx.lastTransactionID });
}

export function getPosition(ctx: AccountRouteContext, instrument: string): Reply {
  if (!INSTRUMENT_NAME_RE.test(instrument)) return ERRORS.invalid('instrument');
  const [position] = positionsWire(ctx.wire, ctx.account, new Set([instrument]));
  const zeroSide = {
    units: '0',
    pl: '0.0000',
    resettablePL: '0.0000',
    financing: '0.0000',
    guaranteedExecutionFees: '0.0000',
    unrealizedPL: '0.0000',
  };
  return ok({
    position: position ?? {
      instrument,
      long: zeroSide,
      short: zeroSide,
      pl: '0.0000',
      resettablePL: '0.0000',
      financing: '0.0000',
      commission: '0.0000',
      dividendAdjustment: '0.0000',
      guaranteedExecutionFees: '0.0000',
      unrealizedPL: '0.0000',
      marginUsed: '0.0000',
    },
    lastTransactionID: ctx.lastTransactionID,
  });
}

export function listPendingOrders(ctx: AccountRouteContext): Reply {
  return ok({
    orders: pendingOrders(ctx.account).map(({ rec, order }) => orderWire(ctx.wire, rec, order)),
    lastTransactionID: ctx.lastTransactionID,
  });
}

/** GET .../changes?sinceTransactionID=N: everything that happened after transaction N. */
export function getChanges(ctx: AccountRouteContext): Reply {
  const raw = ctx.query.get('sinceTransactionID');
  if (raw === null || raw === '') return ERRORS.missing();
  if (!/^\d+$/.test(raw)) return ERRORS.invalid('sinceTransactionID');
  const since = Number(raw);
  const account = ctx.account;
  if (since > account.txs.length) return ERRORS.rangeNotSatisfiable();
  const ordersCreated: Record<string, unknown>[] = [];
  const ordersFilled: Record<string, unknown>[] = [];
  const ordersCancelled: Record<string, unknown>[] = [];
  const opened = new Map<number, TradeRec>();
  const reduced = new Map<number, TradeRec>();
  const closed = new Map<number, TradeRec>();
  const instruments = new Set<string>();
  const transactions: Record<string, unknown>[] = [];
  const dependent = (rec: TradeRec, order: DependentOrder) => orderWire(ctx.wire, rec, order);
  for (let i = since; i < account.txs.length; i++) {
    const tx = account.txs[i];
    if (!tx) continue;
    transactions.push(transactionWire(ctx.wire, account, tx));
    switch (tx.type) {
      case 'MARKET_ORDER': {
        const order = marketOrderWire(ctx.wire, account, tx);
        ordersCreated.push(order);
        if (order.state === 'FILLED') ordersFilled.push(order);
        break;
      }
      case 'TAKE_PROFIT_ORDER':
      case 'STOP_LOSS_ORDER':
      case 'TRAILING_STOP_LOSS_ORDER':
        ordersCreated.push(dependent(tx.trade, tx.order));
        break;
      case 'ORDER_CANCEL': {
        const rec = account.tradesById.get(tx.order.tradeId);
        if (rec) ordersCancelled.push(dependent(rec, tx.order));
        break;
      }
      case 'ORDER_FILL': {
        instruments.add(tx.trade.spec.name);
        const target = tx.effect === 'OPEN' ? opened : tx.effect === 'REDUCE' ? reduced : closed;
        target.set(tx.trade.id, tx.trade);
        for (const order of [tx.trade.tp, tx.trade.sl, tx.trade.tsl]) {
          if (order && order.id === tx.orderId) ordersFilled.push(dependent(tx.trade, order));
        }
        break;
      }
      case 'DAILY_FINANCING':
        for (const p of tx.positions) instruments.add(p.instrument);
        break;
      default:
        break;
    }
  }
  for (const id of closed.keys()) reduced.delete(id);
  const summaries = (m: Map<number, TradeRec>) =>
    [...m.values()].sort((a, b) => a.id - b.id).map((t) => tradeWire(ctx.wire, account, t, true));
  return ok({
    changes: {
      ordersCreated,
      ordersCancelled,
      ordersFilled,
      ordersTriggered: [],
      tradesOpened: summaries(opened),
      tradesReduced: summaries(reduced),
      tradesClosed: summaries(closed),
      positions: instruments.size > 0 ? positionsWire(ctx.wire, account, instruments) : [],
      transactions,
    },
    state: changesStateWire(ctx.wire, account),
    lastTransactionID: ctx.lastTransactionID,
  });
}
