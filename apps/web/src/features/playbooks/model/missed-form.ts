import { missedTradeBody, type MissedTrade, type MissedTradeBody } from '@pipsense/contract';

/*
 * The missed-trade form's draft (docs/review.md, Missed trades): prices as typed, the time as the browser's
 * datetime-local value (the trader's own clock), sent as a UTC instant.
 */

export interface MissedDraft {
  instrument: string;
  side: 'long' | 'short';
  /** 'YYYY-MM-DDTHH:mm' in the browser's zone. */
  time: string;
  playbookId: string;
  entry: string;
  stop: string;
  target: string;
  note: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** An instant as a datetime-local value in the browser's zone. */
function localInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export const emptyMissed = (playbookId = ''): MissedDraft => ({
  instrument: '',
  side: 'long',
  time: '',
  playbookId,
  entry: '',
  stop: '',
  target: '',
  note: '',
});

export const missedDraftOf = (m: MissedTrade): MissedDraft => ({
  instrument: m.instrument,
  side: m.side,
  time: localInput(m.time),
  playbookId: m.playbookId ?? '',
  entry: m.entry,
  stop: m.stop,
  target: m.target ?? '',
  note: m.note,
});

/** The body the draft sends; an empty time is sent empty, for the contract's own message. */
export function missedBodyOf(draft: MissedDraft): MissedTradeBody {
  const time = draft.time ? new Date(draft.time) : null;
  return {
    instrument: draft.instrument.trim().toUpperCase(),
    side: draft.side,
    time: time && !Number.isNaN(time.getTime()) ? time.toISOString() : draft.time,
    playbookId: draft.playbookId || null,
    entry: draft.entry.trim(),
    stop: draft.stop.trim(),
    target: draft.target.trim() === '' ? null : draft.target.trim(),
    note: draft.note,
  };
}

/** The contract's check before sending: its messages by field, as the server would send them. */
export function missedProblems(body: MissedTradeBody): Record<string, string> {
  const parsed = missedTradeBody.safeParse(body);
  const out: Record<string, string> = {};
  if (parsed.success) return out;
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? '');
    out[key] ??= issue.message;
  }
  // An empty picker is not a malformed date: say what to do rather than the ISO-8601 rule.
  if (body.time === '') out.time = 'time is required: pick when you saw the setup';
  return out;
}
