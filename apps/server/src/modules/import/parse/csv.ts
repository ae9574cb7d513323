import { CSV_FIELD_LABELS, CSV_FIELDS, CSV_REQUIRED_FIELDS, type CsvField } from '@pipsense/contract/import-constants';
import { parse } from 'csv-parse/sync';
import { emptyReport, FieldReader } from './fields';
import { validDateTime } from './text';
import { ReportError, type CsvMappingSpec, type ParsedReport, type ParsedTrade } from './types';

/*
 * CSV files (docs/reference/metatrader.md, CSV files): reports re-saved by a spreadsheet (localised headers, `;`,
 * decimal comma, a title line above the header), broker back-office exports (snake_case, times in UTC), Myfxbook
 * statements, or any file with a column mapping. The delimiter is sniffed (`;`, `,`, tab); without a mapping the header
 * is recognised by the aliases below; dates are read in the order the data proves (a day above 12) or the mapping says,
 * never guessed.
 */

type Alias = CsvField | 'time*' | 'price*';

const ALIASES: Record<string, Alias> = {};
const alias = (field: Alias, ...names: string[]) => {
  for (const n of names) ALIASES[n] = field;
};
alias('ticket', 'ticket', 'ticket #', 'position', 'posizione', 'position id', 'order', 'deal', 'id', 'trade id');
alias('ticket', 'trade_id', 'tradeid', 'trade #', 'order id', 'ticket id');
alias(
  'openTime',
  'open time',
  'open date',
  'opening time',
  'opening_time',
  'opening_time_utc',
  'open_time',
  'entry time',
);
alias('openTime', 'open_time_utc', 'open date/time', 'date ouverture', "heure d'ouverture", 'ora apertura');
alias('closeTime', 'close time', 'close date', 'closing time', 'closing_time', 'closing_time_utc', 'close_time');
alias('closeTime', 'close_time_utc', 'exit time', 'close date/time', 'date fermeture', 'ora chiusura');
alias('time*', 'time', 'ora', 'heure', 'zeit', 'hora', 'date');
alias('symbol', 'symbol', 'simbolo', 'symbole', 'símbolo', 'item', 'instrument', 'pair', 'market');
alias('side', 'type', 'tipo', 'typ', 'action', 'side', 'direction', 'buy/sell');
alias('volume', 'volume', 'lots', 'size', 'units/lots', 'lot', 'quantity', 'qty', 'volumen');
alias('openPrice', 'open price', 'opening_price', 'open_price', 'entry price', 'prezzo apertura', "prix d'ouverture");
alias('closePrice', 'close price', 'closing_price', 'close_price', 'exit price', 'prezzo chiusura', 'prix de clôture');
alias('price*', 'price', 'prezzo', 'prix', 'preis', 'precio');
alias('stopLoss', 's / l', 's/l', 'sl', 'stop loss', 'stop_loss', 'stoploss');
alias('takeProfit', 't / p', 't/p', 'tp', 'take profit', 'take_profit', 'takeprofit');
alias('profit', 'profit', 'profitto', 'bénéfice', 'gewinn', 'beneficio', 'profit/loss', 'p/l', 'pnl', 'p&l');
alias('commission', 'commission', 'commissions', 'commissioni', 'commissione', 'comm');
alias('swap', 'swap', 'swaps', 'rollover');
alias('fees', 'fee', 'fees', 'taxes', 'tasse', 'frais');

const normaliseHeader = (h: string) =>
  h
    .replace(/^\uFEFF/, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();

/** The delimiter that splits the first lines into the same, largest number of fields. */
export function sniffDelimiter(text: string): string {
  const lines: string[] = [];
  let start = 0;
  while (lines.length < 12 && start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end).replace(/\r$/, '');
    if (line.trim() !== '') lines.push(line);
    start = end + 1;
  }
  const count = (line: string, d: string) => {
    let n = 0;
    let quoted = false;
    for (const ch of line) {
      if (ch === '"') quoted = !quoted;
      else if (ch === d && !quoted) n++;
    }
    return n;
  };
  let best = ',';
  let bestScore = -1;
  for (const d of ['\t', ';', ',']) {
    const counts = lines.map((l) => count(l, d));
    // The most frequent non-zero count, and on how many lines it appears (a title line above the header is fine).
    const freq = new Map<number, number>();
    for (const c of counts) if (c > 0) freq.set(c, (freq.get(c) ?? 0) + 1);
    let score = 0;
    for (const [fields, lineCount] of freq) score = Math.max(score, lineCount * 1000 + fields);
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

/** Header cells → CSV fields, by the aliases (a second Time/Price is the close one). */
function autoColumns(headers: readonly string[]): Map<CsvField, number> {
  const out = new Map<CsvField, number>();
  const generic: Record<'time*' | 'price*', number[]> = { 'time*': [], 'price*': [] };
  headers.forEach((h, i) => {
    const field = ALIASES[normaliseHeader(h)];
    if (!field) return;
    if (field === 'time*' || field === 'price*') generic[field].push(i);
    else if (!out.has(field)) out.set(field, i);
  });
  const fill = (list: number[], first: CsvField, second: CsvField) => {
    if (!out.has(first) && list[0] !== undefined) out.set(first, list[0]);
    if (!out.has(second) && list[1] !== undefined) out.set(second, list[1]);
  };
  fill(generic['time*'], 'openTime', 'closeTime');
  fill(generic['price*'], 'openPrice', 'closePrice');
  return out;
}

/** The mapping's header texts → column indexes; a text used twice (`Time`, `Price`) takes its occurrences in order. */
function mappedColumns(headers: readonly string[], mapping: CsvMappingSpec): Map<CsvField, number> {
  const out = new Map<CsvField, number>();
  const used = new Map<string, number>();
  for (const field of CSV_FIELDS) {
    const wanted = mapping.columns[field];
    if (!wanted) continue;
    const key = normaliseHeader(wanted);
    const occurrences = headers.flatMap((h, i) =>
      h.trim() === wanted.trim() || normaliseHeader(h) === key ? [i] : [],
    );
    if (occurrences.length === 0) continue;
    const n = used.get(key) ?? 0;
    used.set(key, n + 1);
    out.set(field, occurrences[Math.min(n, occurrences.length - 1)]!);
  }
  return out;
}

interface DateParts {
  a: number;
  b: number;
  c: number;
  yearFirst: boolean;
  time: string;
}

/** `yyyy.MM.dd HH:mm[:ss]`, ISO (`T`, `Z`, fractions), `dd/MM/yyyy`, `MM/dd/yyyy` (`/`, `.` or `-`). */
function dateParts(value: string): DateParts | null {
  const m =
    /^(\d{1,4})[./-](\d{1,2})[./-](\d{1,4})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?\s*(Z|[+-]00:?00| UTC)?$/.exec(
      value.trim(),
    );
  if (!m) return null;
  const yearFirst = m[1]!.length === 4;
  if (!yearFirst && m[3]!.length !== 4) return null;
  const hh = (m[4] ?? '0').padStart(2, '0');
  return {
    a: Number(m[1]),
    b: Number(m[2]),
    c: Number(m[3]),
    yearFirst,
    time: `${hh}:${m[5] ?? '00'}:${m[6] ?? '00'}`,
  };
}

function isoOf(p: DateParts, order: 'dmy' | 'mdy' | null): string | null {
  let y: number;
  let mo: number;
  let d: number;
  if (p.yearFirst) [y, mo, d] = [p.a, p.b, p.c];
  else if (order === 'dmy') [d, mo, y] = [p.a, p.b, p.c];
  else if (order === 'mdy') [mo, d, y] = [p.a, p.b, p.c];
  else return null;
  const iso = `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}T${p.time}`;
  return validDateTime(iso) ? iso : null;
}

const BALANCE_ACTIONS = new Set(['deposit', 'withdrawal', 'balance', 'credit', 'withdraw', 'transfer']);

export function parseCsv(text: string, mapping?: CsvMappingSpec): ParsedReport {
  const delimiter = sniffDelimiter(text);
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, {
      delimiter,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      bom: true,
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
  } catch (error) {
    throw new ReportError(
      'BAD_ROW',
      `The CSV file could not be read: ${(error as Error).message}. Check its quotes and delimiters.`,
    );
  }
  if (records.length === 0) throw new ReportError('EMPTY_FILE', 'The file has no rows.');

  // The header: the first of the first rows that names the mapped columns (or the most known ones).
  let headerIndex = -1;
  let columns = new Map<CsvField, number>();
  const candidates = Math.min(records.length, 10);
  for (let i = 0; i < candidates; i++) {
    const cols = mapping ? mappedColumns(records[i]!.record, mapping) : autoColumns(records[i]!.record);
    if (cols.size > columns.size) {
      columns = cols;
      headerIndex = i;
    }
  }
  if (headerIndex === -1)
    headerIndex = records.reduce((w, r, i) => (r.record.length > records[w]!.record.length && i < 10 ? i : w), 0);
  const headers = records[headerIndex]!.record.map((h) => h.replace(/^\uFEFF/, '').trim());
  const missing = CSV_REQUIRED_FIELDS.filter((f) => !columns.has(f));
  if (missing.length > 0) {
    const names = missing.map((f) => CSV_FIELD_LABELS[f]).join(', ');
    throw new ReportError(
      'MISSING_COLUMN',
      mapping
        ? `The file has no column named as the mapping says for: ${names}. Check the mapping against the file's header (line ${records[headerIndex]!.info.lines}).`
        : `The columns for ${names} were not recognised. Map the file's columns to the trade fields.`,
      { columns: headers, missing: [...missing] },
    );
  }

  const decimalComma =
    mapping && mapping.decimalSeparator === ','
      ? true
      : mapping
        ? false
        : guessDecimalComma(records, headerIndex, columns);
  const rows = records.slice(headerIndex + 1).filter((r) => r.record.some((c) => c.trim() !== ''));
  const get = (record: string[], field: CsvField) => {
    const i = columns.get(field);
    return i === undefined ? '' : (record[i] ?? '').trim();
  };

  // Date order: what the mapping says, else what the data proves.
  let order: 'dmy' | 'mdy' | null = mapping && mapping.dateOrder !== 'ymd' ? mapping.dateOrder : null;
  if (!order) {
    let dmy: number | null = null;
    let mdy: number | null = null;
    let ambiguous: { line: number; value: string } | null = null;
    for (const r of rows) {
      for (const field of ['openTime', 'closeTime'] as const) {
        const p = dateParts(get(r.record, field));
        if (!p || p.yearFirst) continue;
        if (p.a > 12 && p.b <= 12) dmy ??= r.info.lines;
        else if (p.b > 12 && p.a <= 12) mdy ??= r.info.lines;
        else ambiguous ??= { line: r.info.lines, value: get(r.record, field) };
      }
    }
    if (dmy !== null && mdy !== null)
      throw new ReportError(
        'BAD_ROW',
        `Row ${dmy} writes the day first and row ${mdy} the month first: the dates mix two orders. Fix the file so that every date uses the same order.`,
      );
    order = dmy !== null ? 'dmy' : mdy !== null ? 'mdy' : null;
    if (!order && ambiguous)
      throw new ReportError(
        'MISSING_COLUMN',
        `Row ${ambiguous.line}: the date "${ambiguous.value}" could be day/month or month/day, and no date in the file settles it. Choose the date order (day/month or month/day) in the column mapping.`,
        { columns: headers, missing: [] },
      );
  }

  const report = emptyReport('csv');
  report.timesAreUtc = mapping ? mapping.timesAreUtc : headers.some((h) => /utc/i.test(h));
  for (const { record, info } of rows) {
    const line = info.lines;
    const f = new FieldReader(`Row ${line}`, decimalComma);
    const time = (field: 'openTime' | 'closeTime', required: boolean): string | null => {
      const value = get(record, field);
      if (value === '' && !required) return null;
      const p = dateParts(value);
      const iso = p ? isoOf(p, order) : null;
      if (!iso)
        f.fail(
          field === 'openTime' ? 'open time' : 'close time',
          value,
          'a date and time (such as 2024.03.01 09:12, 2024-03-01T09:12:00 or 01/03/2024 09:12)',
        );
      return iso;
    };
    const action = get(record, 'side').toLowerCase();
    const side =
      action === 'buy' || action === 'long' ? 'buy' : action === 'sell' || action === 'short' ? 'sell' : null;
    const ticketText = get(record, 'ticket');
    const ticket = ticketText === '' ? `row-${line}` : ticketText;
    if (!side) {
      if (BALANCE_ACTIONS.has(action)) {
        const comment = get(record, 'symbol') || get(record, 'side');
        report.balanceOperations.push({
          row: line,
          ticket: ticketText || null,
          time: (time('closeTime', false) ?? time('openTime', true))!,
          type: action === 'credit' ? 'credit' : 'balance',
          amount: f.decimal(get(record, 'profit'), 'amount'),
          comment,
        });
      } else {
        report.skipped.push({
          row: line,
          reason: action === '' ? 'no buy/sell side — not a trade' : `type "${get(record, 'side')}" — not a trade`,
        });
      }
      continue;
    }
    const symbol = get(record, 'symbol');
    if (symbol === '') f.fail('symbol', symbol, 'a symbol');
    const closeTime = time('closeTime', false);
    const closePrice = get(record, 'closePrice');
    const trade: ParsedTrade = {
      row: line,
      ticket,
      symbol,
      side,
      lots: f.lots(get(record, 'volume')),
      openTime: time('openTime', true)!,
      closeTime,
      openPrice: f.decimal(get(record, 'openPrice'), 'open price'),
      closePrice: closePrice === '' ? null : f.decimal(closePrice, 'close price'),
      sl: f.level(get(record, 'stopLoss'), 'stop loss'),
      tp: f.level(get(record, 'takeProfit'), 'take profit'),
      commission: f.money(get(record, 'commission'), 'commission'),
      taxes: f.money(get(record, 'fees'), 'fees'),
      swap: f.money(get(record, 'swap'), 'swap'),
      profit: f.decimal(get(record, 'profit'), 'profit'),
      comment: null,
      magic: null,
    };
    if (closeTime === null) report.openTrades.push(trade);
    else {
      if (trade.closePrice === null) f.fail('close price', '', 'a number');
      report.closedTrades.push(trade);
    }
  }
  return report;
}

/** A decimal comma: the prices or profits are written `1,08125` / `4 577,86` (one comma, digits after it, no point after). */
function guessDecimalComma(
  records: ReadonlyArray<{ record: string[] }>,
  headerIndex: number,
  columns: Map<CsvField, number>,
): boolean {
  let comma = 0;
  let point = 0;
  const cols = (['openPrice', 'closePrice', 'profit'] as const).map((f) => columns.get(f)!);
  for (let i = headerIndex + 1; i < records.length && i < headerIndex + 200; i++) {
    for (const c of cols) {
      const v = (records[i]!.record[c] ?? '').trim();
      if (/^-?[\d \u00a0.]*,\d+$/.test(v)) comma++;
      else if (/^-?[\d \u00a0,]*\.\d+$/.test(v)) point++;
    }
  }
  return comma > point;
}
