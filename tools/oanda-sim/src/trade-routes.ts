// GET .../trades, .../openTrades and .../trades/{tradeSpecifier}.

import type { TradeStateFilter } from './broker';
import { INSTRUMENT_NAME_RE } from './instruments';
import { ERRORS, ok, type Reply } from './reply';
import type { AccountRouteContext } from './route-context';
import { tradeWire, openTradesOf } from './wire';

const STATES: readonly TradeStateFilter[] = ['OPEN', 'CLOSED', 'CLOSE_WHEN_TRADEABLE', 'ALL'];
const DEFAULT_COUNT = 50;
const MAX_COUNT = 500;

export function listTrades(ctx: AccountRouteContext): Reply {
  const q = ctx.query;
  const state = (q.get('state') ?? 'OPEN') as TradeStateFilter;
  if (!STATES.includes(state)) return ERRORS.invalid('state');
  const instrument = q.get('instrument') ?? undefined;
  if (instrument !== undefined && !INSTRUMENT_NAME_RE.test(instrument)) return ERRORS.invalid('instrument');
  let ids: Set<number> | undefined;
  const rawIds = q.get('ids');
  if (rawIds !== null) {
    const parts = rawIds.split(',');
    if (!parts.every((p) => /^\d+$/.test(p))) return ERRORS.invalid('ids');
    ids = new Set(parts.map(Number));
  }
  let count = DEFAULT_COUNT;
  const rawCount = q.get('count');
  if (rawCount !== null) {
    if (!/^\d+$/.test(rawCount) || Number(rawCount) < 1) return ERRORS.invalid('count');
    count = Number(rawCount);
    if (count > MAX_COUNT) return ERRORS.maxExceeded('count');
  }
  let beforeId: number | undefined;
  const rawBefore = q.get('beforeID');
  if (rawBefore !== null) {
    if (!/^\d+$/.test(rawBefore)) return ERRORS.invalid('beforeID');
    beforeId = Number(rawBefore);
  }
  const trades = ctx.broker.listTrades(ctx.account, { state, instrument, ids, count, beforeId });
  const body = {
    trades: trades.map((t) => tradeWire(ctx.wire, ctx.account, t)),
    lastTransactionID: ctx.lastTransactionID,
  };
  const last = trades[trades.length - 1];
  if (!last) return ok(body);
  // As in OANDA's published example: a next link carrying the page's oldest id as beforeID,
  // sent whenever the page is non-empty, the other parameters repeated in alphabetical order.
  const params = new URLSearchParams();
  const names = new Set([...q.keys(), 'beforeID']);
  for (const name of [...names].sort()) params.set(name, name === 'beforeID' ? String(last.id) : (q.get(name) ?? ''));
  return ok(body, { Link: `<${ctx.baseUrl}${ctx.pathname}?${params.toString()}>; rel="next"` });
}

export function listOpenTrades(ctx: AccountRouteContext): Reply {
  return ok({
    trades: openTradesOf(ctx.account).map((t) => tradeWire(ctx.wire, ctx.account, t)),
    lastTransactionID: ctx.lastTransactionID,
  });
}

export function getTrade(ctx: AccountRouteContext, specifier: string): Reply {
  const rec = ctx.broker.findTrade(ctx.account, specifier);
  if (!rec) return ERRORS.noSuchTrade(ctx.lastTransactionID);
  return ok({ trade: tradeWire(ctx.wire, ctx.account, rec), lastTransactionID: ctx.lastTransactionID });
}
