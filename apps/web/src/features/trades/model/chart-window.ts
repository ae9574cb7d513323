import { GRANULARITY_SECONDS, type Granularity, type TradeItem } from '@pipsense/contract';
import type { CandleWindow } from '../api/trade-candles-api';

/** The granularities the chart picks from, finest first, with their length in seconds (the contract's table). */
const STEPS: readonly { granularity: Granularity; seconds: number }[] = (
  ['M1', 'M5', 'M15', 'M30', 'H1', 'H4', 'D', 'W'] as const
).map((granularity) => ({ granularity, seconds: GRANULARITY_SECONDS[granularity] }));

/** Enough candles to read the price action, few enough to stay legible in a modal (and far below OANDA's 5000). */
const MAX_CANDLES = 320;
/** Context shown before the entry and after the exit: a quarter of the trade's life, at least this many candles. */
const MIN_PAD_CANDLES = 24;
const PAD_SHARE = 0.25;

/**
 * The candles to draw around a trade: the finest granularity that shows the whole trade, from a little before the
 * entry to a little after the exit (or up to now for an open trade), in at most MAX_CANDLES candles.
 */
export function chartWindow(
  trade: Pick<TradeItem, 'instrument' | 'openTime' | 'closeTime'>,
  now: number,
): CandleWindow {
  const opened = Date.parse(trade.openTime);
  const closedAt = trade.closeTime ? Date.parse(trade.closeTime) : Number.NaN;
  const end = Math.min(Number.isNaN(closedAt) ? now : closedAt, now);
  const start = Math.min(opened, end);
  const life = (end - start) / 1000;

  let chosen = STEPS[STEPS.length - 1]!;
  let pad = 0;
  for (const step of STEPS) {
    const stepPad = Math.max(life * PAD_SHARE, MIN_PAD_CANDLES * step.seconds);
    if ((life + 2 * stepPad) / step.seconds <= MAX_CANDLES) {
      chosen = step;
      pad = stepPad;
      break;
    }
  }
  if (pad === 0) pad = Math.max(life * PAD_SHARE, MIN_PAD_CANDLES * chosen.seconds);

  const from = start - pad * 1000;
  // OANDA refuses a `to` in the future.
  const to = Math.min(end + pad * 1000, now);
  return {
    instrument: trade.instrument,
    granularity: chosen.granularity,
    from: new Date(from).toISOString(),
    to: new Date(Math.max(to, from + chosen.seconds * 1000)).toISOString(),
  };
}
