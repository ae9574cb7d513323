import { PATTERN_LABELS, patternLabel, type MoneyFigure, type ReviewPoint } from '@pipsense/contract';
import { plural } from '../../../lib/text';
import type { PatternsToolResult, TradeReviewToolResult, WeeklyReviewToolResult } from '../tools/coach';
import { pl } from './format';

/*
 * The built-in analyst's coach answers (docs/coach.md, The assistant): every fact, pattern and figure is the coach's
 * (get_trade_review, get_patterns, get_weekly_review), written out here; nothing here computes one.
 */

/** A money figure in words: one amount, converted with what it came from, or each currency apart. */
function moneyText(figure: MoneyFigure | null): string {
  if (!figure) return 'none';
  if (figure.mode === 'listed')
    return figure.byCurrency.length === 0 ? 'none' : figure.byCurrency.map((c) => pl(c.amount, c.currency)).join(', ');
  return pl(figure.amount, figure.currency);
}

const r = (value: number | null) => (value === null ? 'unknown R' : `${value > 0 ? '+' : ''}${value.toFixed(2)}R`);

/** "What should I work on?": the patterns that flagged trades, costliest first, with their cost against the rest. */
export function patternsAnswer(result: PatternsToolResult): string {
  const lines: string[] = [];
  if (result.patterns.length === 0) {
    lines.push(`None of the behaviour patterns flagged a trade in ${result.period.label}. Keep doing what you do.`);
  } else {
    const first = result.patterns[0]!;
    lines.push(
      `Work on ${PATTERN_LABELS[first.pattern].toLowerCase()} first: it costs you the most in ${result.period.label}.`,
    );
    for (const p of result.patterns)
      lines.push(
        `- ${PATTERN_LABELS[p.pattern]}: ${plural(p.count, 'trade')}, net ${moneyText(p.netPL)} at ${r(p.averageR)} ` +
          `a trade, against ${moneyText(p.othersNetPL)} at ${r(p.othersAverageR)} for the others. ${p.definition}`,
      );
  }
  if (result.clear.length > 0) lines.push(`Not seen: ${result.clear.map((id) => patternLabel(id)).join(', ')}.`);
  lines.push("Data: the coach's patterns (Coach → Patterns), with your thresholds.");
  return lines.join('\n');
}

const point = (p: ReviewPoint) => `- ${p.text}`;

/** "Why did my EUR_USD trade on Tuesday lose?": the trade's facts and its review's points. */
export function tradeReviewAnswer(result: TradeReviewToolResult, heading: string): string {
  const lines = [heading];
  if (result.review) {
    if (result.review.toImprove.length > 0) lines.push('To improve:', ...result.review.toImprove.map(point));
    if (result.review.wentWell.length > 0) lines.push('Went well:', ...result.review.wentWell.map(point));
    lines.push(`Next time: ${result.review.action.text}`);
    lines.push(`Execution score: ${result.review.score.value}/5.`);
  }
  if (result.facts.length > 0) lines.push('The facts:', ...result.facts.map((f) => `- ${f.text}`));
  if (result.patterns.length > 0)
    lines.push(`Patterns that flag it: ${result.patterns.map((id) => patternLabel(id)).join(', ')}.`);
  if (result.note) lines.push(result.note);
  return lines.join('\n');
}

/** "How was my week?": the weekly review's summary and its focus. */
export function weeklyReviewAnswer({ review }: WeeklyReviewToolResult): string {
  const lines = [`Your weekly review of ${review.week}:`, ...review.summary.map((s) => `- ${s}`)];
  if (review.previousFocus) lines.push(`Last week's focus: ${review.previousFocus.outcome}`);
  lines.push(`Focus for next week: ${review.focus.text}`);
  lines.push('Data: Coach → Weekly Reviews.');
  return lines.join('\n');
}
