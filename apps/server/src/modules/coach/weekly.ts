import {
  COACH_PATTERNS,
  type CoachPattern,
  type PatternResult,
  type TradeListItem,
  type TradeReview,
  type WeeklyReview,
} from '@pipsense/contract';
import {
  addWeeks,
  instantOf,
  isoWeekOf,
  isoWeekRange,
  isoWeekText,
  localDate,
  type CalendarDay,
  type IsoWeek,
} from '../../domain/calendar';
import {
  moneyFigure,
  noDailyRates,
  prepareConversion,
  utcDay,
  type Conversion,
  type DailyRates,
  type DatedAmount,
  type MoneyFigure,
} from '../../domain/currency-totals';
import { formatMinorUnits, meanMinorUnits, minorUnitsOf } from '../../domain/money';
import { isDecimal } from '../../domain/decimal';
import { rMultipleOf } from '../../domain/risk';
import { PerformanceTally, winRate } from '../../domain/performance';
import { percent, roundRatio } from '../../domain/rounding';
import type { TradeSelection, TradeViews } from '../trade-views';
import { plural } from '../../lib/text';
import { apiAccountId } from '../trading';

/** Weeks the baseline averages (docs/coach.md, Weekly review). */
const BASELINE_WEEKS = 12;
/** Best and worst trades shown. */
const EXTREMES = 3;

/** The other modules' parts of a weekly review, through ports app.ts wires (docs/ARCHITECTURE.md). */
export interface WeeklyPorts {
  /** The read side of trades: the week's closed trades with R, rule breaks and playbook reviews. */
  views: Pick<TradeViews, 'tradeBatches' | 'accountCurrencies' | 'bookRows'>;
  /** A trade's stored review, or null (the coach's per-trade reviews). */
  reviewOf: (
    userId: string,
    ref: { accountId: string; tradeId: string },
  ) => Promise<{ review: TradeReview; source: string } | null>;
  /** The behaviour patterns of a range (the coach's detectors). */
  patterns: (userId: string, range: { from: string; to: string }) => Promise<PatternResult[]>;
  /** Whether the user keeps any rule set (the rules module): without one the review has no rule section. */
  hasRuleSets: (userId: string) => Promise<boolean>;
  /** The journal's day moods of these local dates, `YYYY-MM-DD` from `from` to `to` inclusive. */
  moods: (userId: string, range: { from: string; to: string }) => Promise<Array<{ date: string; mood: number }>>;
  homeCurrencyOf: (userId: string) => Promise<string>;
  ratesFor?: ((userId: string) => DailyRates) | undefined;
}

/** What the composer needs of the week before (its stored review): its focus and its counts. */
export type PreviousReview = Pick<WeeklyReview, 'focus' | 'patterns' | 'ruleBreaks' | 'figures'>;

const PATTERN_WORDS: Record<CoachPattern, string> = {
  revenge_trading: 'revenge trading',
  overtrading: 'overtrading',
  size_escalation: 'size escalation',
  off_session: 'off-session trading',
  holding_losers: 'holding losers',
  stop_moved_away: 'moving the stop away',
  early_exit: 'early exits',
};

/** What the figures read of a closed trade. */
interface FigureFacts {
  realizedPL: string;
  financing: string | null;
  rMultiple: number | null;
  amount: DatedAmount;
}

interface WeekTrade extends FigureFacts {
  item: TradeListItem;
  closeMs: number;
}

const figureFacts = (item: TradeListItem, amount: DatedAmount): FigureFacts => ({
  realizedPL: item.realizedPL,
  financing: item.financing,
  rMultiple: item.rMultiple,
  amount,
});

/** A money figure in words: `-12.50 USD`, or each currency's amount when listed. */
export function moneyText(figure: MoneyFigure | null): string {
  if (figure === null) return 'nothing';
  const two = (amount: string) => formatMinorUnits(minorUnitsOf(amount), 2);
  if (figure.mode === 'listed')
    return figure.byCurrency.length === 0
      ? '0.00'
      : figure.byCurrency.map((c) => `${two(c.amount)} ${c.currency}`).join(' and ');
  return `${two(figure.amount)} ${figure.currency}`;
}

/** A figure's amount in minor units for ordering; null when it lists several currencies. */
function minorOf(figure: MoneyFigure | null): number | null {
  if (figure === null) return 0;
  if (figure.mode !== 'listed') return minorUnitsOf(figure.amount);
  return figure.byCurrency.length === 1 ? minorUnitsOf(figure.byCurrency[0]!.amount) : null;
}

function meanFigure(figure: MoneyFigure, weeks: number): MoneyFigure {
  const mean = (amount: string) => formatMinorUnits(meanMinorUnits(minorUnitsOf(amount), weeks));
  if (figure.mode !== 'listed') return { ...figure, amount: mean(figure.amount) };
  return {
    mode: 'listed',
    byCurrency: figure.byCurrency.map((c) => ({ currency: c.currency, amount: mean(c.amount) })),
  };
}

function figuresOf(trades: readonly FigureFacts[], conversion: Conversion) {
  const tally = new PerformanceTally();
  let r = 0;
  let withR = 0;
  for (const t of trades) {
    tally.add(minorUnitsOf(t.realizedPL), isDecimal(t.financing) ? minorUnitsOf(t.financing) : 0);
    if (t.rMultiple !== null) {
      r += t.rMultiple;
      withR += 1;
    }
  }
  return {
    trades: trades.length,
    netPL:
      trades.length > 0
        ? moneyFigure(
            conversion,
            trades.map((t) => t.amount),
          )
        : null,
    totalR: withR > 0 ? roundRatio(r) : null,
    winRate: winRate(tally),
    withR,
    tally,
  };
}

const dayText = (d: CalendarDay) => `${d.y}-${String(d.m).padStart(2, '0')}-${String(d.d).padStart(2, '0')}`;

/** The week's bounds and text in a zone. */
function weekBounds(week: IsoWeek, timeZone: string) {
  const { from, to } = isoWeekRange(week, timeZone);
  return { week: isoWeekText(week), from: from.toISOString(), to: to.toISOString() };
}

/** The ISO week of an instant in a zone. */
export function weekOfInstant(instant: number, timeZone: string): IsoWeek {
  return isoWeekOf(localDate(instant, timeZone));
}

/**
 * The weekly review of one ended week (docs/coach.md, Weekly review): one function for the job and for a week asked
 * for that none has stored. Every sentence of `summary` names a figure computed here.
 */
export async function composeWeeklyReview(
  ports: WeeklyPorts,
  userId: string,
  request: { week: IsoWeek; timeZone: string; previous: PreviousReview | null; now: Date },
): Promise<WeeklyReview> {
  const { week, timeZone } = request;
  const bounds = weekBounds(week, timeZone);
  const firstWeek = addWeeks(week, -BASELINE_WEEKS);
  const baselineFrom = isoWeekRange(firstWeek, timeZone).from.toISOString();
  const weekSelection: TradeSelection = {
    state: 'closed',
    time: { basis: 'close', ends: 'both', from: bounds.from, to: bounds.to },
  };
  const baselineSelection: TradeSelection = {
    state: 'closed',
    time: { basis: 'close', ends: 'both', from: baselineFrom, to: bounds.from },
  };
  const [batches, currencies, home, patterns, keepsRules] = await Promise.all([
    ports.views.tradeBatches(userId, weekSelection, { sort: 'closeTime', order: 'asc' }),
    ports.views.accountCurrencies(userId),
    ports.homeCurrencyOf(userId),
    ports.patterns(userId, { from: bounds.from, to: bounds.to }),
    ports.hasRuleSets(userId),
  ]);
  // The list names accounts as the API does; currencies are by account key.
  const currencyOf = new Map([...currencies].map(([key, currency]) => [apiAccountId(key), currency]));
  // The 12 weeks' starts (each week's own bounds: a week across a change of offset is 167 or 169 hours).
  const starts: number[] = [];
  for (let k = 0; k <= BASELINE_WEEKS; k += 1)
    starts.push(isoWeekRange(addWeeks(firstWeek, k), timeZone).from.getTime());
  const weekFrom = Date.parse(bounds.from);
  const weekTo = Date.parse(bounds.to);
  const current: WeekTrade[] = [];
  for await (const batch of batches)
    for (const item of batch) {
      if (item.closeTime === null) continue;
      const closeMs = Date.parse(item.closeTime);
      if (closeMs < weekFrom || closeMs >= weekTo) continue;
      const currency = currencyOf.get(item.accountId) ?? '';
      const amount = { currency, amount: item.realizedPL, day: utcDay(item.closeTime) };
      current.push({ ...figureFacts(item, amount), item, closeMs });
    }
  // The 12 weeks before need only their figures: the Overview's narrow read of the same trades (no journal).
  const before: FigureFacts[] = [];
  let firstBaselineWeek = BASELINE_WEEKS;
  await ports.views.bookRows.read(userId, baselineSelection, (row) => {
    const closeTime = row[11];
    if (closeTime === null) return;
    const closeMs = instantOf(closeTime);
    if (closeMs < starts[0]! || closeMs >= weekFrom) return;
    const currency = currencies.get(row[0]) ?? '';
    const rMultiple = rMultipleOf({
      instrument: row[2],
      initialUnits: row[4],
      price: row[3],
      averageClosePrice: row[12],
      initialStopLossPrice: row[16],
    });
    before.push({
      realizedPL: row[6],
      financing: row[8],
      rMultiple,
      amount: { currency, amount: row[6], day: utcDay(closeTime) },
    });
    let k = 0;
    while (k + 1 < BASELINE_WEEKS && starts[k + 1]! <= closeMs) k += 1;
    firstBaselineWeek = Math.min(firstBaselineWeek, k);
  });
  // One conversion for the week and its baseline, so that they compare in one currency (or per currency).
  const conversion = await prepareConversion(
    home,
    [...current, ...before].map((t) => t.amount),
    ports.ratesFor?.(userId) ?? noDailyRates,
  );
  const figures = figuresOf(current, conversion);
  const weeks = BASELINE_WEEKS - firstBaselineWeek;
  const past = before.length > 0 ? figuresOf(before, conversion) : null;
  const baseline =
    past === null
      ? null
      : {
          weeks,
          trades: roundRatio(past.trades / weeks),
          netPL: past.netPL === null ? null : meanFigure(past.netPL, weeks),
          totalR: past.totalR === null ? null : roundRatio(past.totalR / weeks),
          winRate: past.winRate,
        };

  // Best and worst by net P/L (converted when the week is converted), with their reviews.
  const byPL = current.map((t) => {
    const figure = moneyFigure(conversion, [t.amount]);
    return { t, figure, minor: minorOf(figure) ?? minorUnitsOf(t.item.realizedPL) };
  });
  const sorted = [...byPL].sort((a, b) => b.minor - a.minor);
  const bestOnes = sorted.filter((x) => x.minor > 0).slice(0, EXTREMES);
  const worstOnes = sorted
    .filter((x) => x.minor < 0)
    .reverse()
    .slice(0, EXTREMES);
  const withReview = (x: (typeof byPL)[number]) =>
    ports.reviewOf(userId, { accountId: x.t.item.accountId, tradeId: x.t.item.tradeId }).then((r) => ({
      accountId: x.t.item.accountId,
      tradeId: x.t.item.tradeId,
      instrument: x.t.item.instrument,
      side: minorUnitsOf(x.t.item.initialUnits) < 0 ? ('short' as const) : ('long' as const),
      openTime: x.t.item.openTime,
      closeTime: x.t.item.closeTime,
      netPL: x.figure,
      rMultiple: x.t.item.rMultiple,
      review: r?.review ?? null,
      reviewSource: r?.source ?? null,
    }));
  const [best, worst] = await Promise.all([
    Promise.all(bestOnes.map(withReview)),
    Promise.all(worstOnes.map(withReview)),
  ]);

  const weekPatterns = patterns.filter((p) => p.count > 0);
  const ruleBreaks = keepsRules
    ? current.reduce(
        (acc, t) =>
          t.item.ruleBreaks.length > 0
            ? { trades: acc.trades + 1, breaks: acc.breaks + t.item.ruleBreaks.length }
            : acc,
        { trades: 0, breaks: 0 },
      )
    : null;
  const reviewed = current.filter((t) => t.item.reviewed);
  const playbooks =
    reviewed.length === 0
      ? null
      : {
          reviewed: reviewed.length,
          followRate: percent(reviewed.filter((t) => t.item.followedAll === true).length, reviewed.length),
        };

  const mood = await moodOf(ports, userId, week, timeZone, current, conversion);
  const focus = focusOf(weekPatterns, ruleBreaks, figures, baseline);
  const previousFocus = request.previous ? checkPrevious(request.previous, weekPatterns, ruleBreaks, figures) : null;

  const summary: string[] = [];
  summary.push(
    figures.trades === 0
      ? 'You closed no trades this week.'
      : `You closed ${figures.trades} trade${figures.trades === 1 ? '' : 's'} for ${moneyText(figures.netPL)}` +
          (figures.totalR === null ? '' : ` (${figures.totalR} R)`) +
          (figures.winRate === null ? '.' : `, winning ${figures.winRate}% of them.`),
  );
  if (baseline)
    summary.push(
      `Over the ${baseline.weeks} week${baseline.weeks === 1 ? '' : 's'} before, you averaged ${baseline.trades} trades and ` +
        `${moneyText(baseline.netPL)} a week` +
        (baseline.winRate === null ? '.' : ` at a ${baseline.winRate}% win rate.`),
    );
  if (best[0])
    summary.push(`Your best trade was ${best[0].instrument} ${best[0].side} for ${moneyText(best[0].netPL)}.`);
  if (worst[0])
    summary.push(`Your worst trade was ${worst[0].instrument} ${worst[0].side} for ${moneyText(worst[0].netPL)}.`);
  for (const p of weekPatterns)
    summary.push(
      `${capitalised(PATTERN_WORDS[p.pattern])} flagged ${p.count} trade${p.count === 1 ? '' : 's'}` +
        (p.netPL ? `, together ${moneyText(p.netPL)}.` : '.'),
    );
  if (ruleBreaks && ruleBreaks.trades > 0)
    summary.push(
      `${ruleBreaks.trades} trade${ruleBreaks.trades === 1 ? '' : 's'} broke ${ruleBreaks.breaks} of your rules.`,
    );
  if (playbooks && playbooks.followRate !== null)
    summary.push(`You followed your playbook on ${playbooks.followRate}% of ${playbooks.reviewed} reviewed trades.`);
  if (mood) summary.push(mood.summary);
  if (previousFocus) summary.push(previousFocus.outcome);
  summary.push(`Focus for next week: ${focus.text}`);

  return {
    ...bounds,
    timeZone,
    figures: { trades: figures.trades, netPL: figures.netPL, totalR: figures.totalR, winRate: figures.winRate },
    baseline,
    best,
    worst,
    patterns: weekPatterns,
    ruleBreaks,
    playbooks,
    mood,
    focus,
    previousFocus,
    summary,
    source: 'builtin',
    createdAt: request.now.toISOString(),
    readAt: null,
  };
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

async function moodOf(
  ports: WeeklyPorts,
  userId: string,
  week: IsoWeek,
  timeZone: string,
  trades: readonly WeekTrade[],
  conversion: Conversion,
): Promise<WeeklyReview['mood']> {
  const monday = isoWeekRange(week, timeZone).from.getTime();
  const first = dayText(localDate(monday, timeZone));
  const last = dayText(localDate(isoWeekRange(week, timeZone).to.getTime() - 1, timeZone));
  const moods = await ports.moods(userId, { from: first, to: last });
  if (moods.length === 0) return null;
  const byDay = new Map<string, DatedAmount[]>();
  for (const t of trades) {
    const day = dayText(localDate(t.closeMs, timeZone));
    byDay.set(day, [...(byDay.get(day) ?? []), t.amount]);
  }
  const days = moods
    .sort((a, b) => (a.date < b.date ? -1 : 1))
    .map((m) => {
      const amounts = byDay.get(m.date);
      return { date: m.date, mood: m.mood, netPL: amounts ? moneyFigure(conversion, amounts) : null };
    });
  const side = (test: (mood: number) => boolean) => days.filter((d) => test(d.mood) && d.netPL !== null);
  const good = side((m) => m >= 4);
  const poor = side((m) => m <= 2);
  const total = (list: typeof days) =>
    moneyText(
      moneyFigure(
        conversion,
        list.flatMap((d) => byDay.get(d.date)!),
      ),
    );
  let summary: string;
  if (good.length > 0 && poor.length > 0)
    summary = `On the days you felt good (mood 4–5) you made ${total(good)}; on the days you felt low (mood 1–2), ${total(poor)}.`;
  else if (good.length > 0) summary = `On the days you felt good (mood 4–5) you made ${total(good)}.`;
  else if (poor.length > 0) summary = `On the days you felt low (mood 1–2) you made ${total(poor)}.`;
  else summary = `You noted your mood on ${days.length} day${days.length === 1 ? '' : 's'}, none of them a strong one.`;
  return { days, summary };
}

function focusOf(
  patterns: readonly PatternResult[],
  ruleBreaks: WeeklyReview['ruleBreaks'],
  figures: ReturnType<typeof figuresOf>,
  baseline: WeeklyReview['baseline'],
): WeeklyReview['focus'] {
  // The costliest pattern: the most negative net of its flagged trades (the most flagged when it cannot be told).
  const costly = [...patterns].sort((a, b) => {
    const ma = minorOf(a.netPL) ?? 0;
    const mb = minorOf(b.netPL) ?? 0;
    return ma !== mb ? ma - mb : b.count - a.count;
  })[0];
  if (costly && (minorOf(costly.netPL) ?? -1) < 0)
    return {
      text: `Cut ${PATTERN_WORDS[costly.pattern]}: it flagged ${costly.count} trade${costly.count === 1 ? '' : 's'} for ${moneyText(costly.netPL)} this week.`,
      pattern: costly.pattern,
    };
  if (ruleBreaks && ruleBreaks.trades > 0)
    return {
      text: `Keep to your rules: ${ruleBreaks.trades} trade${ruleBreaks.trades === 1 ? '' : 's'} broke one this week.`,
      pattern: null,
    };
  if (costly)
    return {
      text: `Watch ${PATTERN_WORDS[costly.pattern]}: it flagged ${costly.count} trade${costly.count === 1 ? '' : 's'} this week.`,
      pattern: costly.pattern,
    };
  if (figures.trades === 0)
    return { text: 'Trade only the setups of your plan, and review each trade.', pattern: null };
  if (baseline && figures.winRate !== null && baseline.winRate !== null && figures.winRate < baseline.winRate)
    return {
      text: `Win rate: ${figures.winRate}% this week against ${baseline.winRate}% before. Take only your A setups.`,
      pattern: null,
      figure: 'win_rate',
    };
  if (baseline && figures.trades > baseline.trades * 1.5)
    return {
      text: `Trade less: ${figures.trades} trades against ${baseline.trades} a week before.`,
      pattern: null,
      figure: 'trades',
    };
  return { text: 'Keep the process that worked this week, and review each trade.', pattern: null };
}

function checkPrevious(
  previous: PreviousReview,
  patterns: readonly PatternResult[],
  ruleBreaks: WeeklyReview['ruleBreaks'],
  figures: Pick<WeeklyReview['figures'], 'trades' | 'winRate'>,
): NonNullable<WeeklyReview['previousFocus']> {
  const { text, pattern } = previous.focus;
  if (pattern !== null && COACH_PATTERNS.includes(pattern)) {
    const before = previous.patterns.find((p) => p.pattern === pattern)?.count ?? 0;
    const now = patterns.find((p) => p.pattern === pattern)?.count ?? 0;
    const kept = now === 0 || now < before;
    const words = PATTERN_WORDS[pattern];
    return {
      text,
      pattern,
      kept,
      outcome:
        now === 0
          ? `Last week's focus kept: no ${words} this week (${before} the week before).`
          : kept
            ? `Last week's focus kept: ${words} flagged ${now} trades, down from ${before}.`
            : `Last week's focus not kept: ${words} flagged ${now} trades (${before} the week before).`,
    };
  }
  if (previous.ruleBreaks && previous.ruleBreaks.trades > 0 && ruleBreaks) {
    const kept = ruleBreaks.trades < previous.ruleBreaks.trades;
    return {
      text,
      pattern: null,
      kept,
      outcome: kept
        ? `Last week's focus kept: ${ruleBreaks.trades} trades broke a rule, down from ${previous.ruleBreaks.trades}.`
        : `Last week's focus not kept: ${ruleBreaks.trades} trades broke a rule (${previous.ruleBreaks.trades} the week before).`,
    };
  }
  // A figure's focus is kept when the figure moved the way it asked against the week that named it: the win rate
  // up, the count of trades down (docs/coach.md, Weekly review). A week without closed trades has no win rate.
  const before = previous.figures;
  if (previous.focus.figure === 'win_rate' && before.winRate !== null && figures.winRate !== null) {
    const kept = figures.winRate > before.winRate;
    return {
      text,
      pattern,
      kept,
      outcome: kept
        ? `Last week's focus kept: a ${figures.winRate}% win rate, up from ${before.winRate}%.`
        : `Last week's focus not kept: a ${figures.winRate}% win rate (${before.winRate}% the week before).`,
    };
  }
  if (previous.focus.figure === 'trades') {
    const kept = figures.trades < before.trades;
    return {
      text,
      pattern,
      kept,
      outcome: kept
        ? `Last week's focus kept: ${plural(figures.trades, 'trade')}, down from ${before.trades}.`
        : `Last week's focus not kept: ${plural(figures.trades, 'trade')} (${before.trades} the week before).`,
    };
  }
  return { text, pattern, kept: null, outcome: `Last week's focus was: ${text}` };
}
