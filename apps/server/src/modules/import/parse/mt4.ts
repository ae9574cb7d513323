import { emptyReport, FieldReader, isPendingType, leverageOf } from './fields';
import { readHtmlRows, type Cell, type Row } from './html-rows';
import { toDecimal } from './text';
import { ReportError, type ParsedReport, type ParsedTrade } from './types';

/*
 * MT4 "Save as Report" / "Save as Detailed Report" statements (docs/reference/metatrader.md, MT4 statements). Rows are
 * told apart by their Type cell and read by column position (colspans counted), never by row index: trades (buy/sell),
 * balance/credit rows, pending orders removed before they filled (skipped with the reason), the detail rows some builds
 * write under a trade (magic number, comment: already in the ticket's title), totals and `Closed P/L:` rows.
 *
 * Working Orders are listed in `skipped` ("still pending — not a trade") so that the preview accounts for every row
 * of the file; Details statistics are ignored. A statement without its Summary was cut: TRUNCATED_FILE.
 */

type Section = 'closed' | 'open' | 'working' | 'summary' | 'details';

const SECTION_TITLES: Record<string, Section> = {
  'closed transactions:': 'closed',
  'open trades:': 'open',
  'working orders:': 'working',
  'summary:': 'summary',
  'details:': 'details',
};

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

  const trade = (row: Row, col: Array<Cell | undefined>, open: boolean): ParsedTrade => {
    const f = new FieldReader(`Line ${row.line}`);
    const cell = (i: number) => col[i]?.text ?? '';
    const ticket = cell(COL.ticket);
    if (!/^\d+$/.test(ticket)) f.fail('ticket', ticket, 'a ticket number');
    const { comment, magic } = commentAndMagic(col[COL.ticket]?.title ?? null);
    const closePrice = cell(COL.closePrice);
    return {
      row: row.line,
      ticket,
      symbol: cell(COL.item),
      side: f.side(cell(COL.type)),
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
    if (filledCount === 1 && firstFilled!.text.endsWith(':')) {
      const next = SECTION_TITLES[firstFilled!.text.toLowerCase()];
      if (next) {
        section = next;
        seen.add(next);
        return;
      }
    }
    if (section === null) {
      if (!headerRead && cells.some((c) => c.text.startsWith('Account:'))) {
        headerRead = true;
        readHeader(cells, report);
      }
      return;
    }
    if (filledCount === 0) return;
    // Without colspans a cell's index is its column: no copy needed.
    const col = cells[cells.length - 1]!.col === cells.length - 1 ? cells : byColumn(cells);
    const first = col[0]?.text ?? '';
    if (first === 'Ticket') return; // a section's column headers
    const type = (col[COL.type]?.text ?? '').toLowerCase();
    switch (section) {
      case 'closed': {
        if (type === 'buy' || type === 'sell') {
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
        } else if (isPendingType(type)) {
          const status = cells[cells.length - 1]!.text || 'removed';
          report.skipped.push({ row: row.line, reason: `${type} order ${first} ${status} — not a trade` });
        } else if (cells.some((c) => c.text === 'Closed P/L:')) {
          closedPL = toDecimal(cells[cells.length - 1]!.text);
        } else if (/^\d+$/.test(first) && type !== '') {
          report.skipped.push({ row: row.line, reason: `ticket ${first} has the type "${type}" — not a trade` });
        }
        // Else: a detail row (magic, comment: already read from the ticket's title) or the totals row.
        return;
      }
      case 'open':
        if (type === 'buy' || type === 'sell') report.openTrades.push(trade(row, col, true));
        else if (cells.some((c) => c.text === 'Floating P/L:')) floatingPL = toDecimal(cells[cells.length - 1]!.text);
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
  return report;
}

function readHeader(cells: readonly Cell[], report: ParsedReport): void {
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
