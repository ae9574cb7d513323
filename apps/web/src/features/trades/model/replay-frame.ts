import {
  multiplyDecimals,
  roundDecimal,
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
  };
}

/** A figure in pips, the account's money (exact, from the pips shown) and R; money and R null when unknown. */
export interface ReplayFigure {
  pips: number;
  money: string | null;
  r: number | null;
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
  /** Open P/L at the current candle's close (the exit price once closed); null before the entry. */
  pl: ReplayFigure | null;
  /** The worst and best price reached since the entry's candle, as figures against and for the trade. */
  mae: ReplayFigure | null;
  mfe: ReplayFigure | null;
}

const STOP_KINDS = new Set(['stop_set', 'stop_moved']);

function figure(model: ReplayModel, priceMove: number): ReplayFigure {
  const pips = Math.round((priceMove / model.pipSize) * 10) / 10;
  const { pipValue } = model.replay;
  return {
    pips: pips === 0 ? 0 : pips,
    money: pipValue === null ? null : roundDecimal(multiplyDecimals(pips.toFixed(1), pipValue), 2),
    r: model.riskDistance === null ? null : Math.round((priceMove / model.riskDistance) * 100) / 100,
  };
}

/** The frame with the candles up to `index` (clamped to the replay's). */
export function replayFrame(model: ReplayModel, index: number): ReplayFrame {
  const last = Math.max(0, Math.min(index, model.bars.length - 1));
  const { replay } = model;
  const happened: ReplayEvent[] = [];
  const markers: ChartMarker[] = [];
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
    else if (event.kind === 'stop_moved')
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
  if (entered) lines.push({ price: model.entry, color: CHART_COLORS.entry, title: 'Entry', style: 'solid' });
  const level = (event: ReplayEvent | null) => (event?.price == null ? null : Number(event.price));
  const stopPrice = level(stop);
  const targetPrice = level(target);
  if (!closed && stopPrice !== null)
    lines.push({ price: stopPrice, color: CHART_COLORS.stopLoss, title: 'SL', style: 'dashed' });
  if (!closed && targetPrice !== null)
    lines.push({ price: targetPrice, color: CHART_COLORS.takeProfit, title: 'TP', style: 'dashed' });
  const exitPrice = level(exit);
  if (exitPrice !== null) lines.push({ price: exitPrice, color: CHART_COLORS.exit, title: 'Exit', style: 'dotted' });

  let pl: ReplayFigure | null = null;
  let mae: ReplayFigure | null = null;
  let mfe: ReplayFigure | null = null;
  if (entered) {
    const through = Math.min(last, model.exitIndex);
    let worst = 0;
    let best = 0;
    // The entry's candle counts from its open: its part before the fill is not told apart at this granularity.
    for (let i = replay.entryIndex; i <= through; i++) {
      const bar = model.bars[i]!;
      const against = (model.direction === 1 ? bar.low : bar.high) - model.entry;
      const favour = (model.direction === 1 ? bar.high : bar.low) - model.entry;
      worst = Math.min(worst, against * model.direction);
      best = Math.max(best, favour * model.direction);
    }
    const price = closed && exitPrice !== null ? exitPrice : model.bars[last]!.close;
    pl = figure(model, (price - model.entry) * model.direction);
    mae = figure(model, worst);
    mfe = figure(model, best);
  }
  return {
    bars: model.bars.slice(0, last + 1),
    lines,
    markers,
    happened,
    phase: !entered ? 'before' : closed ? 'closed' : 'open',
    pl,
    mae,
    mfe,
  };
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
