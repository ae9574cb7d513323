import type { Attachment, TradeItem } from '@pipsense/contract';
import { compareDecimals, isDecimal, negateDecimal, signOf, sumDecimals } from './decimal';
import { inPeriod, type ResolvedPeriod } from './periods';

export const TRADE_STATES = ['open', 'closed', 'all'] as const;
export const TRADE_SORTS = ['pl_desc', 'pl_asc', 'newest', 'oldest'] as const;
export const OUTCOMES = ['winners', 'losers', 'any'] as const;
export const PRESENCE = ['with', 'without', 'any'] as const;
export const DEFAULT_TOP = 10;
export const MAX_TOP = 50;

export interface TradeFilter {
  state: (typeof TRADE_STATES)[number];
  instrument?: string | undefined;
  period: ResolvedPeriod;
  outcome: (typeof OUTCOMES)[number];
  stopLoss: (typeof PRESENCE)[number];
  takeProfit: (typeof PRESENCE)[number];
  sort: (typeof TRADE_SORTS)[number];
  limit: number;
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

const isOpen = (t: TradeItem) => t.state !== 'CLOSED';

/** Realized plus unrealized P/L of a trade: what it has made so far. */
export function tradePL(t: TradeItem): string {
  const parts = [t.realizedPL, t.unrealizedPL].filter(isDecimal);
  return parts.length > 0 ? sumDecimals(parts) : '0';
}

/** Closed trades belong to the period they closed in, open ones to the period they opened in. */
export const tradeTime = (t: TradeItem): string | null => (isOpen(t) ? t.openTime : t.closeTime);

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

/** Filters, sorts and cuts the user's trades; totals cover every match. */
export function queryTrades(
  trades: ReadonlyArray<TradeItem>,
  filter: TradeFilter,
  currencies: Readonly<Record<string, string>> = {},
): TradeQueryResult {
  const instrument = filter.instrument ? normaliseInstrument(filter.instrument) : undefined;
  const matches = trades.filter((t) => {
    if (filter.state === 'open' && !isOpen(t)) return false;
    if (filter.state === 'closed' && isOpen(t)) return false;
    if (instrument && t.instrument.toUpperCase() !== instrument) return false;
    if (!inPeriod(filter.period, tradeTime(t))) return false;
    const sign = signOf(tradePL(t));
    if (filter.outcome === 'winners' && sign <= 0) return false;
    if (filter.outcome === 'losers' && sign >= 0) return false;
    if (filter.stopLoss !== 'any' && (t.stopLossPrice !== null) !== (filter.stopLoss === 'with')) return false;
    if (filter.takeProfit !== 'any' && (t.takeProfitPrice !== null) !== (filter.takeProfit === 'with')) return false;
    return true;
  });

  const sorted = [...matches];
  switch (filter.sort) {
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
  const limit = Math.min(Math.max(Math.trunc(filter.limit), 1), MAX_TOP);
  const currencyOf = (t: TradeItem) => currencies[t.accountId] ?? null;
  const pls = matches.map(tradePL);
  const byCurrency = new Map<string | null, string[]>();
  for (const t of matches) byCurrency.set(currencyOf(t), [...(byCurrency.get(currencyOf(t)) ?? []), tradePL(t)]);
  const shown = sorted.slice(0, limit).map((t) => toRow(t, currencyOf(t)));
  return {
    matched: matches.length,
    shown: shown.length,
    totals: {
      winners: pls.filter((p) => signOf(p) > 0).length,
      losers: pls.filter((p) => signOf(p) < 0).length,
      breakeven: pls.filter((p) => signOf(p) === 0).length,
      pl: [...byCurrency].map(([currency, list]) => ({ currency, amount: sumDecimals(list) })),
    },
    trades: shown,
  };
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
