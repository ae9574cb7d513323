import type { CoachPattern } from '@pipsense/contract';

/**
 * The trades a behaviour pattern flags (docs/coach.md, Patterns), as the coach answers them: keys
 * `<account key> <trade id>` (trade-list.repository.ts tradeKey). `version` names this answer beside the list
 * version (the user's thresholds and time zone): the trade list's cached pages put it in their key when they filter
 * by a pattern.
 */
export interface PatternKeys {
  version: string;
  keys: ReadonlySet<string>;
}

/** The port to the coach, wired in app.ts (the trade views never import it: it reads trades through them). */
export type PatternSource = (userId: string, pattern: CoachPattern) => Promise<PatternKeys>;

/** Without the coach (a source left unwired): no trade is flagged. */
export const NO_PATTERN_KEYS: PatternKeys = { version: '', keys: new Set() };
