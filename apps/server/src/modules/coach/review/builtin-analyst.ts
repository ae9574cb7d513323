import {
  REVIEW_LIMITS,
  type CoachFact,
  type CoachFactName,
  type ReviewPoint,
  type TradeReview,
} from '@pipsense/contract';

/**
 * The execution score's rubric (docs/coach.md, Reviews), the same for every review whoever writes its points: the
 * score is computed by code from the facts, never by a provider.
 */
export const SCORE_RUBRIC =
  'Execution score, 1 to 5: start at 3; +1 when the trade went with the higher-timeframe trend; +1 when the exit kept ' +
  'at least half of the best move; −1 for no initial stop; −1 for a stop inside normal noise (under 1 ATR); −1 for a ' +
  'broken playbook or personal rule; −1 for an entry within the revenge window after a loss; −1 for a size above 1.5× ' +
  'your usual; kept between 1 and 5.';

type Facts = ReadonlyMap<CoachFactName, CoachFact>;
const num = (facts: Facts, name: CoachFactName): number | null => {
  const v = facts.get(name)?.value;
  return typeof v === 'number' ? v : null;
};

/** The execution score of the facts by SCORE_RUBRIC. */
export function executionScore(list: readonly CoachFact[]): number {
  const facts: Facts = new Map(list.map((f) => [f.name, f]));
  let score = 3;
  if (facts.get('trend_alignment')?.value === 'with') score += 1;
  if ((num(facts, 'mfe_capture_pct') ?? -1) >= 50) score += 1;
  if (!facts.has('result_r') && facts.has('hold_minutes')) score -= 1;
  if (facts.get('stop_inside_noise')?.value === true) score -= 1;
  if ((num(facts, 'playbook_rules_broken') ?? 0) > 0 || (num(facts, 'personal_rule_breaks') ?? 0) > 0) score -= 1;
  if (facts.has('minutes_after_loss')) score -= 1;
  if ((num(facts, 'size_vs_usual') ?? 0) > 1.5) score -= 1;
  return Math.min(5, Math.max(1, score));
}

/** A judged fact: a point on one side, its weight (higher first), and for a weakness the action it calls for. */
interface Judged {
  side: 'well' | 'improve';
  weight: number;
  point: ReviewPoint;
  action?: string;
}

const point = (text: string, ...facts: CoachFactName[]): ReviewPoint => ({ text, facts });

/** Each fact's reading, when it says something good or bad (docs/coach.md, Reviews). */
function judge(facts: Facts): Judged[] {
  const out: Judged[] = [];
  const well = (weight: number, p: ReviewPoint) => out.push({ side: 'well', weight, point: p });
  const improve = (weight: number, p: ReviewPoint, action: string) =>
    out.push({ side: 'improve', weight, point: p, action });

  const alignment = facts.get('trend_alignment')?.value;
  const trendFacts: CoachFactName[] = ['trend_alignment'];
  if (facts.has('trend_h4_slope')) trendFacts.push('trend_h4_slope');
  else if (facts.has('trend_h1_slope')) trendFacts.push('trend_h1_slope');
  if (alignment === 'with') well(8, point('You traded with the higher-timeframe trend.', ...trendFacts));
  if (alignment === 'against')
    improve(
      8,
      point('You traded against the higher-timeframe trend.', ...trendFacts),
      'Before the next entry, check the H4 EMA(50) slope and take only trades on its side, or size down when you fade it.',
    );

  const percentile = num(facts, 'entry_range_percentile');
  if (percentile !== null) {
    if (percentile <= 30 || percentile >= 70) {
      const extreme = percentile >= 70 ? 'near the top' : 'near the bottom';
      well(
        3,
        point(`The entry sat ${extreme} of the recent range, a clear level to trade from.`, 'entry_range_percentile'),
      );
    } else
      improve(
        3,
        point('The entry sat in the middle of the recent range, away from a clear level.', 'entry_range_percentile'),
        'Wait for the price to reach the edge of the recent range before entering.',
      );
  }

  const inside = facts.get('stop_inside_noise')?.value;
  if (inside === true)
    improve(
      9,
      point(
        'The stop sat inside normal noise, where ordinary swings reach it.',
        'stop_atr_multiple',
        'stop_inside_noise',
      ),
      'Place the next stop at least one ATR(14) of H1 from the entry, and size the trade down to keep the same risk.',
    );
  if (inside === false) well(5, point('The stop sat outside normal noise.', 'stop_atr_multiple', 'stop_inside_noise'));
  if (!facts.has('result_r') && facts.has('hold_minutes'))
    improve(
      9,
      point('The trade had no initial stop, so its risk was open and its result cannot be read in R.', 'hold_minutes'),
      'Attach a stop-loss to the order before it is filled.',
    );

  const capture = num(facts, 'mfe_capture_pct');
  const left = num(facts, 'r_left_on_table');
  const exitFacts: CoachFactName[] = ['mfe_capture_pct'];
  if (left !== null) exitFacts.push('r_left_on_table');
  if (capture !== null && capture >= 50) well(7, point('The exit kept most of the favourable move.', ...exitFacts));
  if (capture !== null && capture < 50)
    improve(
      capture < 0 ? 6 : 7,
      point(
        capture < 0
          ? 'The trade was in profit at its best but closed against you.'
          : 'The exit gave back more than half of the favourable move.',
        ...exitFacts,
      ),
      'Decide the exit before the entry: a target or a trailing rule, and follow it.',
    );

  const r = num(facts, 'result_r');
  if (r !== null && r > 0) well(6, point('The trade closed in profit.', 'result_r'));
  if (r !== null && r < -1.05)
    improve(
      8,
      point('The loss ran past the initial stop (beyond −1 R).', 'result_r'),
      'Let the stop-loss order close the trade; never move it further away.',
    );
  if (r !== null && r <= 0 && r >= -1.05) well(4, point('The loss stayed within the initial risk.', 'result_r'));

  const hold = num(facts, 'hold_vs_median');
  if (hold !== null && (hold > 3 || hold < 1 / 3))
    improve(
      4,
      point(
        hold > 3
          ? 'You held this trade far longer than you usually do.'
          : 'You closed this trade far sooner than you usually do.',
        'hold_minutes',
        'hold_vs_median',
      ),
      'Write down before the entry how long the setup should take, and note why when you leave that plan.',
    );
  if (hold !== null && hold <= 3 && hold >= 1 / 3)
    well(2, point('The holding time was in line with your usual.', 'hold_minutes', 'hold_vs_median'));

  const size = num(facts, 'size_vs_usual');
  if (size !== null && size > 1.5)
    improve(
      7,
      point('The size was well above your usual on this instrument.', 'size_vs_usual'),
      'Keep the next trade at your usual size; raise it only by a rule you wrote beforehand.',
    );
  if (size !== null && size <= 1.5) well(3, point('The size was in line with your usual.', 'size_vs_usual'));

  const broken = num(facts, 'playbook_rules_broken');
  if (broken !== null && broken > 0)
    improve(
      8,
      point('Playbook rules were broken on this trade.', 'playbook_rules_broken', 'playbook_rules_followed'),
      'Go through the playbook checklist before the entry and skip the trade when a rule is not met.',
    );
  if (broken === 0)
    well(7, point('Every playbook rule was followed.', 'playbook_rules_followed', 'playbook_rules_broken'));

  const breaks = num(facts, 'personal_rule_breaks');
  if (breaks !== null && breaks > 0)
    improve(
      9,
      point('The trade broke your personal rules.', 'personal_rule_breaks'),
      'Read your rule set before the session and stop trading for the day when a rule is broken.',
    );
  if (breaks === 0) well(5, point('The trade kept to your personal rules.', 'personal_rule_breaks'));

  if (facts.has('minutes_after_loss'))
    improve(
      8,
      point('The entry came soon after a losing trade, inside the revenge window.', 'minutes_after_loss'),
      'After a loss, step away for the length of your revenge window before the next entry.',
    );
  return out;
}

/** Plain points that hold for any trade, used only to reach the minimum of two per side. */
function fillers(facts: Facts, side: 'well' | 'improve'): ReviewPoint[] {
  const out: ReviewPoint[] = [];
  const session = facts.get('session');
  const hold = facts.get('hold_minutes');
  if (side === 'well') {
    if (session)
      out.push(
        point(
          `The trade was taken in a named session (${String(session.value)}), which later reviews can compare.`,
          'session',
        ),
      );
    if (hold) out.push(point('The trade was closed and can be reviewed as a whole.', 'hold_minutes'));
  } else {
    if (session)
      out.push(point('Note why this session suits the setup, so your session results can confirm it.', 'session'));
    if (hold)
      out.push(
        point('Note the holding time you planned, so the next review can compare it with this one.', 'hold_minutes'),
      );
    if (!facts.has('trend_alignment') && hold)
      out.push(point('With no candles for the trade, write down the trend you saw at entry.', 'hold_minutes'));
  }
  return out;
}

function pick(judged: Judged[], side: 'well' | 'improve', facts: Facts): ReviewPoint[] {
  const chosen = judged
    .filter((j) => j.side === side)
    .sort((a, b) => b.weight - a.weight)
    .slice(0, REVIEW_LIMITS.maxPoints)
    .map((j) => j.point);
  for (const filler of fillers(facts, side)) {
    if (chosen.length >= REVIEW_LIMITS.minPoints) break;
    chosen.push(filler);
  }
  return chosen;
}

/**
 * The built-in analyst's review (docs/coach.md, Reviews): deterministic from the facts. Each fact is read as a
 * strength or a weakness; the weightiest 2–4 of each side are kept (plain points about the session and the hold
 * reach the minimum of two when few facts are known), the weightiest weakness gives the action, and the score follows
 * SCORE_RUBRIC. A closed trade always has its hold and its session, so two points per side can always be made.
 */
export function builtinReview(list: readonly CoachFact[]): TradeReview {
  const facts: Facts = new Map(list.map((f) => [f.name, f]));
  const judged = judge(facts);
  const wentWell = pick(judged, 'well', facts);
  const toImprove = pick(judged, 'improve', facts);
  const weakest = judged.filter((j) => j.side === 'improve').sort((a, b) => b.weight - a.weight)[0];
  const action = weakest
    ? point(weakest.action!, ...weakest.point.facts)
    : point(
        'Repeat this execution: write down what made the setup valid so you can take the next one the same way.',
        ...wentWell[0]!.facts,
      );
  return { wentWell, toImprove, action, score: { value: executionScore(list), rubric: SCORE_RUBRIC } };
}
