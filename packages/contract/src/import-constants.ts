/*
 * The import's plain values (docs/decisions/012-metatrader-import.md), without zod: its limits and the fields of a
 * CSV mapping. The index re-exports them; the server's report-parse thread reads them through the light entry
 * '@pipsense/contract/import-constants', so that the thread loads no schema (import.ts holds the import's schemas).
 */

/** 50 MB: larger files are refused with 413, in the browser before sending and on the server. */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/** A preview not confirmed within this time is discarded. */
export const IMPORT_PREVIEW_TTL_MINUTES = 60;
/** Rows of the preview's `sample`. */
export const IMPORT_SAMPLE_ROWS = 10;

/** The fields a CSV mapping can name; `*` ones are required. */
export const CSV_FIELDS = [
  'ticket',
  'openTime',
  'closeTime',
  'symbol',
  'side',
  'volume',
  'openPrice',
  'closePrice',
  'stopLoss',
  'takeProfit',
  'profit',
  'commission',
  'swap',
  'fees',
] as const;
export type CsvField = (typeof CSV_FIELDS)[number];
export const CSV_REQUIRED_FIELDS = [
  'openTime',
  'closeTime',
  'symbol',
  'side',
  'volume',
  'openPrice',
  'closePrice',
  'profit',
] as const satisfies readonly CsvField[];
export const CSV_FIELD_LABELS: Record<CsvField, string> = {
  ticket: 'Ticket / trade id',
  openTime: 'Open time',
  closeTime: 'Close time',
  symbol: 'Symbol',
  side: 'Side (buy/sell)',
  volume: 'Volume (lots)',
  openPrice: 'Open price',
  closePrice: 'Close price',
  stopLoss: 'Stop loss',
  takeProfit: 'Take profit',
  profit: 'Profit / P&L',
  commission: 'Commission',
  swap: 'Swap',
  fees: 'Other fees',
};
