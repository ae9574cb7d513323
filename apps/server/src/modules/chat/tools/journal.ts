import type { TagFacts, TagKind, TradeItem, TradeTag } from '@pipsense/contract';
import { tagFactsOf, type TradeJournal } from '../../analytics';
import { tradeRef } from '../../journal';
import type { ResolvedPeriod } from './periods';
import { closedInPeriod, itemMatcher, type TradeRow } from './trade-query';

/** What the assistant reads of the trader's journal: tags, which trade has which, notes. */
export interface JournalSnapshot extends TradeJournal {
  notesByTrade: ReadonlyMap<string, { note: string; rating: number | null }>;
}

export const EMPTY_JOURNAL: JournalSnapshot = {
  tags: [],
  tagsByTrade: new Map(),
  notesByTrade: new Map(),
};

const nameKey = (name: string) => name.trim().toLowerCase().replace(/^#/, '');

/** Tag names (any case, with or without '#') to the trader's tags; `unknown` lists the names that match none. */
export function resolveTags(
  journal: JournalSnapshot,
  names: readonly string[],
): { tags: TradeTag[]; unknown: string[] } {
  const tags: TradeTag[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const matches = journal.tags.filter((tag) => nameKey(tag.name) === nameKey(name));
    if (matches.length === 0) unknown.push(name);
    for (const tag of matches) if (!tags.includes(tag)) tags.push(tag);
  }
  return { tags, unknown };
}

/** The listed trades with their notes, ratings and tag names. */
export function withJournal(rows: readonly TradeRow[], journal: JournalSnapshot): TradeRow[] {
  const names = new Map(journal.tags.map((tag) => [tag.id, tag.name]));
  return rows.map((row) => {
    const ref = tradeRef(row.accountId, row.tradeId);
    const note = journal.notesByTrade.get(ref);
    const tags = (journal.tagsByTrade.get(ref) ?? []).flatMap((id) => names.get(id) ?? []);
    return { ...row, note: note && note.note !== '' ? note.note : null, rating: note?.rating ?? null, tags };
  });
}

export interface TagComparisonRequest {
  period: ResolvedPeriod;
  instrument?: string | undefined;
  kind?: TagKind | undefined;
}

/**
 * Per tag, the trades closed in the period (the overview's byTag computation, analytics.service.ts tagFactsOf),
 * one kind or all.
 */
export function compareTagsOf(
  trades: ReadonlyArray<TradeItem & { initialStopLossPrice?: string | null }>,
  journal: JournalSnapshot,
  request: TagComparisonRequest,
): TagFacts[] {
  const closed = trades.filter(itemMatcher(closedInPeriod(request.period, request.instrument)));
  const tags = request.kind ? journal.tags.filter((tag) => tag.kind === request.kind) : journal.tags;
  return tagFactsOf(closed, { ...journal, tags });
}
