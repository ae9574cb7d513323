import {
  decimalPlaces,
  divideDecimals,
  groupDecimal,
  isDecimal,
  multiplyDecimals,
  roundDecimal,
  subtractDecimals,
  sumDecimals,
  trimDecimal,
  type Replay,
  type ReplayEvent,
  type ReplayEventKind,
} from '@pipsense/contract';
import {
  CHART_COLORS,
  candlesToBars,
  type ChartBar,
  type ChartMarker,
  type ChartPriceLine,
} from '../../../components/charts/candle-series';
import { MARKER_CHAR_PX } from '../../../components/charts/marker-texts';

/*
 * The replay's frames (docs/review.md, Replay): what the chart and the figures show with the candles up to one of
 * them. Pure; the component keeps the current index and draws the frame.
 */

/** What the events list calls each event. */
export const REPLAY_EVENT_LABELS: Readonly<Record<ReplayEventKind, string>> = {
  entry: 'Entry',
  stop_set: 'Stop loss set',
  stop_moved: 'Stop loss moved',
  take_profit_set: 'Take profit set',
  partial_close: 'Partial close',
  exit: 'Exit',
};

/** What the events list calls an event: a trailing stop's move read from the candles says so. */
export const replayEventLabel = (event: Pick<ReplayEvent, 'kind' | 'fromCandles'>) =>
  event.fromCandles ? 'Trailing stop moved (from candles)' : REPLAY_EVENT_LABELS[event.kind];

/** Speeds the replay offers; 1× plays two candles a second. */
export const REPLAY_SPEEDS = [1, 2, 5, 10, 20] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];
export const stepMs = (speed: ReplaySpeed) => 500 / speed;

/** A replay read once: its bars and each event's candle. */
export interface ReplayModel {
  replay: Replay;
  bars: ChartBar[];
  /** Per event (in `replay.events`' order), the index of the candle it happened in. */
  eventIndex: number[];
  /** The exit's candle; the last candle while the trade is open. */
  exitIndex: number;
  direction: 1 | -1;
  entry: number;
  pipSize: number;
  /** The initial stop's distance in price (1 R), null without a stop against the trade. */
  riskDistance: number | null;
  /** The trade's units at the entry, unsigned: `pipValue` and `riskAmount` are for all of them. */
  units: string;
}

/** The index of the candle holding `time`: the last one starting at or before it (0 for a time before the first). */
function candleIndexOf(times: readonly number[], time: number): number {
  let lo = 0;
  let hi = times.length - 1;
  let found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= time) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

export function replayModel(replay: Replay, chartTime?: (instantMs: number) => number): ReplayModel {
  const bars = candlesToBars(replay.candles, chartTime);
  const times = replay.candles.map((c) => Date.parse(c.time));
  const eventIndex = replay.events.map((e) =>
    e.kind === 'entry' ? replay.entryIndex : candleIndexOf(times, Date.parse(e.time)),
  );
  const exit = replay.events.findIndex((e) => e.kind === 'exit');
  const direction = replay.side === 'long' ? 1 : -1;
  const entry = Number(replay.entryPrice);
  const firstStop = replay.events.find((e) => e.kind === 'stop_set' && e.price !== null);
  const distance = firstStop ? (entry - Number(firstStop.price)) * direction : 0;
  return {
    replay,
    bars,
    eventIndex,
    exitIndex: exit >= 0 ? eventIndex[exit]! : bars.length - 1,
    direction,
    entry,
    pipSize: Number(replay.pipSize),
    riskDistance: distance > 0 ? distance : null,
    units: isDecimal(replay.units) && Number(replay.units) > 0 ? replay.units : '1',
  };
}

/**
 * A figure in pips (per unit: the price move), the account's money (exact, from the pips shown) and R, for the units
 * it counts; money and R null when unknown.
 */
export interface ReplayFigure {
  pips: number;
  money: string | null;
  r: number | null;
}

/** What the partial closes so far realized: on the units they closed, the pips their average over those units. */
interface ReplayRealized extends ReplayFigure {
  units: string;
}

export interface ReplayFrame {
  /** The candles shown: up to the current one. */
  bars: ChartBar[];
  /** The levels in force at the current candle: entry, the stop where it stands now, the target, the exit. */
  lines: ChartPriceLine[];
  markers: ChartMarker[];
  /** The events that have happened by the current candle, oldest first. */
  happened: ReplayEvent[];
  /** 'before' the entry's candle, 'open' from it to the exit, 'closed' from the exit's candle on. */
  phase: 'before' | 'open' | 'closed';
  /** The units still open at the current candle's close (0 once closed; all of them before the entry). */
  openUnits: string;
  /**
   * Open: the P/L of the units still open at the current candle's close. Closed: the whole trade's result, the partial
   * closes and the exit together (its pips the average over all the units). Null before the entry.
   */
  pl: ReplayFigure | null;
  /** What the partial closes up to the current candle realized; null when there were none yet. */
  realized: ReplayRealized | null;
  /**
   * The worst and best price reached since the entry's candle, in pips, and in money and R on the units open at the
   * start of the candle where it was reached.
   */
  mae: ReplayFigure | null;
  mfe: ReplayFigure | null;
}

const STOP_KINDS = new Set(['stop_set', 'stop_moved']);

/** The titles of the replay's price lines. */
const LINE_TITLES = { entry: 'Entry', stop: 'SL', target: 'TP', exit: 'Exit' } as const;

/** Pips of a price move, to the tenth shown. */
const pipsOf = (model: ReplayModel, priceMove: number) => {
  const pips = Math.round((priceMove / model.pipSize) * 10) / 10;
  return pips === 0 ? 0 : pips;
};

/**
 * Money and R of closes: each a move in pips on some units. Money is Σ pips × units × pip value ÷ the trade's units,
 * summed exactly and rounded once; R the same share of the initial stop's distance.
 */
function closesFigure(model: ReplayModel, closes: readonly { pips: number; move: number; units: string }[]) {
  const { pipValue } = model.replay;
  const pipUnits = sumDecimals(closes.map((c) => multiplyDecimals(c.pips.toFixed(1), c.units)));
  const money =
    pipValue === null ? null : roundDecimal(divideDecimals(multiplyDecimals(pipUnits, pipValue), model.units, 4), 2);
  const whole = Number(model.units);
  const r =
    model.riskDistance === null
      ? null
      : Math.round(
          closes.reduce((sum, c) => sum + (c.move / model.riskDistance!) * (Number(c.units) / whole), 0) * 100,
        ) / 100;
  return { pipUnits, money: money === '-0.00' ? '0.00' : money, r: r === 0 ? 0 : r };
}

/** A move of the price on `units` of the trade. */
function figure(model: ReplayModel, priceMove: number, units: string): ReplayFigure {
  const pips = pipsOf(model, priceMove);
  const { money, r } = closesFigure(model, [{ pips, move: priceMove, units }]);
  return { pips, money, r };
}

const unsigned = (units: string | null) => (isDecimal(units) ? units.trim().replace(/^-/, '') : null);

/** The frame with the candles up to `index` (clamped to the replay's). */
export function replayFrame(model: ReplayModel, index: number): ReplayFrame {
  const last = Math.max(0, Math.min(index, model.bars.length - 1));
  const { replay } = model;
  const happened: ReplayEvent[] = [];
  const markers: ChartMarker[] = [];
  const partials: { at: number; price: number; units: string }[] = [];
  let stop: ReplayEvent | null = null;
  let target: ReplayEvent | null = null;
  let exit: ReplayEvent | null = null;
  for (const [i, event] of replay.events.entries()) {
    const at = model.eventIndex[i]!;
    if (at > last) continue;
    happened.push(event);
    if (STOP_KINDS.has(event.kind)) stop = event;
    if (event.kind === 'take_profit_set') target = event;
    if (event.kind === 'exit') exit = event;
    const closedUnits = unsigned(event.units);
    if (event.kind === 'partial_close' && event.price !== null && closedUnits !== null)
      partials.push({ at, price: Number(event.price), units: closedUnits });
    const bar = model.bars[at];
    if (!bar) continue;
    const long = model.direction === 1;
    if (event.kind === 'entry')
      markers.push({
        time: bar.time,
        position: long ? 'belowBar' : 'aboveBar',
        shape: long ? 'arrowUp' : 'arrowDown',
        color: CHART_COLORS.entry,
        text: `${long ? 'Buy' : 'Sell'} ${event.price ?? ''}`.trim(),
      });
    else if (event.kind === 'exit')
      markers.push({
        time: bar.time,
        position: long ? 'aboveBar' : 'belowBar',
        shape: long ? 'arrowDown' : 'arrowUp',
        color: CHART_COLORS.exit,
        text: `Close ${event.price ?? ''}`.trim(),
      });
    else if (event.kind === 'partial_close')
      // Taking profit or cutting the trade: drawn as the exit is, a square as only part of it closed.
      markers.push({
        time: bar.time,
        position: long ? 'aboveBar' : 'belowBar',
        shape: 'square',
        color: CHART_COLORS.exit,
        text: [
          'Part',
          closedUnits && `−${groupDecimal(closedUnits, decimalPlaces(closedUnits))}`,
          event.price && `@ ${event.price}`,
        ]
          .filter(Boolean)
          .join(' '),
      });
    // A trailing stop moves on many candles: its moves read from them have no marker (a row of them would bury the
    // candles); the SL line shows where it stands and the events list names each.
    else if (event.kind === 'stop_moved' && !event.fromCandles)
      markers.push({
        time: bar.time,
        position: long ? 'belowBar' : 'aboveBar',
        shape: 'circle',
        color: CHART_COLORS.stopLoss,
        text: `SL → ${event.price ?? 'removed'}`,
      });
  }
  const entered = last >= replay.entryIndex;
  const closed = exit !== null;
  const lines: ChartPriceLine[] = [];
  if (entered) lines.push({ price: model.entry, color: CHART_COLORS.entry, title: LINE_TITLES.entry, style: 'solid' });
  const level = (event: ReplayEvent | null) => (event?.price == null ? null : Number(event.price));
  const stopPrice = level(stop);
  const targetPrice = level(target);
  if (!closed && stopPrice !== null)
    lines.push({ price: stopPrice, color: CHART_COLORS.stopLoss, title: LINE_TITLES.stop, style: 'dashed' });
  if (!closed && targetPrice !== null)
    lines.push({ price: targetPrice, color: CHART_COLORS.takeProfit, title: LINE_TITLES.target, style: 'dashed' });
  const exitPrice = level(exit);
  if (exitPrice !== null)
    lines.push({ price: exitPrice, color: CHART_COLORS.exit, title: LINE_TITLES.exit, style: 'dotted' });

  // The units open after the partial closes up to candle `i` (`through` it, or only those before it).
  const openAfter = (i: number, through: boolean) =>
    trimDecimal(
      subtractDecimals(
        model.units,
        sumDecimals(partials.filter((p) => p.at < i || (through && p.at === i)).map((p) => p.units)),
      ),
    );
  const partialCloses = partials.map((p) => {
    const move = (p.price - model.entry) * model.direction;
    return { move, pips: pipsOf(model, move), units: p.units };
  });
  let realized: ReplayRealized | null = null;
  if (partialCloses.length > 0) {
    const units = trimDecimal(sumDecimals(partialCloses.map((p) => p.units)));
    const { pipUnits, money, r } = closesFigure(model, partialCloses);
    realized = { pips: Math.round(Number(divideDecimals(pipUnits, units, 2)) * 10) / 10, money, r, units };
  }

  let pl: ReplayFigure | null = null;
  let mae: ReplayFigure | null = null;
  let mfe: ReplayFigure | null = null;
  const open = openAfter(last, true);
  if (entered) {
    const through = Math.min(last, model.exitIndex);
    let worst = { move: 0, at: replay.entryIndex };
    let best = { move: 0, at: replay.entryIndex };
    // The entry's candle counts from its open: its part before the fill is not told apart at this granularity.
    for (let i = replay.entryIndex; i <= through; i++) {
      const bar = model.bars[i]!;
      const against = ((model.direction === 1 ? bar.low : bar.high) - model.entry) * model.direction;
      const favour = ((model.direction === 1 ? bar.high : bar.low) - model.entry) * model.direction;
      if (against < worst.move) worst = { move: against, at: i };
      if (favour > best.move) best = { move: favour, at: i };
    }
    if (closed && exitPrice !== null) {
      // The whole trade: the partial closes and the exit on the units it closed.
      const move = (exitPrice - model.entry) * model.direction;
      const exitUnits = unsigned(exit!.units) ?? openAfter(last, true);
      const closes = [...partialCloses, { move, pips: pipsOf(model, move), units: exitUnits }];
      const { pipUnits, money, r } = closesFigure(model, closes);
      const all = sumDecimals(closes.map((c) => c.units));
      const pips = Number(all) > 0 ? Math.round(Number(divideDecimals(pipUnits, all, 2)) * 10) / 10 : 0;
      pl = { pips: pips === 0 ? 0 : pips, money, r };
    } else pl = figure(model, (model.bars[last]!.close - model.entry) * model.direction, open);
    mae = figure(model, worst.move, openAfter(worst.at, false));
    mfe = figure(model, best.move, openAfter(best.at, false));
  }
  return {
    bars: model.bars.slice(0, last + 1),
    lines,
    markers,
    happened,
    phase: !entered ? 'before' : closed ? 'closed' : 'open',
    openUnits: closed ? '0' : open,
    pl,
    realized,
    mae,
    mfe,
  };
}

/** A marker's text at its candle: what the replay's time range leaves room for. */
export interface MarkerSpot {
  index: number;
  text: string;
}

/** Every marker of the whole replay (its last frame's), at its candle's index. */
export function markerSpots(model: ReplayModel): MarkerSpot[] {
  const index = new Map(model.bars.map((bar, i) => [bar.time, i]));
  return replayFrame(model, model.bars.length - 1).markers.map((m) => ({
    index: index.get(m.time) ?? 0,
    text: m.text,
  }));
}

/**
 * The widest title of the replay's price lines ('Entry'), as the chart draws it inside the pane beside the price
 * scale: its text and the box around it.
 */
const LINE_TITLE_PX = Math.max(...Object.values(LINE_TITLES).map((t) => t.length)) * MARKER_CHAR_PX + 12;

/**
 * The replay chart's time range, in candle indices: every candle of the replay from the start (those to come blank
 * on the right), with at least 1 candle of room on the left and 5 on the right, more where a marker's text, centred
 * on its candle, would otherwise run past the chart's left edge, or on the right under the price lines' titles
 * ('Entry', 'Exit') the chart draws inside the pane beside the price scale (the exit's 'Close 1.10200' on the last
 * candle, beside the exit's own line). The room is counted in candles whose width itself shrinks as room is added,
 * so it is found by a few rounds; `plotWidth` is the width of the candles' pane in pixels.
 */
export function replayRange(
  total: number,
  plotWidth: number,
  spots: readonly MarkerSpot[],
): { from: number; to: number } {
  let left = 1;
  let right = 5;
  for (let round = 0; round < 20; round++) {
    const spacing = plotWidth / (total - 1 + left + right);
    let needLeft = 1;
    let needRight = 5;
    for (const spot of spots) {
      const half = (spot.text.length * MARKER_CHAR_PX) / 2;
      needLeft = Math.max(needLeft, Math.ceil(half / spacing - spot.index));
      needRight = Math.max(needRight, Math.ceil((half + LINE_TITLE_PX) / spacing - (total - 1 - spot.index)));
    }
    // A chart too narrow for a label at all keeps its candles: the room stops at the replay's own width.
    needLeft = Math.min(needLeft, Math.max(1, total));
    needRight = Math.min(needRight, Math.max(5, total));
    if (needLeft <= left && needRight <= right) break;
    left = Math.max(left, needLeft);
    right = Math.max(right, needRight);
  }
  return { from: -left, to: total - 1 + right };
}

/** The replay's start: the candle before the entry's, so that the first step shows the entry happen. */
export const startIndex = (model: ReplayModel) => Math.max(0, model.replay.entryIndex - 1);

/** What the replay's keys do: space plays or pauses, the arrows step; anything else is left to the page. */
export function replayKeyAction(key: string): 'toggle' | 'back' | 'forward' | null {
  if (key === ' ' || key === 'Spacebar') return 'toggle';
  if (key === 'ArrowLeft') return 'back';
  if (key === 'ArrowRight') return 'forward';
  return null;
}
