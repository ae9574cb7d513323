import { GRANULARITY_SECONDS, type Granularity } from '@pipsense/contract';
import { compareDecimals, isDecimal } from '../../domain/decimal';
import { MAX_CANDLES, type CandleParams } from '../../integrations/oanda/oanda-client';
import type { CandlesResponse } from '../../integrations/oanda/wire-schemas';
import type { Candle } from '../candles';

/*
 * The worst and best prices a closed trade reached over its life, from OANDA candles (docs/decisions/010-…).
 * Prices are those of the trade's CLOSING side, the side it would have been closed at: bid for a long, ask for a
 * short. So a long's MAE is the lowest bid low and its MFE the highest bid high; a short's MAE is the highest ask
 * high and its MFE the lowest ask low. The figures in pips and R come from domain/risk.ts.
 */

export interface GranularityChoice {
  granularity: Granularity;
  seconds: number;
}

/** The granularities tried, finest first, with their length. */
const GRANULARITIES: readonly GranularityChoice[] = (['M1', 'M5', 'M15', 'M30', 'H1', 'H4', 'D', 'W'] as const).map(
  (granularity) => ({ granularity, seconds: GRANULARITY_SECONDS[granularity] }),
);

/**
 * The finest granularity whose candles over [open, close] fit one request (≤ 5000 candles, with a candle of
 * margin on each side for alignment): M1 up to about 3.4 days, M5 up to 17 days, … D up to 13 years.
 */
export function granularityFor(openMs: number, closeMs: number): GranularityChoice {
  const span = Math.max(0, closeMs - openMs) / 1000;
  for (const choice of GRANULARITIES) if (Math.ceil(span / choice.seconds) + 2 <= MAX_CANDLES) return choice;
  return GRANULARITIES[GRANULARITIES.length - 1]!;
}

/** The candle component a trade's excursions are read from: its closing side. */
export const priceComponentFor = (initialUnits: string): 'B' | 'A' => (initialUnits.trim().startsWith('-') ? 'A' : 'B');

export interface CandleRange {
  /** The candle's start, RFC 3339 (OANDA's nanoseconds allowed). */
  time: string;
  high: string;
  low: string;
}

export interface ExcursionInput {
  initialUnits: string;
  openMs: number;
  closeMs: number;
  /** The length of one candle, seconds. */
  candleSeconds: number;
  /** The average close price, itself a price the trade reached. */
  exitPrice: string | null;
}

export interface ExcursionPrices {
  maePrice: string;
  mfePrice: string;
}

/** Milliseconds of an RFC 3339 time as OANDA and the trades table write it (nanoseconds cut to milliseconds). */
const timeMs = (time: string): number => Date.parse(time.replace(/(\.\d{3})\d+/, '$1'));

/**
 * MAE and MFE prices from candles of the trade's closing side. Only candles overlapping the trade's life count
 * (start before the close, end after the open); the exit price is included. Null when no candle overlaps.
 */
export function excursionPrices(input: ExcursionInput, candles: readonly CandleRange[]): ExcursionPrices | null {
  let low: string | undefined;
  let high: string | undefined;
  const length = input.candleSeconds * 1000;
  for (const candle of candles) {
    const start = timeMs(candle.time);
    if (!Number.isFinite(start) || start > input.closeMs || start + length <= input.openMs) continue;
    if (!isDecimal(candle.low) || !isDecimal(candle.high)) continue;
    if (low === undefined || compareDecimals(candle.low, low) < 0) low = candle.low;
    if (high === undefined || compareDecimals(candle.high, high) > 0) high = candle.high;
  }
  if (low === undefined || high === undefined) return null;
  if (isDecimal(input.exitPrice)) {
    if (compareDecimals(input.exitPrice, low) < 0) low = input.exitPrice;
    if (compareDecimals(input.exitPrice, high) > 0) high = input.exitPrice;
  }
  const short = input.initialUnits.trim().startsWith('-');
  return short ? { maePrice: high, mfePrice: low } : { maePrice: low, mfePrice: high };
}

/** What a closed trade's excursions are computed from, as the trades table holds it. */
export interface ClosedTradeFacts {
  instrument: string;
  initial_units: string;
  open_time: string;
  close_time: string;
  average_close_price: string | null;
}

export interface CandlePlan {
  instrument: string;
  params: CandleParams & { granularity: Granularity; price: 'B' | 'A'; from: string; to: string };
  input: ExcursionInput;
}

/** The one candle request covering a closed trade's life, and how to read its answer. */
export function candlePlanFor(trade: ClosedTradeFacts): CandlePlan {
  const openMs = timeMs(trade.open_time);
  const closeMs = timeMs(trade.close_time);
  const choice = granularityFor(openMs, closeMs);
  return {
    instrument: trade.instrument,
    params: {
      granularity: choice.granularity,
      price: priceComponentFor(trade.initial_units),
      from: new Date(openMs).toISOString(),
      to: new Date(closeMs).toISOString(),
    },
    input: {
      initialUnits: trade.initial_units,
      openMs,
      closeMs,
      candleSeconds: choice.seconds,
      exitPrice: trade.average_close_price,
    },
  };
}

/** MAE and MFE prices from OANDA's answer to the plan's request; null when it holds no candle of the trade's life. */
export function excursionsFromCandles(plan: CandlePlan, body: CandlesResponse): ExcursionPrices | null {
  const candles = body.candles.flatMap((c) => {
    const data = plan.params.price === 'B' ? c.bid : c.ask;
    return data ? [{ time: c.time, high: data.h, low: data.l }] : [];
  });
  return excursionPrices(plan.input, candles);
}

/** MAE and MFE prices from the store's candles of the plan's side and range (modules/candles read). */
export function excursionsFromStoredCandles(plan: CandlePlan, candles: readonly Candle[]): ExcursionPrices | null {
  return excursionPrices(
    plan.input,
    candles.map((c) => ({ time: c.time, high: c.h, low: c.l })),
  );
}
