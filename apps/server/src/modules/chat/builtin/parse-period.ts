import type { PeriodSpec } from '../tools/periods';
import { NUMBER, numberValue, type TextScan } from './text-scan';

const DATE = '(\\d{4}-\\d{2}-\\d{2})';
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Reads a period such as "today", "last week", "past 30 days" or "from 2025-03-01 to 2025-03-10". */
export function parsePeriod(scan: TextScan, now: Date): PeriodSpec | undefined {
  let m = scan.take(new RegExp(`\\b(?:from|between) ${DATE} (?:to|and|until|-) ${DATE}\\b`));
  if (m) return { kind: 'range', from: m[1], to: m[2] };
  m = scan.take(new RegExp(`\\b${DATE} (?:to|-|until) ${DATE}\\b`));
  if (m) return { kind: 'range', from: m[1], to: m[2] };
  m = scan.take(new RegExp(`\\b(?:since|from|after) ${DATE}\\b`));
  if (m) return { kind: 'range', from: m[1] };
  m = scan.take(new RegExp(`\\b(?:until|till|before) ${DATE}\\b`));
  if (m) return { kind: 'range', to: m[1] };
  m = scan.take(new RegExp(`\\b(?:on )?${DATE}\\b`));
  if (m) return { kind: 'range', from: m[1], to: m[1] };

  if (scan.take(/\b(?:today|today's|so far today|this day)\b/)) return { kind: 'today' };
  m = scan.take(/\b(?:on |last |this )?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:'s)?\b/);
  if (m) return { kind: 'weekday', weekday: WEEKDAYS.indexOf(m[1]!) + 1 };
  if (scan.take(/\b(?:yesterday|yesterday's)\b/)) return { kind: 'yesterday' };
  if (scan.take(/\b(?:this|current) week(?:'s)?\b|\bweek to date\b|\bwtd\b/)) return { kind: 'this_week' };
  if (scan.take(/\b(?:last|previous|prior) week(?:'s)?\b/)) return { kind: 'last_week' };
  if (scan.take(/\b(?:this|current) month(?:'s)?\b|\bmonth to date\b|\bmtd\b/)) return { kind: 'this_month' };
  if (scan.take(/\b(?:last|previous|prior) month(?:'s)?\b/)) return { kind: 'last_month' };

  m = scan.take(
    new RegExp(
      `\\b(?:last|past|previous|over the last|over the past|in the last|in the past) ${NUMBER} (day|week|month)s?\\b`,
    ),
  );
  if (m) {
    const n = numberValue(m[1]) ?? 1;
    const unit = m[2];
    return { kind: 'last_n_days', days: unit === 'week' ? n * 7 : unit === 'month' ? n * 30 : n };
  }
  if (scan.take(/\b(?:past|last) (?:seven days|week)\b/)) return { kind: 'last_n_days', days: 7 };
  if (scan.take(/\b(?:past|last) 24 hours\b/)) return { kind: 'last_n_days', days: 1 };

  const year = now.getUTCFullYear();
  if (scan.take(/\b(?:this year|year to date|ytd)\b/)) return { kind: 'range', from: `${year}-01-01` };
  if (scan.take(/\b(?:last|previous) year\b/))
    return { kind: 'range', from: `${year - 1}-01-01`, to: `${year - 1}-12-31` };
  if (scan.take(/\b(?:all time|ever|overall|in total|all history)\b/)) return { kind: 'all' };
  return undefined;
}
