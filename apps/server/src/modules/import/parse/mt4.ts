import { emptyReport, FieldReader, isPendingType, leverageOf } from './fields';
import { readHtmlRows, type Cell, type Row } from './html-rows';
import { compareDecimals, signOf, subtractDecimals, sumDecimals } from '../../../domain/decimal';
import { mtTime, toDecimal } from './text';
import { ReportError, type ParsedReport, type ParsedTrade } from './types';

/*
 * MT4 "Save as Report" / "Save as Detailed Report" statements (docs/reference/metatrader.md, MT4 statements). Rows are
 * told apart by their Type cell and read by column position (colspans counted), never by row index: trades (buy/sell),
 * balance/credit rows, pending orders removed before they filled (skipped with the reason), the detail rows some builds
 * write under a trade (magic number, comment: already in the ticket's title), totals and `Closed P/L:` rows.
 *
 * Working Orders are listed in `skipped` ("still pending — not a trade") so that the preview accounts for every row
 * of the file; Details statistics are ignored. A statement without its Summary was cut: TRUNCATED_FILE.
 *
 * Whatever the terminal's language (docs/reference/metatrader.md, Reading a report in any language): sections are
 * the rows with one filled cell ending in ':', in their fixed order (known titles only cross-check); a trade row is
 * told by its shape (a ticket, an open time and, when closed, a close time); a side word we do not know is told from
 * the row's prices; the Summary is read by position where Equity = Balance + Credit + Floating P/L holds.
 */

type Section = 'closed' | 'open' | 'working' | 'summary' | 'details';

const SECTION_TITLES: Record<string, Section> = {
  'closed transactions:': 'closed',
  'open trades:': 'open',
  'working orders:': 'working',
  'summary:': 'summary',
  'details:': 'details',
};

const SECTION_ORDER: readonly Section[] = ['closed', 'open', 'working', 'summary', 'details'];

const SIDE_WORDS: Record<string, 'buy' | 'sell'> = { buy: 'buy', sell: 'sell' };

const SECTION_NAMES: Record<Section, string> = {
  closed: 'Closed Transactions',
  open: 'Open Trades',
  working: 'Working Orders',
  summary: 'Summary',
  details: 'Details',
};

/** Closed Transactions / Open Trades columns, by position (the two Price columns share a name). */
const COL = {
  ticket: 0,
  openTime: 1,
  type: 2,
  size: 3,
  item: 4,
  openPrice: 5,
  sl: 6,
  tp: 7,
  closeTime: 8,
  closePrice: 9,
  commission: 10,
  taxes: 11,
  swap: 12,
  profit: 13,
} as const;

/** The ticket's title: `#MAGIC comment`, `#MAGIC `, or a comment (`[tp]`, `to #123`, `cancelled`). */
export function commentAndMagic(title: string | null): { comment: string | null; magic: string | null } {
  const t = (title ?? '').trim();
  if (t === '') return { comment: null, magic: null };
  if (t.startsWith('#')) {
    let i = 1;
    while (i < t.length && t.charCodeAt(i) >= 48 && t.charCodeAt(i) <= 57) i++;
    if (i > 1 && (i === t.length || t[i] === ' ')) {
      const rest = t.slice(i).trim();
      return { comment: rest === '' ? null : rest, magic: t.slice(1, i) };
    }
  }
  return { comment: t, magic: null };
}

function byColumn(cells: readonly Cell[]): Array<Cell | undefined> {
  const out: Array<Cell | undefined> = [];
  for (const c of cells) out[c.col] = c;
  return out;
}

/** `Label: value` pairs of a row (Summary, the account header): a label cell ends in ':' and the next cell holds the value. */
function labelledValues(cells: readonly Cell[], into: Map<string, string>): void {
  for (let i = 0; i < cells.length; i++) {
    const text = cells[i]!.text;
    if (text.endsWith(':') && i + 1 < cells.length)
      into.set(text.slice(0, -1).trim().toLowerCase(), cells[i + 1]!.text);
  }
}

export function parseMt4(text: string): ParsedReport {
  const report = emptyReport('mt4-html');
  let section: Section | null = null;
  const seen = new Set<Section>();
  let headerRead = false;
  let closedPL: string | null = null;
  let floatingPL: string | null = null;
  let lastLine = 0;
  const summary = new Map<string, string>();
  const summaryRows: Array<Array<string | null>> = [];
  const learnedSides = new Map<string, 'buy' | 'sell'>();

  /** A side word we do not know, told from the row's prices: a profit with the sign of close − open is a buy. */
  const sideOf = (f: FieldReader, word: string, open: string, close: string, profit: string): 'buy' | 'sell' => {
    const known = SIDE_WORDS[word] ?? learnedSides.get(word);
    if (known) return known;
    const move = signOf(subtractDecimals(close, open));
    const sign = signOf(profit);
    if (move === 0 || sign === 0) f.fail('type', word, 'buy or sell');
    const side = move === sign ? 'buy' : 'sell';
    learnedSides.set(word, side);
    report.warnings.push(
      `The trade type "${word}" is not a word PipSense knows: trades of that type were read as ${side}, from their prices (the profit's sign against the move from open to close price). Check the sides in the preview.`,
    );
    return side;
  };

  const trade = (row: Row, col: Array<Cell | undefined>, open: boolean): ParsedTrade => {
    const f = new FieldReader(`Line ${row.line}`);
    const cell = (i: number) => col[i]?.text ?? '';
    const ticket = cell(COL.ticket);
    if (!/^\d+$/.test(ticket)) f.fail('ticket', ticket, 'a ticket number');
    const { comment, magic } = commentAndMagic(col[COL.ticket]?.title ?? null);
    const closePrice = cell(COL.closePrice);
    const out: ParsedTrade = {
      row: row.line,
      ticket,
      symbol: cell(COL.item),
      side: 'buy',
      lots: f.lots(cell(COL.size), 'size'),
      openTime: f.time(cell(COL.openTime), 'open time'),
      closeTime: open ? null : f.time(cell(COL.closeTime), 'close time'),
      openPrice: f.decimal(cell(COL.openPrice), 'open price'),
      closePrice: closePrice === '' ? null : f.decimal(closePrice, open ? 'market price' : 'close price'),
      sl: f.level(cell(COL.sl), 'S / L'),
      tp: f.level(cell(COL.tp), 'T / P'),
      commission: f.money(cell(COL.commission), 'commission'),
      taxes: f.money(cell(COL.taxes), 'taxes'),
      swap: f.money(cell(COL.swap), 'swap'),
      profit: f.decimal(cell(COL.profit), 'profit'),
      comment,
      magic,
    };
    const word = cell(COL.type).toLowerCase();
    out.side = SIDE_WORDS[word] ?? sideOf(f, word, out.openPrice, out.closePrice ?? out.openPrice, out.profit);
    return out;
  };

  const onRow = (row: Row) => {
    const cells = row.cells;
    lastLine = row.line;
    let filledCount = 0;
    let firstFilled: Cell | undefined;
    for (const c of cells) {
      if (c.text === '') continue;
      filledCount++;
      firstFilled ??= c;
    }
    if (filledCount === 1 && (firstFilled!.text.endsWith(':') || firstFilled!.text.endsWith('：'))) {
      const next = SECTION_TITLES[firstFilled!.text.toLowerCase()] ?? SECTION_ORDER[seen.size];
      if (next) {
        if (!SECTION_TITLES[firstFilled!.text.toLowerCase()] && next !== 'details')
          report.warnings.push(
            `Line ${row.line}: the section title "${firstFilled!.text}" is not one PipSense knows; it was read as "${SECTION_NAMES[next]}" from its place in the statement.`,
          );
        section = next;
        seen.add(next);
        return;
      }
    }
    if (section === null) {
      if (!headerRead && cells.some((c) => /^[^:]+:\s*\d+$/.test(c.text))) {
        headerRead = true;
        readHeader(cells, report);
      }
      return;
    }
    if (filledCount === 0) return;
    // Without colspans a cell's index is its column: no copy needed.
    const col = cells[cells.length - 1]!.col === cells.length - 1 ? cells : byColumn(cells);
    const first = col[0]?.text ?? '';
    const type = (col[COL.type]?.text ?? '').toLowerCase();
    switch (section) {
      case 'closed': {
        if (type === 'buy' || type === 'sell' || isTradeRow(col, true)) {
          report.closedTrades.push(trade(row, col, false));
        } else if (type === 'balance' || type === 'credit') {
          const f = new FieldReader(`Line ${row.line}`);
          const last = cells[cells.length - 1]!;
          const comment = col[3]?.text || col[0]?.title || '';
          report.balanceOperations.push({
            row: row.line,
            ticket: first || null,
            time: f.time(col[COL.openTime]?.text, 'time'),
            type,
            amount: f.decimal(last.text, 'amount'),
            comment: comment === '' ? null : comment,
          });
        } else if (isBalanceRow(col, cells)) {
          // A balance row in a language we do not know: ticket, time, type, comment, amount.
          const f = new FieldReader(`Line ${row.line}`);
          const comment = col[3]?.text || col[0]?.title || '';
          report.balanceOperations.push({
            row: row.line,
            ticket: first || null,
            time: f.time(col[COL.openTime]?.text, 'time'),
            type,
            amount: f.decimal(cells[cells.length - 1]!.text, 'amount'),
            comment: comment === '' ? null : comment,
          });
        } else if (isPendingType(type)) {
          const status = cells[cells.length - 1]!.text || 'removed';
          report.skipped.push({ row: row.line, reason: `${type} order ${first} ${status} — not a trade` });
        } else if (isLabelledTotal(cells)) {
          closedPL = toDecimal(cells[cells.length - 1]!.text);
        } else if (/^\d+$/.test(first) && type !== '') {
          report.skipped.push({ row: row.line, reason: `ticket ${first} has the type "${type}" — not a trade` });
        }
        // Else: a detail row (magic, comment: already read from the ticket's title) or the totals row.
        return;
      }
      case 'open':
        if (type === 'buy' || type === 'sell' || isTradeRow(col, false)) report.openTrades.push(trade(row, col, true));
        else if (isLabelledTotal(cells)) floatingPL = toDecimal(cells[cells.length - 1]!.text);
        return;
      case 'working':
        if (/^\d+$/.test(first) && type !== '')
          report.skipped.push({
            row: row.line,
            reason: `${type} order ${first} is still pending (Working Orders) — not a trade`,
          });
        return;
      case 'summary':
        labelledValues(cells, summary);
        summaryRows.push(cells.filter((c) => c.text !== '' && !c.text.endsWith(':')).map((c) => toDecimal(c.text)));
        return;
      default:
        return;
    }
  };

  const doc = readHtmlRows(text, onRow);
  if (!seen.has('closed')) {
    if (!doc.tableClosed)
      throw new ReportError(
        'TRUNCATED_FILE',
        `The statement stops at line ${doc.lines} before its "Closed Transactions:" section: the file was cut off. Save the report from the terminal again and upload the whole file.`,
      );
    throw new ReportError(
      'UNSUPPORTED_REPORT',
      'This MetaTrader 4 statement has no "Closed Transactions:" section. Save it from Terminal → Account History → Save as Report (or Save as Detailed Report).',
    );
  }
  if (!seen.has('summary') || !doc.tableClosed) {
    const where = section ? ` inside "${SECTION_NAMES[section as Section]}"` : '';
    throw new ReportError(
      'TRUNCATED_FILE',
      `The statement stops at line ${doc.lines}${where} (last complete row at line ${lastLine}), before its Summary: the file was cut off. Save the report from the terminal again and upload the whole file.`,
    );
  }
  if (!report.account.broker) report.account.broker = doc.banner;
  if (!report.account.number || !report.account.name) {
    // `Statement: 1234567 - Account Name`
    const m = /^Statement:\s*(\d+)\s*-\s*(.*)$/.exec(doc.title);
    if (m) {
      report.account.number ??= m[1]!;
      report.account.name ??= m[2]!.trim() || null;
    }
  }
  const money = (label: string) => {
    const v = summary.get(label);
    return v === undefined ? null : toDecimal(v);
  };
  report.totals = {
    closedTradePL: money('closed trade p/l') ?? closedPL,
    deposits: money('deposit/withdrawal'),
    balance: money('balance'),
    equity: money('equity'),
    floatingPL: money('floating p/l') ?? floatingPL,
    credit: money('credit facility'),
    margin: money('margin'),
    freeMargin: money('free margin'),
  };
  // By position (Deposit/Withdrawal, Credit / Closed Trade P/L, Floating P/L, Margin / Balance, Equity, Free Margin),
  // where the Summary's own sum holds: Equity = Balance + Credit + Floating P/L.
  const at = (r: number, c: number) => summaryRows[r]?.[c] ?? null;
  const [deposits, credit, closed, floating, margin, balance, equity, freeMargin] = [
    at(0, 0),
    at(0, 1),
    at(1, 0),
    at(1, 1),
    at(1, 2),
    at(2, 0),
    at(2, 1),
    at(2, 2),
  ];
  if (
    balance &&
    credit &&
    floating &&
    equity &&
    compareDecimals(sumDecimals([balance, credit, floating]), equity) === 0
  ) {
    const t = report.totals;
    t.deposits ??= deposits;
    t.credit ??= credit;
    t.closedTradePL ??= closed;
    t.floatingPL ??= floating;
    t.margin ??= margin;
    t.balance ??= balance;
    t.equity ??= equity;
    t.freeMargin ??= freeMargin;
  }
  if (report.totals.closedTradePL === null)
    report.warnings.push(
      "The statement's own Closed Trade P/L was not found in its Summary, so the imported trades cannot be checked against it.",
    );
  return report;
}

/** A trade row by its shape: a ticket, an open time, and a close time when closed (none when open). */
function isTradeRow(col: Array<Cell | undefined>, closed: boolean): boolean {
  if (!/^\d+$/.test(col[COL.ticket]?.text ?? '') || mtTime(col[COL.openTime]?.text ?? '') === null) return false;
  if (col[COL.profit] === undefined || toDecimal(col[COL.profit]!.text) === null) return false;
  const close = col[COL.closeTime]?.text ?? '';
  return closed ? mtTime(close) !== null : close === '';
}

/** A balance/credit row by its shape: ticket, time, type, a wide comment cell, an amount; five cells at most. */
function isBalanceRow(col: Array<Cell | undefined>, cells: readonly Cell[]): boolean {
  return (
    cells.length <= 5 &&
    /^\d+$/.test(col[COL.ticket]?.text ?? '') &&
    mtTime(col[COL.openTime]?.text ?? '') !== null &&
    toDecimal(cells[cells.length - 1]!.text) !== null
  );
}

/** The `Closed P/L:` / `Floating P/L:` row: a label and one amount. */
function isLabelledTotal(cells: readonly Cell[]): boolean {
  const filled = cells.filter((c) => c.text !== '');
  return filled.length === 2 && filled[0]!.text.endsWith(':') && toDecimal(filled[1]!.text) !== null;
}

function readHeader(cells: readonly Cell[], report: ParsedReport): void {
  // By position where the labels are not English: account, name, currency, in this order.
  const values = cells.filter((c) => c.text.includes(':')).map((c) => c.text.slice(c.text.indexOf(':') + 1).trim());
  if (values[0] && /^\d+$/.test(values[0])) report.account.number = values[0];
  if (values[1]) report.account.name = values[1];
  if (values[2] && /^[A-Z]{3}$/.test(values[2])) report.account.currency = values[2];
  for (const c of cells) {
    const colon = c.text.indexOf(':');
    if (colon <= 0) continue;
    const label = c.text.slice(0, colon).trim().toLowerCase();
    const value = c.text.slice(colon + 1).trim();
    if (label === 'account') report.account.number = value || null;
    else if (label === 'name') report.account.name = value || null;
    else if (label === 'currency') report.account.currency = value || null;
    else if (label === 'leverage') report.account.leverage = leverageOf(value);
  }
}
