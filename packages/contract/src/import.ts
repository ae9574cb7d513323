import { z } from 'zod';
import { decimalString, envelope, MODES } from './common';
import { CSV_FIELD_LABELS, CSV_FIELDS, CSV_REQUIRED_FIELDS } from './import-constants';

/*
 * MetaTrader 4/5 and CSV import (docs/decisions/012-metatrader-import.md): upload → preview → confirm or cancel.
 *
 * POST /api/v1/import/upload            multipart/form-data: `file` (one), optional `brokerTime` (BROKER_TIMES),
 *                                       `serverUtcOffset` ('+02:00'; alone it means `fixed`),
 *                                       `mode` (demo|live, when the report does not say), `mappingId` (CSV) or
 *                                       `mapping` (CSV, the JSON of a csvMapping's fields) → importUploadResponse
 * POST /api/v1/import/confirm/:importId optional JSON importConfirmBody → importConfirmResponse
 * POST /api/v1/import/cancel/:importId  → envelope; nothing is stored
 * GET  /api/v1/import/mappings          → csvMappingListResponse
 * POST /api/v1/import/mappings          csvMappingBody → csvMappingResponse (saved per user, by name)
 * DELETE /api/v1/import/mappings/:id    → envelope
 *
 * Errors (usual envelope): 400 UNKNOWN_FORMAT, EMPTY_FILE, TRUNCATED_FILE, UNSUPPORTED_REPORT, BAD_ROW,
 * MISSING_COLUMN (with `details: { columns, missing }` so the client can offer the mapping step), NO_FILE;
 * 409 IMPORT_BUSY (an upload of this user is still being read); 413 FILE_TOO_LARGE; 404 for an unknown or another
 * user's import id; 410 IMPORT_EXPIRED (a preview older than IMPORT_PREVIEW_TTL_MINUTES).
 */

const IMPORT_FORMATS = ['mt4-html', 'mt5-html', 'mt5-xlsx', 'csv'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Broker server time → UTC: a fixed offset such as +02:00 (within ±14:00). */
export const UTC_OFFSET_PATTERN = /^[+-](0\d|1[0-4]):[0-5]\d$/;
const utcOffset = z
  .string()
  .trim()
  .regex(UTC_OFFSET_PATTERN, 'serverUtcOffset must look like +02:00 or -05:00 (hours within ±14)');
/** Most MetaTrader brokers run their servers at UTC+2 (UTC+3 in summer): the fixed offset offered first. */
export const DEFAULT_SERVER_UTC_OFFSET = '+02:00';

/**
 * The broker server's clock (docs/decisions/012-metatrader-import.md, "Server time"): `ny-close-us` UTC+2, UTC+3
 * while New York is on summer time (New York + 7 h; most brokers), `ny-close-eu` UTC+2, UTC+3 during EU summer time,
 * `fixed` one offset all year (`serverUtcOffset`).
 */
export const BROKER_TIMES = ['ny-close-us', 'ny-close-eu', 'fixed'] as const;
export type BrokerTimeName = (typeof BROKER_TIMES)[number];
/** The rule of an upload that names none, for an account that remembers none. */
export const DEFAULT_BROKER_TIME = 'ny-close-us' satisfies BrokerTimeName;

const IMPORT_SIDES = ['buy', 'sell'] as const;

/** One closed trade as it will be stored, shown in the preview (times already UTC). */
const importedTrade = z.object({
  /** MT4 ticket or MT5 position id (with `@<open time>` where one position id covers two trades). */
  tradeId: z.string(),
  /** As printed in the report. */
  symbol: z.string(),
  /** Normalised like OANDA's (EUR_USD, XAU_USD); unknown symbols as printed. */
  instrument: z.string(),
  side: z.enum(IMPORT_SIDES),
  lots: decimalString,
  /** lots × the contract size, negative for a sell (as OANDA's units). */
  units: decimalString,
  openTime: z.string(),
  closeTime: z.string().nullable(),
  price: decimalString,
  averageClosePrice: decimalString.nullable(),
  stopLossPrice: decimalString.nullable(),
  takeProfitPrice: decimalString.nullable(),
  /** Commission, plus MT4 taxes or the MT5 fee. */
  commission: decimalString,
  swap: decimalString,
  /** The report's profit column (price P/L in account currency, without commission and swap). */
  realizedPL: decimalString,
});
export type ImportedTrade = z.infer<typeof importedTrade>;

const importAccount = z.object({
  number: z.string().nullable(),
  name: z.string().nullable(),
  currency: z.string().nullable(),
  /** '1:100'; null where the report does not say. */
  leverage: z.string().nullable(),
  broker: z.string().nullable(),
  /** The broker's trade server (MT5 reports name it; MT4 statements do not). */
  server: z.string().nullable(),
  /** From the report (MT5: demo/real/contest), else remembered for this account; null: not known, asked at confirm. */
  mode: z.enum(MODES).nullable(),
});

/** A symbol's contract size (units per lot) as the import will use it; `known: false` = a guess to check. */
const contractSize = z.object({
  symbol: z.string(),
  instrument: z.string(),
  contractSize: decimalString,
  known: z.boolean(),
});
export type ContractSize = z.infer<typeof contractSize>;

const importPreview = z.object({
  account: importAccount,
  closedTrades: z.number().int(),
  openTrades: z.number().int(),
  balanceOperations: z.number().int(),
  /** Rows not imported and why (cancelled orders, unknown types); `row` is the 1-based line/row in the file. */
  skipped: z.array(z.object({ row: z.number().int(), reason: z.string() })),
  /** Open time of the first and close time of the last closed trade (UTC); null without trades. */
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** Σ(profit + commission + swap (+ taxes/fee)) over the closed trades, exactly. */
  netProfit: decimalString,
  /** The report's own closed-trade total (MT4 Closed Trade P/L, MT5 Total Net Profit); null when it has none. */
  reportNetProfit: decimalString.nullable(),
  /**
   * Why netProfit and reportNetProfit differ, in a trader's words, naming the report's rows that explain it (MT5:
   * entry commissions of positions still open, deals of positions not closed in the report); null when they agree.
   */
  reportTotalExplained: z.string().nullable().default(null),
  /** What the reader had to assume (a column or type word it did not recognise, a total it could not find). */
  warnings: z.array(z.string()).default([]),
  /** The server clock rule the times were converted with. */
  brokerTime: z.enum(BROKER_TIMES),
  /** The offset of a `fixed` rule; null for a named rule (its offsets are in serverUtcOffsets). */
  serverUtcOffset: z.string().nullable(),
  /** Every offset the trades' times were read at ('+02:00', '+03:00'), in order. */
  serverUtcOffsets: z.array(z.string()),
  contractSizes: z.array(contractSize),
  /** The first closed trades (IMPORT_SAMPLE_ROWS). */
  sample: z.array(importedTrade),
});
export type ImportPreview = z.infer<typeof importPreview>;

/**
 * The text fields of the upload form (`POST /api/v1/import/upload`, multipart/form-data), beside the one file in
 * the field named `file`. `mapping` is a CSV mapping as JSON text.
 */
export const importUploadFields = z
  .object({
    brokerTime: z.enum(BROKER_TIMES, { error: `brokerTime must be one of ${BROKER_TIMES.join(', ')}` }).optional(),
    serverUtcOffset: utcOffset.optional(),
    mode: z.enum(MODES, { error: 'mode must be demo or live' }).optional(),
    mappingId: z.string().trim().min(1).max(64).optional(),
    mapping: z.string().max(20_000).optional(),
  })
  .refine((f) => !(f.serverUtcOffset !== undefined && f.brokerTime !== undefined && f.brokerTime !== 'fixed'), {
    message:
      'serverUtcOffset goes with brokerTime fixed only: send brokerTime fixed with the offset, or the named rule alone.',
  });

export const importUploadResponse = envelope.extend({
  importId: z.string(),
  format: z.enum(IMPORT_FORMATS),
  preview: importPreview,
});
export type ImportUploadResponse = z.infer<typeof importUploadResponse>;

export const importConfirmBody = z
  .object({
    /** Needed when the report does not say (MT4, CSV) and the account has none remembered; default demo. */
    mode: z.enum(MODES, { error: 'mode must be demo or live' }).optional(),
    /** Corrections of the contract sizes, by symbol as printed; remembered for the user. */
    contractSizes: z
      .record(
        z.string().min(1).max(64),
        decimalString.refine((v) => Number(v) > 0, 'a contract size must be above 0'),
      )
      .optional(),
  })
  .default({});
export type ImportConfirmBody = z.input<typeof importConfirmBody>;

export const importConfirmResponse = envelope.extend({
  /** Trades, closed and open (an open trade is stored open and closed by a later report). */
  added: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  /** Deposits, withdrawals, credits… stored for the first time (GET /api/v1/account/get_balance_operations/…). */
  balanceOperationsAdded: z.number().int(),
  /** The account key the trades were stored under (the trades' accountId). */
  accountId: z.string(),
});
export type ImportConfirmResponse = z.infer<typeof importConfirmResponse>;

export const importIdParams = z.object({ importId: z.string().min(1).max(64) });

/** How dates are written; a file whose dates fit more than one order is refused unless the mapping says. */
export const CSV_DATE_ORDERS = ['ymd', 'dmy', 'mdy'] as const;

export const csvMappingFields = z.object({
  name: z.string().trim().min(1, 'Give the mapping a name.').max(80, 'The name is too long (80 characters at most).'),
  /** CSV field → the file's header text (exactly as in the file). */
  columns: z.partialRecord(z.enum(CSV_FIELDS), z.string().trim().min(1).max(200)),
  dateOrder: z.enum(CSV_DATE_ORDERS, { error: 'dateOrder must be ymd, dmy or mdy' }).default('ymd'),
  decimalSeparator: z.enum(['.', ','], { error: 'decimalSeparator must be . or ,' }).default('.'),
  /** The file's times are UTC already (broker back-office exports); otherwise the server offset applies. */
  timesAreUtc: z.boolean().default(false),
});
export const csvMappingBody = csvMappingFields.superRefine((m, ctx) => {
  const missing = CSV_REQUIRED_FIELDS.filter((f) => !m.columns[f]);
  if (missing.length > 0)
    ctx.addIssue({
      code: 'custom',
      message: `Map every required column: ${missing.map((f) => CSV_FIELD_LABELS[f]).join(', ')}.`,
      path: ['columns'],
    });
});
export type CsvMappingBody = z.input<typeof csvMappingBody>;
const csvMapping = csvMappingFields.extend({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CsvMapping = z.infer<typeof csvMapping>;
export const csvMappingResponse = envelope.extend({ data: csvMapping });
export const csvMappingListResponse = envelope.extend({ data: z.array(csvMapping) });
export const csvMappingIdParams = z.object({ id: z.string().min(1).max(64) });
