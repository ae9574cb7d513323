import { EMPTY_CELL } from '../../../components/data/format';

/**
 * What a card can hold (docs/PRODUCT.md, Overview): plain, a key/value list, an array list or a nested key/value list.
 */
export type MetricValueInput =
  | string
  | number
  | null
  | undefined
  | readonly string[]
  | Readonly<Record<string, string | null | undefined>>
  | Readonly<Record<string, Readonly<Record<string, string | null | undefined>> | string | null | undefined>>;

export type MetricPair = readonly [label: string, value: string];
interface MetricGroup {
  label: string;
  pairs: MetricPair[];
}

/** A card value sorted into the one shape it renders as; anything without content is 'empty' and shows '-'. */
type MetricShape =
  | { kind: 'empty' }
  | { kind: 'plain'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'pairs'; pairs: MetricPair[] }
  /** Key/value lists under headings; plain entries beside them keep their place as pairs above the groups. */
  | { kind: 'nested'; pairs: MetricPair[]; groups: MetricGroup[] };

/** Text of one scalar, or null when it holds nothing worth showing. */
function scalarText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value.toLocaleString() : null;
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A key/value list keeps every key: a missing value inside it is shown as '-' beside its label. */
function pairsOf(record: Record<string, unknown>): MetricPair[] {
  return Object.entries(record).map(([label, value]) => [label, scalarText(value) ?? EMPTY_CELL] as const);
}

export function metricShape(value: unknown): MetricShape {
  if (Array.isArray(value)) {
    const items = value.map(scalarText).filter((item): item is string => item !== null && item !== EMPTY_CELL);
    return items.length === 0 ? { kind: 'empty' } : { kind: 'list', items };
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return { kind: 'empty' };
    if (!entries.some(([, inner]) => isRecord(inner))) return { kind: 'pairs', pairs: pairsOf(value) };
    const pairs: MetricPair[] = [];
    const groups: MetricGroup[] = [];
    for (const [label, inner] of entries) {
      if (isRecord(inner)) groups.push({ label, pairs: pairsOf(inner) });
      else pairs.push([label, scalarText(inner) ?? EMPTY_CELL]);
    }
    return { kind: 'nested', pairs, groups };
  }
  const text = scalarText(value);
  return text === null || text === EMPTY_CELL ? { kind: 'empty' } : { kind: 'plain', text };
}
