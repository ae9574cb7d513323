import type { TagFacts, TagKind } from '@pipsense/contract';

export interface TagGroup {
  kind: TagKind;
  title: string;
  /** What the order tells the trader. */
  note: string;
  rows: TagFacts[];
}

/**
 * The by-tag breakdown, split by kind: setups best first (which pay), mistakes costliest first (what they cost),
 * emotions best first. Ties go to the tag with more trades, then by name. Tags without trades are left out.
 */
export function tagGroups(byTag: readonly TagFacts[]): TagGroup[] {
  const of = (kind: TagKind, direction: 1 | -1) =>
    byTag
      .filter((t) => t.kind === kind && t.trades > 0)
      .sort((a, b) => direction * (b.netPL - a.netPL) || b.trades - a.trades || a.name.localeCompare(b.name));
  return [
    { kind: 'setup' as const, title: 'Setups', note: 'Best paying first', rows: of('setup', 1) },
    { kind: 'mistake' as const, title: 'Mistakes', note: 'Costliest first', rows: of('mistake', -1) },
    { kind: 'emotion' as const, title: 'Emotions', note: 'Best first', rows: of('emotion', 1) },
  ].filter((g) => g.rows.length > 0);
}

/** '1.35 R', '-0.80 R'; '-' when no trade of the tag has an initial stop. */
export const rText = (value: number | null) => (value === null ? '-' : `${value > 0 ? '+' : ''}${value.toFixed(2)} R`);
