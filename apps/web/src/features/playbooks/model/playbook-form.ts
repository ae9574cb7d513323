import {
  PLAYBOOK_GROUP_NAMES,
  playbookBody,
  type PLAYBOOK_SESSIONS,
  type Playbook,
  type PlaybookBody,
} from '@pipsense/contract';

type PlaybookSession = (typeof PLAYBOOK_SESSIONS)[number];

/*
 * The playbook form's draft (docs/review.md, Playbooks and reviews). Groups and rules keep the id the server gave
 * them, so an edit renames or moves them instead of retiring them; `key` is the draft's own handle for React and for
 * a row not saved yet.
 */

export interface RuleDraft {
  key: string;
  id?: string;
  text: string;
}
export interface GroupDraft {
  key: string;
  id?: string;
  name: string;
  rules: RuleDraft[];
}
export interface PlaybookDraft {
  name: string;
  description: string;
  instruments: string[];
  sessions: PlaybookSession[];
  groups: GroupDraft[];
  /** As typed: '' for none. */
  defaultRiskPct: string;
}

let counter = 0;
/** A key for a row of the draft, unique for the page's life. */
const newKey = () => `draft-${++counter}`;

export const newRule = (): RuleDraft => ({ key: newKey(), text: '' });
export const newGroup = (name = ''): GroupDraft => ({ key: newKey(), name, rules: [newRule()] });

/** A new playbook starts from the usual groups (Entry, Exit, Risk, Context), each with an empty rule. */
export const emptyDraft = (): PlaybookDraft => ({
  name: '',
  description: '',
  instruments: [],
  sessions: [],
  groups: PLAYBOOK_GROUP_NAMES.map((name) => newGroup(name)),
  defaultRiskPct: '',
});

export const draftOf = (playbook: Playbook): PlaybookDraft => ({
  name: playbook.name,
  description: playbook.description,
  instruments: [...playbook.instruments],
  sessions: [...playbook.sessions],
  groups: playbook.groups.map((g) => ({
    key: newKey(),
    id: g.id,
    name: g.name,
    rules: g.rules.map((r) => ({ key: newKey(), id: r.id, text: r.text })),
  })),
  defaultRiskPct: playbook.defaultRiskPct === null ? '' : String(playbook.defaultRiskPct),
});

/**
 * The body the draft sends: empty rules and unnamed empty groups are left out (a blank row is not a rule); a risk
 * that is not a number goes as NaN, which the contract's check refuses with its own message.
 */
export function bodyOf(draft: PlaybookDraft): PlaybookBody {
  const risk = draft.defaultRiskPct.trim();
  return {
    name: draft.name.trim(),
    description: draft.description,
    instruments: draft.instruments,
    sessions: draft.sessions,
    groups: draft.groups
      .map((g) => ({
        ...(g.id ? { id: g.id } : {}),
        name: g.name.trim(),
        rules: g.rules
          .filter((r) => r.text.trim() !== '')
          .map((r) => ({ ...(r.id ? { id: r.id } : {}), text: r.text.trim() })),
      }))
      .filter((g) => g.name !== '' || g.rules.length > 0),
    defaultRiskPct: risk === '' ? null : Number(risk),
  };
}

/**
 * The contract's own check before sending, so the form says what the server would, by field (the first segment of
 * each issue's path); empty when the body is fine.
 */
export function draftProblems(body: PlaybookBody): Record<string, string> {
  const parsed = playbookBody.safeParse(body);
  const out: Record<string, string> = {};
  if (parsed.success) return out;
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? '');
    out[key] ??= issue.message;
  }
  return out;
}

/** A list with the item at `index` moved one place up (-1) or down (+1); unchanged at either end. */
export function moved<T>(list: readonly T[], index: number, delta: -1 | 1): T[] {
  const to = index + delta;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

/** 'eur/usd', 'EUR-USD' → 'EUR_USD': an instrument as the contract names it. */
export const instrumentCode = (value: string) =>
  value
    .trim()
    .toUpperCase()
    .replace(/[/\s-]+/g, '_');
