import type { CsvMappingBody, ImportFormat } from '@pipsense/contract';

/*
 * What a parser makes of one report file (MT4 HTML, MT5 HTML, MT5 XLSX, CSV): plain data, no I/O, no time zone.
 * Times are the broker's server time as printed, normalised to `YYYY-MM-DDTHH:mm:ss` (no zone: the import service
 * converts them with the account's UTC offset). Decimals are exact decimal strings ('-1140.03', '0.50'): thousands
 * separators removed, a decimal comma turned into a point, trailing zeros kept, never through a JS number.
 */

export interface ParsedTrade {
  /** 1-based line (HTML, CSV) or row (XLSX) of the file where the trade's row starts. */
  row: number;
  /** MT4 ticket, MT5 position id, the CSV's ticket column (or `row-<n>` when the CSV has none). */
  ticket: string;
  /** As printed ('eurusd', 'XAUUSD.x'). */
  symbol: string;
  side: 'buy' | 'sell';
  lots: string;
  openTime: string;
  /** null for an open trade. */
  closeTime: string | null;
  openPrice: string;
  /** Close price (closed trades) or market price (open trades); null when missing. */
  closePrice: string | null;
  /** null when not set (MT4 prints 0.00000, MT5 leaves the cell empty). */
  sl: string | null;
  tp: string | null;
  commission: string;
  /** MT4 Taxes, MT5 Fee, a CSV's fees column; '0' when the report has none. */
  taxes: string;
  swap: string;
  /** Profit column: price P/L in account currency without commission, taxes and swap (floating for open trades). */
  profit: string;
  comment: string | null;
  magic: string | null;
}

interface ParsedBalanceOperation {
  row: number;
  ticket: string | null;
  time: string;
  /** 'balance', 'credit', or another non-trading type as printed (MT5 'bonus', 'correction', …). */
  type: string;
  amount: string;
  comment: string | null;
}

export interface ParsedAccount {
  number: string | null;
  name: string | null;
  currency: string | null;
  /** '1:100'; null when missing or the placeholder. */
  leverage: string | null;
  /** MT4: the broker name above the table; MT5: Company (or Broker). */
  broker: string | null;
  /** MT5: the trade server from the Account line; MT4/CSV: null. */
  server: string | null;
  /** MT5 demo → demo, real → live, contest → demo; null when the report does not say. */
  mode: 'demo' | 'live' | null;
  /** MT5 Hedge / Netting; null when not said. */
  marginMode: 'hedge' | 'netting' | null;
}

export interface ParsedTotals {
  /** MT4 Summary 'Closed Trade P/L' (or the 'Closed P/L:' row); MT5 Results 'Total Net Profit'; null when absent. */
  closedTradePL: string | null;
  deposits: string | null;
  balance: string | null;
  equity: string | null;
  floatingPL: string | null;
  credit: string | null;
  margin: string | null;
  freeMargin: string | null;
}

export interface ParsedReport {
  format: ImportFormat;
  account: ParsedAccount;
  /**
   * In file order; one per MT4 ticket / MT5 Positions row (two rows may share an MT5 position id: see
   * docs/reference/metatrader.md, Deriving closed trades from MT5).
   */
  closedTrades: ParsedTrade[];
  openTrades: ParsedTrade[];
  balanceOperations: ParsedBalanceOperation[];
  /** Rows that are neither trades nor balance operations, with a reason a trader understands. */
  skipped: Array<{ row: number; reason: string }>;
  totals: ParsedTotals;
  /**
   * What the reader had to assume, for the trader: a column or a type word it did not recognise and how it read it,
   * a table it skipped, a total it could not find. Empty when the report was read as the terminal wrote it.
   */
  warnings: string[];
  /**
   * MT5: the Deals table's trading deals (buy/sell rows), enough to explain a report total that differs from its
   * Positions: the sum of their commission, fee, swap and profit, and the charges of the entry deals of the
   * positions still open (an entry deal's order is its position's id). Absent when the report has no trading deals.
   */
  deals?: {
    total: string;
    openEntries: Array<{ row: number; deal: string; position: string; amount: string }>;
  };
  /**
   * CSV only: true when the file's times are UTC already (the mapping says so, or an auto-recognised broker export
   * with `*_utc` columns); the import service must then not apply the server offset. Absent for reports.
   */
  timesAreUtc?: boolean;
}

/** A CSV mapping as the parser uses it (the contract's, defaults applied). */
export type CsvMappingSpec = Required<Omit<CsvMappingBody, 'name'>>;

/**
 * A file the parser cannot read: `code` is the API's error code (UNKNOWN_FORMAT, EMPTY_FILE, TRUNCATED_FILE,
 * UNSUPPORTED_REPORT, BAD_ROW, MISSING_COLUMN), `message` says what is wrong and what to do, with the line/row where
 * it applies. MISSING_COLUMN carries the file's columns and the missing fields so that the client can map them.
 */
export class ReportError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: { columns: string[]; missing: string[] },
  ) {
    super(message);
    this.name = 'ReportError';
  }
}
