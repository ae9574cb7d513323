import {
  COACH_FACT_NAMES,
  type CoachFact,
  type CoachFactName,
  type TradeListItem,
  type TradePlaybook,
} from '@pipsense/contract';
import { pipSizeOf } from '../../../domain/instruments';
import { mfeCapturePct } from '../../../domain/risk';
import { round, roundRate, roundRatio } from '../../../domain/rounding';
import { median, SESSION_NAMES, sessionIndexAt } from '../../analytics';
import { averageTrueRange, emaSlope, rangePercentile, type Bar } from './indicators';

/** The indicator settings of the facts (docs/coach.md, Facts). */
const FACT_SETTINGS = {
  emaPeriod: 50,
  atrPeriod: 14,
  rangeCandles: 50,
  /** An EMA slope under this many pips per candle is flat. */
  flatSlopePips: 0.1,
  /** Other closed trades on the instrument the medians need. */
  medianMinTrades: 3,
} as const;

/** Complete candles before the entry, oldest first; null when the trade has no candle source. */
export interface TradeCandles {
  h1: readonly Bar[] | null;
  h4: readonly Bar[] | null;
}

/** Everything one trade's facts are computed from (gathered by trade-review.service.ts through its ports). */
export interface FactInputs {
  trade: TradeListItem;
  /** The trader's other closed trades on the same instrument (for the medians). */
  others: readonly TradeListItem[];
  /** The close time of the latest losing trade closed before this entry, if any. */
  previousLossClose: string | null;
  candles: TradeCandles;
  /** The trade's playbook review; null without a playbook. */
  playbook: TradePlaybook | null;
  /** Whether the trader keeps trade-level personal rules (else a break count says nothing). */
  hasPersonalRules: boolean;
  revengeMinutes: number;
}

const MINUTE = 60_000;
const directionOf = (t: TradeListItem): 1 | -1 => (t.initialUnits.trim().startsWith('-') ? -1 : 1);
const holdMinutes = (t: TradeListItem): number | null =>
  t.closeTime === null ? null : (Date.parse(t.closeTime) - Date.parse(t.openTime)) / MINUTE;
const sizeOf = (t: TradeListItem): number => Math.abs(Number(t.initialUnits));
const signed = (n: number): string => (n > 0 ? `+${n}` : `${n}`);
const trendWord = (slope: number): string =>
  Math.abs(slope) < FACT_SETTINGS.flatSlopePips ? 'flat' : slope > 0 ? 'rising' : 'falling';

/**
 * The facts of one trade (docs/coach.md, Facts), in COACH_FACT_NAMES order. A fact that cannot be computed (no
 * candles, no initial stop, too few other trades, an open trade) is left out.
 */
export function tradeFacts(inputs: FactInputs): CoachFact[] {
  const { trade } = inputs;
  const facts = new Map<CoachFactName, CoachFact>();
  const add = (name: CoachFactName, value: number | string | boolean, text: string) =>
    facts.set(name, { name, value, text });
  const pip = pipSizeOf(trade.instrument);
  const direction = directionOf(trade);
  const entry = trade.price === null ? null : Number(trade.price);

  // Higher-timeframe trend: the slope of the EMA of the closes before the entry.
  const slopes: Partial<Record<'H1' | 'H4', number>> = {};
  for (const [frame, bars] of [
    ['H1', inputs.candles.h1],
    ['H4', inputs.candles.h4],
  ] as const) {
    const slope = bars
      ? emaSlope(
          bars.map((b) => b.c),
          FACT_SETTINGS.emaPeriod,
        )
      : null;
    if (slope === null) continue;
    const pips = round(slope / pip, 2);
    slopes[frame] = pips;
    add(
      frame === 'H1' ? 'trend_h1_slope' : 'trend_h4_slope',
      pips,
      `The ${FACT_SETTINGS.emaPeriod}-period EMA of ${frame} closes was ${trendWord(pips)} at entry (${signed(pips)} pips per candle).`,
    );
  }
  const trendFrame =
    slopes.H4 !== undefined && Math.abs(slopes.H4) >= FACT_SETTINGS.flatSlopePips
      ? 'H4'
      : slopes.H1 !== undefined
        ? 'H1'
        : slopes.H4 !== undefined
          ? 'H4'
          : null;
  if (trendFrame !== null) {
    const slope = slopes[trendFrame]!;
    const alignment =
      Math.abs(slope) < FACT_SETTINGS.flatSlopePips ? 'flat' : Math.sign(slope) === direction ? 'with' : 'against';
    const side = direction === 1 ? 'long' : 'short';
    add(
      'trend_alignment',
      alignment,
      alignment === 'flat'
        ? `The ${trendFrame} trend was flat at entry, so the ${side} trade had no trend to go with.`
        : `The ${side} trade went ${alignment} the ${trendFrame} trend.`,
    );
  }

  const h1 = inputs.candles.h1;
  if (h1 && entry !== null) {
    const percentile = rangePercentile(h1, FACT_SETTINGS.rangeCandles, entry);
    if (percentile !== null) {
      const value = roundRate(percentile);
      add(
        'entry_range_percentile',
        value,
        `The entry sat at ${value} % of the range of the last ${FACT_SETTINGS.rangeCandles} H1 candles (0 = their low, 100 = their high).`,
      );
    }
    const atr = averageTrueRange(h1, FACT_SETTINGS.atrPeriod);
    if (atr !== null && atr > 0 && trade.initialRisk) {
      const multiple = roundRatio(Number(trade.initialRisk.distance) / atr);
      add(
        'stop_atr_multiple',
        multiple,
        `The initial stop was ${multiple} ATR(${FACT_SETTINGS.atrPeriod}) of H1 from the entry (${trade.initialRisk.pips} pips; ATR ${round(atr / pip, 1)} pips).`,
      );
      const inside = multiple < 1;
      add(
        'stop_inside_noise',
        inside,
        inside
          ? 'The stop sat inside normal noise: closer than one ATR.'
          : 'The stop sat outside normal noise: one ATR or more away.',
      );
    }
  }

  // The exit against the best point of the trade.
  if (entry !== null && trade.averageClosePrice !== null && trade.mfe !== null && trade.closeTime !== null) {
    const capture = mfeCapturePct(entry, Number(trade.averageClosePrice), Number(trade.mfe.price), direction === 1);
    if (capture !== null) {
      const value = roundRate(capture);
      add(
        'mfe_capture_pct',
        value,
        `The exit kept ${value} % of the best move (${trade.mfe.pips} pips in the trade's favour at best).`,
      );
    }
    if (trade.mfe.r !== null && trade.rMultiple !== null) {
      const left = roundRatio(Math.max(0, trade.mfe.r - trade.rMultiple));
      add('r_left_on_table', left, `The trade gave back ${left} R from its best point (${trade.mfe.r} R) to the exit.`);
    }
  }
  if (trade.rMultiple !== null) add('result_r', trade.rMultiple, `The trade closed at ${signed(trade.rMultiple)} R.`);

  const hold = holdMinutes(trade);
  const others = inputs.others.filter((t) => t.closeTime !== null);
  if (hold !== null) {
    const minutes = round(hold, 0);
    add('hold_minutes', minutes, `The trade was held ${minutes} minutes.`);
    const holds = others.map(holdMinutes).filter((m): m is number => m !== null);
    if (holds.length >= FACT_SETTINGS.medianMinTrades) {
      const usual = median(holds);
      if (usual > 0) {
        const ratio = roundRatio(hold / usual);
        add(
          'hold_vs_median',
          ratio,
          `That is ${ratio}× your median hold on ${trade.instrument} (${round(usual, 0)} minutes over ${holds.length} other trades).`,
        );
      }
    }
  }

  const session = SESSION_NAMES[sessionIndexAt(Date.parse(trade.openTime))]!;
  add('session', session, `The entry fell in the ${session} session.`);

  if (others.length >= FACT_SETTINGS.medianMinTrades) {
    const usual = median(others.map(sizeOf));
    if (usual > 0) {
      const ratio = roundRatio(sizeOf(trade) / usual);
      add(
        'size_vs_usual',
        ratio,
        `The size was ${ratio}× your median size on ${trade.instrument} (${usual} units over ${others.length} other trades).`,
      );
    }
  }

  const playbook = inputs.playbook;
  if (playbook && playbook.playbookId !== null && playbook.reviewed && playbook.rules.length > 0) {
    const followed = playbook.rules.filter((r) => r.followed);
    const broken = playbook.rules.filter((r) => !r.followed);
    add(
      'playbook_rules_followed',
      followed.length,
      `${followed.length} of ${playbook.rules.length} playbook rules were ticked on the trade's review.`,
    );
    add(
      'playbook_rules_broken',
      broken.length,
      broken.length === 0
        ? 'No playbook rule was broken.'
        : `${broken.length} playbook ${broken.length === 1 ? 'rule was' : 'rules were'} broken: ${broken.map((r) => r.text).join('; ')}.`,
    );
  }

  if (inputs.hasPersonalRules) {
    const breaks = trade.ruleBreaks.length;
    add(
      'personal_rule_breaks',
      breaks,
      breaks === 0
        ? 'The trade broke none of your personal rules.'
        : `The trade broke ${breaks} of your personal rules: ${[...new Set(trade.ruleBreaks.map((b) => `${b.ruleSetName} (${b.kind})`))].join('; ')}.`,
    );
  }

  if (inputs.previousLossClose !== null) {
    const after = (Date.parse(trade.openTime) - Date.parse(inputs.previousLossClose)) / MINUTE;
    if (after >= 0 && after <= inputs.revengeMinutes) {
      const minutes = round(after, 0);
      add(
        'minutes_after_loss',
        minutes,
        `The entry came ${minutes} minutes after a losing trade closed (within your ${inputs.revengeMinutes}-minute window).`,
      );
    }
  }

  // In the contract's order of the fact names.
  const order = (name: CoachFactName) => COACH_FACT_NAMES.indexOf(name);
  return [...facts.values()].sort((a, b) => order(a.name) - order(b.name));
}
