import { compareDecimals, decimalDifference, isPlainDecimal, negateDecimal, subtractDecimals } from './decimal';
import { pipSizeOf } from './instruments';
import { round } from './rounding';

/**
 * Risk in R (definitions in modules/analytics/engine/METRICS.md, "Risk in R"). One trade's initial risk is
 * the distance from its entry price to the first stop-loss attached to it; its result in R is the price move in its
 * favour over that distance, and its excursions (MAE, MFE) are the worst and best prices reached over its life.
 * Everything is in price, so no conversion to the account currency is needed: 1R is what the first stop would have
 * cost. Every screen, the export and the assistant read these figures from here.
 */
export interface RiskFacts {
  instrument: string;
  /** Signed: positive for a long trade, negative for a short one. */
  initialUnits: string;
  /** The entry price (OANDA's `price`). */
  price: string | null;
  /** The average close price; null while the trade is open. */
  averageClosePrice: string | null;
  /** The first stop-loss price attached to the trade; null: "no initial stop". */
  initialStopLossPrice: string | null;
  maePrice?: string | null;
  mfePrice?: string | null;
}

export interface InitialRiskFigures {
  stopLossPrice: string;
  /** |entry − stop| in price, exact. */
  distance: string;
  /** The distance in pips, 1 decimal. */
  pips: number;
}

export interface ExcursionFigures {
  price: string;
  /** Distance from entry in pips (≥ 0), 1 decimal. */
  pips: number;
  /** In R: MAE ≤ 0, MFE ≥ 0, 2 decimals; null without an initial stop. */
  r: number | null;
}

const absDecimal = (a: string): string => (compareDecimals(a, '0') < 0 ? negateDecimal(a) : a);
const direction = (t: RiskFacts): 1 | -1 => (t.initialUnits.trim().startsWith('-') ? -1 : 1);
const pipsOf = (t: RiskFacts, distance: number) => round(distance / pipSizeOf(t.instrument), 1);

/**
 * The distance from entry to the first stop (Number of the exact decimal distance), or null when there is no
 * initial risk: no first stop-loss, or one that does not risk anything, at the entry price or on the profit side of
 * it (a first stop placed only after the price had moved in the trade's favour locks in a gain; a distance to it is
 * no risk, and dividing by it would blow R up). The one test behind every figure below.
 */
function riskDistance(t: RiskFacts): number | null {
  if (!isPlainDecimal(t.price) || !isPlainDecimal(t.initialStopLossPrice)) return null;
  // The stop must sit against the trade: below the entry for a long, above it for a short. The difference is the
  // exact one rounded once, so its sign is exact.
  const towardStop = decimalDifference(t.initialStopLossPrice, t.price);
  if (Math.sign(towardStop) * direction(t) >= 0) return null;
  return Math.abs(towardStop);
}

/** The initial risk, or null ("no initial stop"): see riskDistance. */
export function initialRiskOf(t: RiskFacts): InitialRiskFigures | null {
  const distance = riskDistance(t);
  if (distance === null) return null;
  const stop = t.initialStopLossPrice!;
  return { stopLossPrice: stop, distance: absDecimal(subtractDecimals(stop, t.price!)), pips: pipsOf(t, distance) };
}

/** Whether the trade has an initial risk (a first stop-loss against it): initialRiskOf without its figures. */
export const hasInitialRisk = (t: RiskFacts): boolean => riskDistance(t) !== null;

/** The price move from the entry price to `to` in the trade's favour (negative against it), in price. */
function favourableMove(t: RiskFacts, price: string, to: string): number {
  return decimalDifference(to, price) * direction(t);
}

/** The result in R of a closed trade, 2 decimals; null while open, or without an initial stop. */
export function rMultipleOf(t: RiskFacts): number | null {
  const distance = riskDistance(t);
  if (distance === null || !isPlainDecimal(t.averageClosePrice) || !isPlainDecimal(t.price)) return null;
  return round(favourableMove(t, t.price, t.averageClosePrice) / distance, 2);
}

function excursionOf(t: RiskFacts, reached: string | null | undefined, sign: 1 | -1): ExcursionFigures | null {
  if (!isPlainDecimal(reached) || !isPlainDecimal(t.price)) return null;
  const move = favourableMove(t, t.price, reached);
  // A price on the wrong side of entry for this excursion means it never went that way: the excursion is 0.
  const along = move * sign > 0 ? Math.abs(move) : 0;
  const distance = riskDistance(t);
  const r = distance !== null ? round((sign * along) / distance, 2) : null;
  return { price: reached, pips: round(along / pipSizeOf(t.instrument), 1), r: r === 0 ? 0 : r };
}

/** Maximum adverse excursion: the worst price reached against the trade. */
export const maeOf = (t: RiskFacts) => excursionOf(t, t.maePrice, -1);
/** Maximum favourable excursion: the best price reached in the trade's favour. */
export const mfeOf = (t: RiskFacts) => excursionOf(t, t.mfePrice, 1);

/**
 * The percent of the most favourable move a closed trade's exit kept: the exit's move in the trade's favour over
 * the best price's, both from the entry (numbers in price). Negative when the trade closed against itself; null when
 * the price never moved in its favour. The coach's early-exit pattern and its trade facts read it from here.
 */
export function mfeCapturePct(entry: number, exit: number, best: number, long: boolean): number | null {
  const direction = long ? 1 : -1;
  const bestMove = (best - entry) * direction;
  if (!(bestMove > 0)) return null;
  return (((exit - entry) * direction) / bestMove) * 100;
}

/**
 * Whether a stop was ever replaced farther from the entry on the losing side than the stop before it: the stop
 * levels of the trade's stop-loss orders in the order placed, the entry and the side. A stop at or beyond the entry
 * on the profit side risks nothing (distance ≤ 0); moving it back into risk counts, trailing it never does.
 */
export function stopMovedAway(entry: number, long: boolean, stops: readonly number[]): boolean {
  const riskOf = (stop: number) => (long ? entry - stop : stop - entry);
  for (let k = 1; k < stops.length; k++) {
    const now = riskOf(stops[k]!);
    if (now > 0 && now > riskOf(stops[k - 1]!)) return true;
  }
  return false;
}
