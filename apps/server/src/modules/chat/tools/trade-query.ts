import { platformByQuery, type Attachment, type TradeItem } from '@pipsense/contract';
import { sumMoney } from '../../../domain/money';
import { compareDecimals, isDecimal, negateDecimal, signOf } from '../../../domain/decimal';
import { tradeRef } from '../../journal';
import { tradeMatcher, type TradeFieldReaders, type TradeSelection } from '../../trade-views';
import type { ResolvedPeriod } from './periods';

export const TRADE_STATES = ['open', 'closed', 'all'] as const;
export const TRADE_SORTS = ['pl_desc', 'pl_asc', 'newest', 'oldest'] as const;
export const OUTCOMES = ['winners', 'losers', 'any'] as const;
export const PRESENCE = ['with', 'without', 'any'] as const;
export const DEFAULT_TOP = 10;
export const MAX_TOP = 50;

/** A question of `query_trades` as the tool resolved it: which trades (`questionSelection`), their order and how many. */
export interface TradeQuestion {
  state: (typeof TRADE_STATES)[number];
  instrument?: string | undefined;
  period: ResolvedPeriod;
  outcome: (typeof OUTCOMES)[number];
  stopLoss: (typeof PRESENCE)[number];
  takeProfit: (typeof PRESENCE)[number];
  sort: (typeof TRADE_SORTS)[number];
  limit: number;
  /** Only trades carrying any of these journal tag ids (resolved from names by the tool). */
  tagIds?: readonly string[] | undefined;
}

/** A trade as the assistant describes it; `pl` is realized plus unrealized P/L (financing apart). */
export interface TradeRow {
  tradeId: string;
  accountId: string;
  /** The account currency P/L is in, when the account is synced. */
  currency: string | null;
  instrument: string;
  side: 'long' | 'short';
  units: string;
  state: string;
  openPrice: string | null;
  closePrice: string | null;
  openTime: string;
  closeTime: string | null;
  pl: string;
  realizedPL: string;
  unrealizedPL: string | null;
  financing: string;
  stopLoss: string | null;
  takeProfit: string | null;
  trailingStopDistance: string | null;
  /** The trader's journal on the trade: note (null without one), rating, tag names. */
  note: string | null;
  rating: number | null;
  tags: string[];
}

export interface TradeQueryResult {
  matched: number;
  shown: number;
  /** Over every matched trade, not only the ones shown; P/L per account currency (never added across). */
  totals: {
    winners: number;
    losers: number;
    breakeven: number;
    pl: Array<{ currency: string | null; amount: string }>;
  };
  trades: TradeRow[];
}

const isOpen = (t: Pick<TradeItem, 'state'>) => t.state !== 'CLOSED';

/** Realized plus unrealized P/L of a trade: what it has made so far. */
function tradePL(t: Pick<TradeItem, 'realizedPL' | 'unrealizedPL'>): string {
  const parts = [t.realizedPL, t.unrealizedPL].filter(isDecimal);
  return sumMoney(parts);
}

/** Closed trades belong to the period they closed in, open ones to the period they opened in. */
const tradeTime = (t: TradeItem): string | null => (isOpen(t) ? t.openTime : t.closeTime);

export function normaliseInstrument(text: string): string {
  return text
    .trim()
    .toUpperCase()
    .replace(/[\s/\-.]+/g, '_');
}

function toRow(t: TradeItem, currency: string | null): TradeRow {
  const closed = !isOpen(t);
  const units = closed ? t.initialUnits : t.currentUnits;
  return {
    tradeId: t.tradeId,
    accountId: t.accountId,
    currency,
    instrument: t.instrument,
    side: t.initialUnits.startsWith('-') ? 'short' : 'long',
    units: units.startsWith('-') ? negateDecimal(units) : units,
    state: t.state,
    openPrice: t.price,
    closePrice: t.averageClosePrice,
    openTime: t.openTime,
    closeTime: t.closeTime,
    pl: tradePL(t),
    realizedPL: t.realizedPL,
    unrealizedPL: t.unrealizedPL,
    financing: t.financing,
    stopLoss: t.stopLossPrice,
    takeProfit: t.takeProfitPrice,
    trailingStopDistance: t.trailingStopDistance,
    note: null,
    rating: null,
    tags: [],
  };
}

const byTimeDesc = (a: TradeItem, b: TradeItem) => {
  const ta = tradeTime(a) ?? a.openTime;
  const tb = tradeTime(b) ?? b.openTime;
  return ta < tb ? 1 : ta > tb ? -1 : compareIdsDesc(a, b);
};
const compareIdsDesc = (a: TradeItem, b: TradeItem) => {
  const d = BigInt(b.tradeId.replace(/\D/g, '') || '0') - BigInt(a.tradeId.replace(/\D/g, '') || '0');
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};

/**
 * The question's trades as a selection (the caller adds mode and platform): closed trades by close time, open ones by
 * open time, [from, to); winners and losers by realized plus unrealized P/L, open trades included.
 */
export function questionSelection(q: Omit<TradeQuestion, 'sort' | 'limit'>): TradeSelection {
  return {
    state: q.state === 'all' ? undefined : q.state,
    instrument: q.instrument ? normaliseInstrument(q.instrument) : undefined,
    time: periodTime(q.period),
    outcome: q.outcome === 'any' ? undefined : { of: 'total', is: q.outcome },
    stopLoss: q.stopLoss === 'any' ? undefined : q.stopLoss === 'with',
    takeProfit: q.takeProfit === 'any' ? undefined : q.takeProfit === 'with',
    tags: q.tagIds && q.tagIds.length > 0 ? q.tagIds : undefined,
  };
}

/** A period as the assistant counts it: a closed trade by its close time, an open one by its open time, [from, to). */
function periodTime(period: ResolvedPeriod): TradeSelection['time'] {
  const from = period.from?.toISOString();
  const to = period.to?.toISOString();
  return from || to ? { basis: 'close', ends: 'from', from, to } : undefined;
}

/** The trades closed in the period (the caller adds mode and platform): performance and tag comparisons. */
export const closedInPeriod = (period: ResolvedPeriod, instrument: string | undefined): TradeSelection => ({
  state: 'closed',
  instrument: instrument ? normaliseInstrument(instrument) : undefined,
  time: periodTime(period),
});

const timeOf = (iso: string | null): number | null => {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
};

/** How the selection's matcher reads a trade item (the account is its API id: items carry no account key). */
const itemFields: TradeFieldReaders<TradeItem> = {
  accountKey: (t) => t.accountId,
  platform: (t) => platformByQuery(t.platform).stored,
  mode: (t) => t.mode,
  instrument: (t) => t.instrument,
  short: (t) => t.initialUnits.startsWith('-'),
  state: (t) => t.state,
  // An unreadable open time is outside every bound, as a missing close time is.
  openTime: (t) => timeOf(t.openTime) ?? Number.NaN,
  closeTime: (t) => timeOf(t.closeTime),
  realizedPL: (t) => t.realizedPL,
  unrealizedPL: (t) => t.unrealizedPL,
  hasStopLoss: (t) => t.stopLossPrice !== null,
  hasTakeProfit: (t) => t.takeProfitPrice !== null,
};

/** A selection as a test of trade items held in memory; tags are read from the journal's tags per trade. */
export function itemMatcher(
  selection: TradeSelection,
  tagsByTrade?: ReadonlyMap<string, readonly string[]>,
): (t: TradeItem) => boolean {
  const matches = tradeMatcher(selection, itemFields, {
    tagIds: (t) => tagsByTrade?.get(tradeRef(t.accountId, t.tradeId)),
  });
  return (t) => matches(t, 0);
}

/** Sorts exactly (decimal P/L, then newest, then trade id); stable, so equal trades keep their order. */
export function sortTrades(trades: ReadonlyArray<TradeItem>, sort: TradeQuestion['sort']): TradeItem[] {
  const sorted = [...trades];
  switch (sort) {
    case 'pl_desc':
      sorted.sort((a, b) => compareDecimals(tradePL(b), tradePL(a)) || byTimeDesc(a, b));
      break;
    case 'pl_asc':
      sorted.sort((a, b) => compareDecimals(tradePL(a), tradePL(b)) || byTimeDesc(a, b));
      break;
    case 'newest':
      sorted.sort(byTimeDesc);
      break;
    case 'oldest':
      sorted.sort((a, b) => byTimeDesc(b, a));
      break;
  }
  return sorted;
}

const clampTop = (limit: number) => Math.min(Math.max(Math.trunc(limit), 1), MAX_TOP);

/** What totals are made of: one matched trade's account and P/L parts. */
export type TradeFigure = Pick<TradeItem, 'accountId' | 'realizedPL' | 'unrealizedPL'>;

/** Totals over the matched trades, in their order (P/L groups appear as their currency first does). */
function tradeTotals(
  matches: ReadonlyArray<TradeFigure>,
  currencies: Readonly<Record<string, string>>,
): TradeQueryResult['totals'] {
  const pls = matches.map(tradePL);
  const byCurrency = new Map<string | null, string[]>();
  matches.forEach((t, i) => {
    const currency = currencies[t.accountId] ?? null;
    const list = byCurrency.get(currency);
    if (list) list.push(pls[i]!);
    else byCurrency.set(currency, [pls[i]!]);
  });
  return {
    winners: pls.filter((p) => signOf(p) > 0).length,
    losers: pls.filter((p) => signOf(p) < 0).length,
    breakeven: pls.filter((p) => signOf(p) === 0).length,
    pl: [...byCurrency].map(([currency, list]) => ({ currency, amount: sumMoney(list) })),
  };
}

/** The answer from its parts: `matched` figures for totals, `candidates` (a superset of the top) for the list. */
export function tradeQueryResult(
  figures: ReadonlyArray<TradeFigure>,
  candidates: ReadonlyArray<TradeItem>,
  filter: Pick<TradeQuestion, 'sort' | 'limit'>,
  currencies: Readonly<Record<string, string>>,
): TradeQueryResult {
  const shown = sortTrades(candidates, filter.sort)
    .slice(0, clampTop(filter.limit))
    .map((t) => toRow(t, currencies[t.accountId] ?? null));
  return { matched: figures.length, shown: shown.length, totals: tradeTotals(figures, currencies), trades: shown };
}

/** Filters, sorts and cuts trades held in memory; totals cover every match (tags as the journal has them). */
export function queryTrades(
  trades: ReadonlyArray<TradeItem>,
  filter: TradeQuestion,
  currencies: Readonly<Record<string, string>> = {},
  tagsByTrade?: ReadonlyMap<string, readonly string[]>,
): TradeQueryResult {
  const matches = trades.filter(itemMatcher(questionSelection(filter), tagsByTrade));
  return tradeQueryResult(matches, matches, filter, currencies);
}

const TRADE_COLUMNS = [
  { key: 'tradeId', label: 'Trade ID' },
  { key: 'instrument', label: 'Instrument' },
  { key: 'side', label: 'Side' },
  { key: 'units', label: 'Units' },
  { key: 'state', label: 'State' },
  { key: 'openPrice', label: 'Open Price' },
  { key: 'closePrice', label: 'Close Price' },
  { key: 'openTime', label: 'Opened' },
  { key: 'closeTime', label: 'Closed' },
  { key: 'pl', label: 'P/L' },
  { key: 'stopLoss', label: 'Stop Loss' },
  { key: 'takeProfit', label: 'Take Profit' },
];

/** The table the chat renders under an answer that lists trades. */
export function tradesAttachment(title: string, rows: ReadonlyArray<TradeRow>): Attachment {
  return {
    type: 'trades',
    title,
    columns: TRADE_COLUMNS,
    rows: rows.map((r) => ({
      tradeId: r.tradeId,
      instrument: r.instrument,
      side: r.side,
      units: r.units,
      state: r.state,
      openPrice: r.openPrice,
      closePrice: r.closePrice,
      openTime: r.openTime,
      closeTime: r.closeTime,
      pl: r.pl,
      stopLoss: r.stopLoss,
      takeProfit: r.takeProfit,
    })),
  };
}
