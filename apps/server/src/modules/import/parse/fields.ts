import type { ParsedAccount, ParsedReport, ParsedTotals } from './types';
import { ReportError } from './types';
import { mtTime, toDecimal } from './text';

/* Field readers shared by the report parsers: each bad value is a BAD_ROW naming the line/row, the field and the text. */

export class FieldReader {
  constructor(
    /** 'Line 57' (HTML, CSV) or 'Row 14' (XLSX). */
    readonly where: string,
    private readonly decimalComma = false,
  ) {}

  fail(what: string, value: string, expected: string): never {
    throw new ReportError(
      'BAD_ROW',
      `${this.where}: the ${what} "${value}" is not ${expected}. Correct that row or export the report again.`,
    );
  }

  decimal(value: string | undefined, what: string): string {
    const v = (value ?? '').trim();
    const d = toDecimal(v, this.decimalComma);
    if (d === null) this.fail(what, v, 'a number');
    return d;
  }

  /** An optional amount: empty → '0'. */
  money(value: string | undefined, what: string): string {
    const v = (value ?? '').trim();
    return v === '' ? '0' : this.decimal(v, what);
  }

  /** S/L, T/P: empty or zero → null. */
  level(value: string | undefined, what: string): string | null {
    const v = (value ?? '').trim();
    if (v === '') return null;
    const d = this.decimal(v, what);
    return isZero(d) ? null : d;
  }

  /** Volume: MT5 may print `closed / initial` ('0.3 / 0.5'): the first figure is the closed volume. */
  lots(value: string | undefined, what = 'volume'): string {
    const v = (value ?? '').trim();
    const slash = v.indexOf('/');
    return this.decimal(slash === -1 ? v : v.slice(0, slash), what);
  }

  time(value: string | undefined, what: string): string {
    const v = (value ?? '').trim();
    const t = mtTime(v);
    if (t === null) this.fail(what, v, 'a date and time like 2024.03.01 09:12');
    return t;
  }

  side(value: string | undefined): 'buy' | 'sell' {
    const v = (value ?? '').trim().toLowerCase();
    if (v === 'buy' || v === 'sell') return v;
    this.fail('type', value ?? '', 'buy or sell');
  }
}

function isZero(decimal: string): boolean {
  for (let i = 0; i < decimal.length; i++) {
    const c = decimal.charCodeAt(i);
    if (c >= 49 && c <= 57) return false;
  }
  return true;
}

const emptyAccount = (): ParsedAccount => ({
  number: null,
  name: null,
  currency: null,
  leverage: null,
  broker: null,
  server: null,
  mode: null,
  marginMode: null,
});

const emptyTotals = (): ParsedTotals => ({
  closedTradePL: null,
  deposits: null,
  balance: null,
  equity: null,
  floatingPL: null,
  credit: null,
  margin: null,
  freeMargin: null,
});

export function emptyReport(format: ParsedReport['format']): ParsedReport {
  return {
    format,
    account: emptyAccount(),
    closedTrades: [],
    openTrades: [],
    balanceOperations: [],
    skipped: [],
    totals: emptyTotals(),
    warnings: [],
  };
}

/** '1:100' from a leverage text; null for a missing value or the unreplaced `<!--LEVERAGE-->` placeholder. */
export function leverageOf(text: string | null | undefined): string | null {
  const t = (text ?? '').replace(/\s+/g, '');
  const colon = t.indexOf(':');
  if (colon <= 0) return null;
  const a = t.slice(0, colon);
  const b = t.slice(colon + 1);
  return /^\d+$/.test(a) && /^\d+$/.test(b) ? `${a}:${b}` : null;
}

/** Pending order types (MT4 Closed Transactions, MT5 Orders): never trades. */
export function isPendingType(type: string): boolean {
  return /^(buy|sell) (limit|stop|stop limit)$/.test(type);
}
