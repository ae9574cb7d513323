// GET .../transactions (page URLs only), /transactions/idrange, /transactions/sinceid and
// /transactions/{id}.

import { parseDateTime } from './format';
import type { TxRec } from './ledger-types';
import { ERRORS, ok, type Reply } from './reply';
import type { AccountRouteContext } from './route-context';
import { transactionWire } from './wire-transactions';

const ORDER_TYPES = new Set([
  'MARKET_ORDER',
  'ORDER_FILL',
  'ORDER_CANCEL',
  'TAKE_PROFIT_ORDER',
  'STOP_LOSS_ORDER',
  'TRAILING_STOP_LOSS_ORDER',
]);

/**
 * OANDA's TransactionFilter values: the ORDER/FUNDING/ADMIN groups and the transaction types, not all of them:
 * FIXED_PRICE_ORDER and DIVIDEND_ADJUSTMENT have no filter value, and asking for one is a 400 like any unknown name.
 */
const FILTERS = new Set([
  'ORDER',
  'FUNDING',
  'ADMIN',
  'CREATE',
  'CLOSE',
  'REOPEN',
  'CLIENT_CONFIGURE',
  'CLIENT_CONFIGURE_REJECT',
  'TRANSFER_FUNDS',
  'TRANSFER_FUNDS_REJECT',
  'MARKET_ORDER',
  'MARKET_ORDER_REJECT',
  'LIMIT_ORDER',
  'LIMIT_ORDER_REJECT',
  'STOP_ORDER',
  'STOP_ORDER_REJECT',
  'MARKET_IF_TOUCHED_ORDER',
  'MARKET_IF_TOUCHED_ORDER_REJECT',
  'TAKE_PROFIT_ORDER',
  'TAKE_PROFIT_ORDER_REJECT',
  'STOP_LOSS_ORDER',
  'STOP_LOSS_ORDER_REJECT',
  'GUARANTEED_STOP_LOSS_ORDER',
  'GUARANTEED_STOP_LOSS_ORDER_REJECT',
  'TRAILING_STOP_LOSS_ORDER',
  'TRAILING_STOP_LOSS_ORDER_REJECT',
  'ONE_CANCELS_ALL_ORDER',
  'ONE_CANCELS_ALL_ORDER_REJECT',
  'ONE_CANCELS_ALL_ORDER_TRIGGERED',
  'ORDER_FILL',
  'ORDER_CANCEL',
  'ORDER_CANCEL_REJECT',
  'ORDER_CLIENT_EXTENSIONS_MODIFY',
  'ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT',
  'TRADE_CLIENT_EXTENSIONS_MODIFY',
  'TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT',
  'MARGIN_CALL_ENTER',
  'MARGIN_CALL_EXTEND',
  'MARGIN_CALL_EXIT',
  'DELAYED_TRADE_CLOSURE',
  'DAILY_FINANCING',
  'RESET_RESETTABLE_PL',
]);

const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

type TypeFilter = ((tx: TxRec) => boolean) | undefined;

function parseTypeFilter(raw: string | null): TypeFilter | Reply {
  if (raw === null) return undefined;
  const names = raw.split(',');
  if (!names.every((n) => FILTERS.has(n))) return ERRORS.invalid('type');
  const set = new Set(names);
  return (tx: TxRec) =>
    set.has(tx.type) ||
    (set.has('ORDER') && ORDER_TYPES.has(tx.type)) ||
    (set.has('FUNDING') && tx.type === 'TRANSFER_FUNDS') ||
    (set.has('ADMIN') && (tx.type === 'CREATE' || tx.type === 'CLIENT_CONFIGURE'));
}

function isReply(x: unknown): x is Reply {
  return typeof x === 'object' && x !== null && 'status' in x;
}

export function listTransactionPages(ctx: AccountRouteContext): Reply {
  const q = ctx.query;
  const account = ctx.account;
  const now = ctx.wire.nowMs;
  const time = (name: 'from' | 'to', fallback: number): number | Reply => {
    const raw = q.get(name);
    if (raw === null) return fallback;
    return parseDateTime(raw, ctx.datetimeFormat) ?? ERRORS.invalid(name);
  };
  const from = time('from', account.created.ms);
  if (isReply(from)) return from;
  const to = time('to', now);
  if (isReply(to)) return to;
  let pageSize = DEFAULT_PAGE_SIZE;
  const rawSize = q.get('pageSize');
  if (rawSize !== null) {
    if (!/^\d+$/.test(rawSize) || Number(rawSize) < 1) return ERRORS.invalid('pageSize');
    pageSize = Number(rawSize);
    if (pageSize > MAX_PAGE_SIZE) return ERRORS.maxExceeded('pageSize');
  }
  const filter = parseTypeFilter(q.get('type'));
  if (isReply(filter)) return filter;
  if (to < from) return ERRORS.invalid('to');
  const ids = account.txs
    .filter((tx) => tx.time.ms >= from && tx.time.ms <= to && (!filter || filter(tx)))
    .map((tx) => tx.id);
  const pages: string[] = [];
  const typeParam = q.get('type');
  for (let i = 0; i < ids.length; i += pageSize) {
    const first = ids[i];
    const last = ids[Math.min(i + pageSize, ids.length) - 1];
    const url = `${ctx.baseUrl}/v3/accounts/${account.id}/transactions/idrange?from=${first}&to=${last}`;
    pages.push(typeParam === null ? url : `${url}&type=${encodeURIComponent(typeParam)}`);
  }
  const body: Record<string, unknown> = {
    from: ctx.wire.fmt(from, 0),
    to: ctx.wire.fmt(to, 0),
    pageSize,
  };
  if (typeParam !== null) body.type = typeParam.split(',');
  body.count = ids.length;
  body.pages = pages;
  body.lastTransactionID = ctx.lastTransactionID;
  return ok(body);
}

function idParam(q: URLSearchParams, name: string): number | Reply {
  const raw = q.get(name);
  if (raw === null || raw === '') return ERRORS.missing();
  if (!/^\d+$/.test(raw)) return ERRORS.invalid(name);
  return Number(raw);
}

function transactionsReply(ctx: AccountRouteContext, fromId: number, toId: number, filter: TypeFilter): Reply {
  const out: Record<string, unknown>[] = [];
  const txs = ctx.account.txs;
  for (let id = Math.max(1, fromId); id <= Math.min(toId, txs.length); id++) {
    const tx = txs[id - 1];
    if (tx && (!filter || filter(tx))) out.push(transactionWire(ctx.wire, ctx.account, tx));
  }
  return ok({ transactions: out, lastTransactionID: ctx.lastTransactionID });
}

export function transactionIdRange(ctx: AccountRouteContext): Reply {
  const from = idParam(ctx.query, 'from');
  if (isReply(from)) return from;
  const to = idParam(ctx.query, 'to');
  if (isReply(to)) return to;
  const filter = parseTypeFilter(ctx.query.get('type'));
  if (isReply(filter)) return filter;
  if (from > ctx.account.txs.length) return ERRORS.rangeNotSatisfiable();
  return transactionsReply(ctx, from, to, filter);
}

export function transactionsSinceId(ctx: AccountRouteContext): Reply {
  const id = idParam(ctx.query, 'id');
  if (isReply(id)) return id;
  const filter = parseTypeFilter(ctx.query.get('type'));
  if (isReply(filter)) return filter;
  if (id > ctx.account.txs.length) return ERRORS.rangeNotSatisfiable();
  return transactionsReply(ctx, id + 1, ctx.account.txs.length, filter);
}

export function getTransaction(ctx: AccountRouteContext, rawId: string): Reply {
  const tx = /^\d+$/.test(rawId) ? ctx.account.txs[Number(rawId) - 1] : undefined;
  if (!tx) return ERRORS.noSuchTransaction(ctx.lastTransactionID);
  return ok({ transaction: transactionWire(ctx.wire, ctx.account, tx), lastTransactionID: ctx.lastTransactionID });
}
