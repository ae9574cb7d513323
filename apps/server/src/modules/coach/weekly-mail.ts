import type { WeeklyReview } from '@pipsense/contract';
import { addDays, mondayOf, parseIsoWeek, type CalendarDay } from '../../domain/calendar';
import { moneyText } from './weekly';

const dayText = ({ y, m, d }: CalendarDay) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/**
 * The week's local Monday and Sunday ('2026-11-16 to 2026-11-22'): its bounds are UTC instants, whose UTC dates are
 * the day before in a zone east of UTC, and the end bound is the next Monday.
 */
function weekDays(review: WeeklyReview): string {
  const week = parseIsoWeek(review.week);
  if (!week) return `${review.from.slice(0, 10)} to ${review.to.slice(0, 10)}`;
  const monday = mondayOf(week);
  return `${dayText(monday)} to ${dayText(addDays(monday, 6))}`;
}

/** Text for HTML: the five characters that could open markup or end an attribute. */
function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const CELL = 'padding:4px 8px;border-bottom:1px solid #e5e7eb;text-align:left;';

/**
 * The weekly review as an email (docs/coach.md, Weekly review): a plain-text part and an HTML part with inline
 * styles (mail readers drop style sheets), every text escaped, trade instruments included.
 */
export function weeklyMail(review: WeeklyReview): { subject: string; text: string; html: string } {
  const subject = `Your weekly review: ${review.week}`;
  const figures = [
    ['Trades', String(review.figures.trades), review.baseline ? String(review.baseline.trades) : '—'],
    ['Net P/L', moneyText(review.figures.netPL), review.baseline ? moneyText(review.baseline.netPL) : '—'],
    [
      'Total R',
      review.figures.totalR === null ? '—' : String(review.figures.totalR),
      review.baseline?.totalR == null ? '—' : String(review.baseline.totalR),
    ],
    [
      'Win rate',
      review.figures.winRate === null ? '—' : `${review.figures.winRate}%`,
      review.baseline?.winRate == null ? '—' : `${review.baseline.winRate}%`,
    ],
  ];
  const trades = (title: string, list: WeeklyReview['best']) =>
    list.length === 0
      ? []
      : [
          title,
          ...list.map(
            (t) =>
              `- ${t.instrument} ${t.side}: ${moneyText(t.netPL)}${t.rMultiple === null ? '' : ` (${t.rMultiple} R)`}`,
          ),
        ];
  // The baseline counts from the trader's first week with a trade: a new trader's is shorter than 12 weeks.
  const baselineTitle = `${review.baseline?.weeks ?? 12}-week average`;
  const text = [
    `Weekly review ${review.week} (${weekDays(review)}, ${review.timeZone})`,
    '',
    ...review.summary,
    '',
    `This week / ${baselineTitle}`,
    ...figures.map(([name, week, base]) => `${name}: ${week} / ${base}`),
    '',
    ...trades('Best trades', review.best),
    ...trades('Worst trades', review.worst),
    '',
    `Focus for next week: ${review.focus.text}`,
  ].join('\n');

  const rows = figures
    .map(
      ([name, week, base]) =>
        `<tr><td style="${CELL}">${escapeHtml(name!)}</td><td style="${CELL}">${escapeHtml(week!)}</td><td style="${CELL}">${escapeHtml(base!)}</td></tr>`,
    )
    .join('');
  const tradeList = (title: string, list: WeeklyReview['best']) =>
    list.length === 0
      ? ''
      : `<h3 style="font-size:15px;margin:16px 0 4px">${escapeHtml(title)}</h3><ul style="margin:0;padding-left:20px">${list
          .map(
            (t) =>
              `<li>${escapeHtml(`${t.instrument} ${t.side}: ${moneyText(t.netPL)}${t.rMultiple === null ? '' : ` (${t.rMultiple} R)`}`)}</li>`,
          )
          .join('')}</ul>`;
  const html = `<!doctype html><html><body style="margin:0;padding:16px;background:#f9fafb;font-family:Arial,Helvetica,sans-serif;color:#111827">
<div style="max-width:600px;margin:0 auto;background:#ffffff;border:1px solid #e5e7eb;border-radius:8px;padding:20px">
<h1 style="font-size:20px;margin:0 0 4px">Weekly review ${escapeHtml(review.week)}</h1>
<p style="margin:0 0 16px;color:#6b7280;font-size:13px">${escapeHtml(`${weekDays(review)}, ${review.timeZone}`)}</p>
${review.summary.map((s) => `<p style="margin:0 0 8px;line-height:1.5">${escapeHtml(s)}</p>`).join('\n')}
<table style="border-collapse:collapse;margin:16px 0;font-size:14px"><tr><th style="${CELL}"></th><th style="${CELL}">This week</th><th style="${CELL}">${baselineTitle}</th></tr>${rows}</table>
${tradeList('Best trades', review.best)}
${tradeList('Worst trades', review.worst)}
<p style="margin:16px 0 0;padding:12px;background:#eff6ff;border-radius:6px"><strong>Focus for next week:</strong> ${escapeHtml(review.focus.text)}</p>
</div></body></html>`;
  return { subject, text, html };
}
