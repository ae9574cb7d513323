import { DAY_MS, HOUR_MS, MINUTE_MS, instantOf } from '../../domain/calendar';
import { decimalDifference } from '../../domain/decimal';
import { toMinorUnits } from '../../domain/money';
import type { CandleGranularity, MoneyCandle, MoneyTrade } from './ports';

/**
 * E(t) rebuilt from candles (docs/money.md, E(t)): the balance plus each open position's P/L at the last complete
 * candle, converted into the account currency at the same candle's rate.
 */

const GRANULARITY_MS: Record<CandleGranularity, number> = { M1: MINUTE_MS, M5: 5 * MINUTE_MS, H1: HOUR_MS };

/** M1 for spans shorter than a day, M5 up to 30 days, H1 beyond. */
export function granularityFor(spanMs: number): CandleGranularity {
  if (spanMs < DAY_MS) return 'M1';
  if (spanMs <= 30 * DAY_MS) return 'M5';
  return 'H1';
}

/**
 * Currencies in the order the market names pairs (the base is the one earlier here): EUR_USD, GBP_USD, USD_JPY,
 * EUR_GBP. A currency not listed comes after them all (USD_HKD), two unlisted ones in alphabetical order.
 */
const PAIR_ORDER = ['EUR', 'GBP', 'AUD', 'NZD', 'USD', 'CAD', 'CHF', 'JPY'];
const rank = (c: string) => {
  const i = PAIR_ORDER.indexOf(c);
  return i < 0 ? PAIR_ORDER.length : i;
};

/** How a P/L in `quote` becomes the account's `currency`. */
export type Conversion =
  | { kind: 'same' }
  /** Divide by the traded instrument's own price (USD_JPY on a USD account). */
  | { kind: 'own' }
  /** Multiply by (`invert` false) or divide by (true) another instrument's price (GBP_USD, USD_CHF). */
  | { kind: 'pair'; instrument: string; invert: boolean };

/** The conversion of an instrument's P/L into `currency`; null when the instrument does not name its quote currency. */
export function conversionOf(instrument: string, currency: string): Conversion | null {
  const parts = instrument.split('_');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return null;
  const [base, quote] = parts as [string, string];
  if (quote === currency) return { kind: 'same' };
  if (base === currency) return { kind: 'own' };
  const quoteFirst = rank(quote) < rank(currency) || (rank(quote) === rank(currency) && quote < currency);
  return quoteFirst
    ? { kind: 'pair', instrument: `${quote}_${currency}`, invert: false }
    : { kind: 'pair', instrument: `${currency}_${quote}`, invert: true };
}

/** The instruments whose candles the positions need: their own and their conversions'. */
export function instrumentsNeeded(trades: readonly MoneyTrade[], currency: string): Set<string> {
  const out = new Set<string>();
  for (const t of trades) {
    const conversion = conversionOf(t.instrument, currency);
    if (!conversion) continue;
    out.add(t.instrument);
    if (conversion.kind === 'pair') out.add(conversion.instrument);
  }
  return out;
}

/** Candle closes by the time each candle ended (epoch ms), oldest first. */
export interface PriceSeries {
  ends: Float64Array;
  closes: Float64Array;
  /** The closes as the source gave them, for exact differences. */
  closeText: string[];
}

export function priceSeries(candles: readonly MoneyCandle[], granularity: CandleGranularity): PriceSeries {
  const step = GRANULARITY_MS[granularity];
  const kept = [...candles];
  kept.sort((a, b) => instantOf(a.time) - instantOf(b.time));
  const ends = new Float64Array(kept.length);
  const closes = new Float64Array(kept.length);
  const closeText: string[] = [];
  kept.forEach((c, i) => {
    ends[i] = instantOf(c.time) + step;
    closes[i] = Number(c.c);
    closeText.push(c.c);
  });
  return { ends, closes, closeText };
}

/** Index of the last candle ended at or before `at`; −1 when none has. */
function lastEnded(series: PriceSeries, at: number): number {
  let lo = 0;
  let hi = series.ends.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (series.ends[mid]! <= at) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** A trade prepared for repeated evaluation. */
interface Position {
  openAt: number;
  closeAt: number;
  units: number;
  price: string;
  instrument: string;
  conversion: Conversion | null;
}

/** Candles older than this at `t` say nothing about `t` (a gap in the data: unknown, not stale). */
const STALE_CANDLES = 4;

/**
 * E at each of `times` (sorted, epoch ms) as minor units, or null where unknown: a position open then whose
 * instrument or conversion has no recent complete candle, or names no quote currency. `balanceAt` gives B(t).
 */
export function equityAt(
  times: readonly number[],
  trades: readonly MoneyTrade[],
  currency: string,
  series: ReadonlyMap<string, PriceSeries>,
  granularity: CandleGranularity,
  balanceAt: (at: number) => number,
): Array<number | null> {
  const stale = STALE_CANDLES * GRANULARITY_MS[granularity];
  const positions: Position[] = trades
    .filter((t) => t.price !== null)
    .map((t) => ({
      openAt: instantOf(t.openTime),
      closeAt: t.closeTime === null ? Number.POSITIVE_INFINITY : instantOf(t.closeTime),
      units: Number(t.units),
      price: t.price!,
      instrument: t.instrument,
      conversion: conversionOf(t.instrument, currency),
    }))
    .sort((a, b) => a.openAt - b.openAt);
  const out: Array<number | null> = [];
  let next = 0;
  let active: Position[] = [];
  const priceAt = (instrument: string, at: number): { close: number; text: string } | null => {
    const s = series.get(instrument);
    if (!s) return null;
    const i = lastEnded(s, at);
    if (i < 0 || at - s.ends[i]! > stale) return null;
    return { close: s.closes[i]!, text: s.closeText[i]! };
  };
  for (const at of times) {
    while (next < positions.length && positions[next]!.openAt <= at) active.push(positions[next++]!);
    active = active.filter((p) => p.closeAt > at);
    let equity: number | null = balanceAt(at);
    for (const p of active) {
      const own = p.conversion ? priceAt(p.instrument, at) : null;
      if (!own || !p.conversion) {
        equity = null;
        break;
      }
      let pl = p.units * decimalDifference(own.text, p.price);
      if (p.conversion.kind === 'own') pl /= own.close;
      else if (p.conversion.kind === 'pair') {
        const rate = priceAt(p.conversion.instrument, at);
        if (!rate) {
          equity = null;
          break;
        }
        pl = p.conversion.invert ? pl / rate.close : pl * rate.close;
      }
      equity += toMinorUnits(pl);
    }
    out.push(equity);
  }
  return out;
}

export { GRANULARITY_MS };
