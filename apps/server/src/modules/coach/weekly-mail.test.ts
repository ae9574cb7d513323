import { describe, expect, it } from 'vitest';
import type { WeeklyReview } from '@pipsense/contract';
import { weeklyMail } from './weekly-mail';

/** A week of Berlin (UTC+1 in November): its bounds' UTC dates are the Sunday before and the Sunday it ends on. */
const review: WeeklyReview = {
  week: '2026-W47',
  from: '2026-11-15T23:00:00.000Z',
  to: '2026-11-22T23:00:00.000Z',
  timeZone: 'Europe/Berlin',
  figures: { trades: 1, netPL: { mode: 'single', currency: 'EUR', amount: '12.5000' }, totalR: 0.5, winRate: 100 },
  baseline: null,
  best: [],
  worst: [],
  patterns: [],
  ruleBreaks: null,
  playbooks: null,
  mood: null,
  focus: { text: 'Keep to your plan <always>.', pattern: null },
  previousFocus: null,
  summary: ['You closed 1 trade for 12.50 EUR.'],
  source: 'builtin',
  createdAt: '2026-11-23T06:00:00.000Z',
  readAt: null,
};

describe('the weekly email', () => {
  it('dates the week by its local Monday and Sunday, in both parts, with its text escaped in HTML', () => {
    const mail = weeklyMail(review);
    expect(mail.subject).toBe('Your weekly review: 2026-W47');
    expect(mail.text).toContain('Weekly review 2026-W47 (2026-11-16 to 2026-11-22, Europe/Berlin)');
    expect(mail.html).toContain('2026-11-16 to 2026-11-22, Europe/Berlin');
    expect(mail.html).not.toContain('2026-11-15');
    expect(mail.html).toContain('Keep to your plan &lt;always&gt;.');
  });

  it('names a baseline shorter than 12 weeks by its own length', () => {
    const short = { trades: 6, netPL: null, totalR: -1.01, winRate: 25, weeks: 2 };
    const mail = weeklyMail({ ...review, baseline: short });
    expect(mail.text).toContain('This week / 2-week average');
    expect(mail.text).toContain('Trades: 1 / 6');
    expect(mail.html).toContain('>2-week average</th>');
    expect(mail.html).not.toContain('12-week');
  });
});
