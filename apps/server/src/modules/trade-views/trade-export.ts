import type { TradeListItem } from '@pipsense/contract';
import { localFields } from '../../domain/calendar';

/*
 * The trade list as CSV (RFC 4180): a header row, CRLF line ends, a field quoted when it holds a comma, a quote,
 * CR or LF (its quotes doubled). Decimals go out as stored, times as stored (UTC ISO-8601) and in the trader's
 * zone beside them.
 */

/** One field, quoted only when RFC 4180 requires it. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record with its CRLF. */
export const csvRecord = (fields: ReadonlyArray<string | number | null | undefined>): string =>
  `${fields.map(csvField).join(',')}\r\n`;

const two = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM-DD HH:MM:SS' on the wall clock of the zone; '' without a time. */
export function localTime(iso: string | null, timeZone: string): string {
  if (!iso) return '';
  const f = localFields(Date.parse(iso), timeZone);
  return `${f.y}-${two(f.m)}-${two(f.d)} ${two(f.hour)}:${two(f.minute)}:${two(f.second)}`;
}

/** The columns, in order, and how each is read off a list row. */
const COLUMNS: ReadonlyArray<[string, (t: TradeListItem, timeZone: string) => string | number | null]> = [
  ['Account', (t) => t.accountId],
  ['Trade ID', (t) => t.tradeId],
  ['Mode', (t) => t.mode],
  ['Instrument', (t) => t.instrument],
  ['Side', (t) => (t.initialUnits.trim().startsWith('-') ? 'short' : 'long')],
  ['State', (t) => t.state],
  ['Initial units', (t) => t.initialUnits],
  ['Current units', (t) => t.currentUnits],
  ['Open time (UTC)', (t) => t.openTime],
  ['Open time (local)', (t, z) => localTime(t.openTime, z)],
  ['Close time (UTC)', (t) => t.closeTime],
  ['Close time (local)', (t, z) => localTime(t.closeTime, z)],
  ['Entry price', (t) => t.price],
  ['Average close price', (t) => t.averageClosePrice],
  ['Realized P/L', (t) => t.realizedPL],
  ['Unrealized P/L', (t) => t.unrealizedPL],
  ['Financing', (t) => t.financing],
  ['Stop loss', (t) => t.stopLossPrice],
  ['Take profit', (t) => t.takeProfitPrice],
  ['Trailing stop distance', (t) => t.trailingStopDistance],
  ['Initial stop', (t) => t.initialRisk?.stopLossPrice ?? null],
  ['Initial risk (pips)', (t) => t.initialRisk?.pips ?? null],
  ['R multiple', (t) => t.rMultiple],
  ['MAE price', (t) => t.mae?.price ?? null],
  ['MAE (pips)', (t) => t.mae?.pips ?? null],
  ['MAE (R)', (t) => t.mae?.r ?? null],
  ['MFE price', (t) => t.mfe?.price ?? null],
  ['MFE (pips)', (t) => t.mfe?.pips ?? null],
  ['MFE (R)', (t) => t.mfe?.r ?? null],
  ['Rating', (t) => t.rating],
  ['Tags', (t) => t.tags.map((tag) => `${tag.kind}:${tag.name}`).join('; ')],
  ['Note', (t) => t.note],
  ['Attachments', (t) => t.attachmentCount],
  // Where the trade comes from, and what an imported MetaTrader trade carries beside OANDA's fields.
  ['Platform', (t) => t.platform],
  ['Symbol', (t) => t.symbol],
  ['Lots', (t) => t.lots],
  ['Commission', (t) => t.commission],
  ['Swap', (t) => t.swap],
];

export const csvHeader = (): string => csvRecord(COLUMNS.map(([name]) => name));

export const csvRow = (t: TradeListItem, timeZone: string): string =>
  csvRecord(COLUMNS.map(([, read]) => read(t, timeZone)));

/** The CSV text of a stream of row batches: the header first, then one chunk per batch. */
export async function* tradesCsv(batches: AsyncIterable<TradeListItem[]>, timeZone: string): AsyncGenerator<string> {
  yield csvHeader();
  for await (const batch of batches) {
    let chunk = '';
    for (const t of batch) chunk += csvRow(t, timeZone);
    yield chunk;
  }
}

/** 'pipsense-trades-2025-01-31.csv' (the day of the export, in the trader's zone). */
export function exportFileName(now: Date, timeZone: string): string {
  const f = localFields(now.getTime(), timeZone);
  return `pipsense-trades-${f.y}-${two(f.m)}-${two(f.d)}.csv`;
}
