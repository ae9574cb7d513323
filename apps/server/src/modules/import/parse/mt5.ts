import { emptyReport, FieldReader, leverageOf } from './fields';
import type { Cell, Row } from './html-rows';
import { toDecimal } from './text';
import { ReportError, type ParsedReport, type ParsedTrade } from './types';

/*
 * MT5 Trade History Report (docs/reference/metatrader.md, MT5 HTML reports), from the HTML or the XLSX: both are turned
 * into the same rows of cells (html-rows.ts, xlsx.ts) and read here. Sections are found by their title row (a row with
 * one filled cell whose text is a known title, in English, French, Italian, German or Spanish); the row after a title
 * is its column header, mapped by header text (duplicate Time/Price by order) with the canonical column order as the
 * fallback for a language we do not know. Hidden cells are dropped before mapping (the hidden Positions comment is kept
 * as the trade's comment).
 *
 * - Positions → closedTrades, one per row (a netting reversal may print two rows with one position id: both kept).
 *   Fee: the Positions table has no Fee column in the layouts seen; where one is printed it goes to `taxes`, else
 *   '0' (exit deals cannot be tied to a hedging position, so the Deals Fee is not added).
 * - Deals: balance, credit and other non-trading rows → balanceOperations; trading deals are not read.
 * - Orders: canceled/expired/rejected orders → skipped with the reason; filled orders are the positions' own.
 * - Open Positions → openTrades; Working Orders → skipped ("still pending").
 * - The untitled summary block and Results → totals (Total Net Profit → closedTradePL).
 * A report without a Positions section (2011-era layout: Orders and Deals only) is refused (UNSUPPORTED_REPORT):
 * rebuilding hedged positions from Deals alone is guesswork (docs/reference/metatrader.md, Deals).
 */

type Section = 'positions' | 'orders' | 'deals' | 'open' | 'working' | 'results';

const SECTION_TITLES: Record<string, Section> = {};
const addTitles = (section: Section, ...titles: string[]) => {
  for (const t of titles) SECTION_TITLES[t] = section;
};
addTitles('positions', 'positions', 'posizioni', 'positionen', 'posiciones', 'posições');
addTitles('orders', 'orders', 'ordres', 'ordini', 'aufträge', 'órdenes', 'ordens');
addTitles('deals', 'deals', 'transactions', 'operazioni', 'affari', 'transacciones', 'negócios');
addTitles(
  'open',
  'open positions',
  'trade positions',
  'positions ouvertes',
  'posizioni aperte',
  'offene positionen',
  'posiciones abiertas',
  'posições abertas',
);
addTitles(
  'working',
  'working orders',
  'ordres en attente',
  'ordres en cours',
  'ordini in attesa',
  'ordini pendenti',
  'pending orders',
  'offene aufträge',
  'órdenes pendientes',
);
addTitles('results', 'results', 'résultats', 'risultati', 'ergebnisse', 'resultados');

type Field =
  | 'time'
  | 'position'
  | 'order'
  | 'deal'
  | 'symbol'
  | 'type'
  | 'direction'
  | 'volume'
  | 'price'
  | 'sl'
  | 'tp'
  | 'commission'
  | 'fee'
  | 'swap'
  | 'profit'
  | 'balance'
  | 'comment'
  | 'marketPrice'
  | 'state';

const HEADER_ALIASES: Record<string, Field> = {};
const addAliases = (field: Field, ...names: string[]) => {
  for (const n of names) HEADER_ALIASES[n] = field;
};
addAliases('time', 'time', 'open time', 'heure', "heure d'ouverture", 'ora', 'ora di apertura', 'zeit', 'hora');
addAliases('position', 'position', 'posizione', 'posición', 'posição');
addAliases('order', 'order', 'ordre', 'ordine', 'auftrag', 'orden', 'ordem');
addAliases('deal', 'deal', 'transaction', 'operazione', 'affare', 'transacción', 'negócio');
addAliases('symbol', 'symbol', 'symbole', 'simbolo', 'símbolo');
addAliases('type', 'type', 'tipo', 'typ');
addAliases('direction', 'direction', 'direzione', 'richtung', 'dirección', 'direção');
addAliases('volume', 'volume', 'volumen');
addAliases('price', 'price', 'prix', 'prezzo', 'preis', 'precio', 'preço');
addAliases('sl', 's / l', 's/l', 'sl');
addAliases('tp', 't / p', 't/p', 'tp');
addAliases(
  'commission',
  'commission',
  'commissions',
  'commissioni',
  'commissione',
  'kommission',
  'comisión',
  'comissão',
);
addAliases('fee', 'fee', 'frais', 'tariffa', 'gebühr', 'tarifa', 'taxa');
addAliases('swap', 'swap', 'swaps');
addAliases('profit', 'profit', 'profitto', 'bénéfice', 'gewinn', 'beneficio', 'lucro');
addAliases('balance', 'balance', 'solde', 'saldo', 'kontostand');
addAliases('comment', 'comment', 'commentaire', 'commento', 'kommentar', 'comentario', 'comentário');
addAliases('marketPrice', 'market price', 'prix du marché', 'prezzo di mercato', 'marktpreis', 'precio de mercado');
addAliases('state', 'state', 'état', 'stato', 'status', 'estado');

/** Columns in the canonical order of each section (English layout), for headers in a language we do not know. */
const CANONICAL: Record<Exclude<Section, 'results'>, Field[]> = {
  positions: [
    'time',
    'position',
    'symbol',
    'type',
    'volume',
    'price',
    'sl',
    'tp',
    'time',
    'price',
    'commission',
    'swap',
    'profit',
  ],
  orders: ['time', 'order', 'symbol', 'type', 'volume', 'price', 'sl', 'tp', 'time', 'state', 'comment'],
  deals: [
    'time',
    'deal',
    'symbol',
    'type',
    'direction',
    'volume',
    'price',
    'order',
    'commission',
    'fee',
    'swap',
    'profit',
    'balance',
    'comment',
  ],
  open: [
    'time',
    'position',
    'symbol',
    'type',
    'volume',
    'price',
    'sl',
    'tp',
    'marketPrice',
    'swap',
    'profit',
    'comment',
  ],
  working: ['time', 'order', 'symbol', 'type', 'volume', 'price', 'sl', 'tp', 'marketPrice', 'state', 'comment'],
};

const REQUIRED: Record<Exclude<Section, 'results'>, Field[]> = {
  positions: ['time', 'position', 'symbol', 'type', 'volume', 'price', 'profit'],
  orders: ['order', 'type'],
  deals: ['deal', 'type', 'profit'],
  open: ['time', 'position', 'symbol', 'type', 'volume', 'price'],
  working: ['order', 'type'],
};

/** A header's columns: each field (second Time/Price as closeTime/closePrice) and its column range. */
interface Column {
  key: string;
  start: number;
  end: number;
}

function mapHeader(cells: readonly Cell[], section: Exclude<Section, 'results'>): Column[] | null {
  const columns: Column[] = [];
  const count = new Map<Field, number>();
  let unknown = 0;
  for (const c of cells) {
    const field = HEADER_ALIASES[c.text.toLowerCase()];
    if (!field) {
      if (c.text !== '') unknown++;
      continue;
    }
    const n = (count.get(field) ?? 0) + 1;
    count.set(field, n);
    columns.push({ key: n === 1 ? field : `${field}${n}`, start: c.col, end: c.col + c.colspan });
  }
  if (REQUIRED[section].every((f) => count.has(f))) return columns;
  // Unknown language: the canonical order, when the header has as many filled cells.
  const named = cells.filter((c) => c.text !== '');
  const canonical = CANONICAL[section];
  if (named.length === canonical.length || (unknown > 0 && named.length === canonical.length)) {
    const seen = new Map<Field, number>();
    return named.map((c, i) => {
      const field = canonical[i]!;
      const n = (seen.get(field) ?? 0) + 1;
      seen.set(field, n);
      return { key: n === 1 ? field : `${field}${n}`, start: c.col, end: c.col + c.colspan };
    });
  }
  return null;
}

/** A data row's value of each header column (same order as `columns`). */
function valuesOf(cells: readonly Cell[], columns: readonly Column[]): string[] {
  const out: string[] = [];
  let i = 0;
  for (const column of columns) {
    // Cells and columns are both in column order.
    while (i < cells.length && cells[i]!.col + cells[i]!.colspan <= column.start) i++;
    let text = '';
    for (let j = i; j < cells.length && cells[j]!.col < column.end; j++) {
      if (cells[j]!.col >= column.start && cells[j]!.text !== '') {
        text = cells[j]!.text;
        break;
      }
      if (cells[j]!.col < column.start && cells[j]!.col + cells[j]!.colspan > column.start && cells[j]!.text !== '') {
        // A value cell spanning into the column (XLSX merges drawn differently from the header).
        text = cells[j]!.text;
        break;
      }
    }
    out.push(text);
  }
  return out;
}

/** Lookup by field key on a row's values; '' when the header has no such column. */
class Values {
  constructor(
    readonly texts: string[],
    private readonly keys: Record<string, number>,
  ) {}
  get(key: string): string | undefined {
    const i = this.keys[key];
    return i === undefined ? undefined : this.texts[i];
  }
}

const HEADER_LABELS: Record<string, 'name' | 'account' | 'company' | 'date'> = {
  name: 'name',
  nom: 'name',
  nome: 'name',
  nombre: 'name',
  account: 'account',
  compte: 'account',
  conto: 'account',
  konto: 'account',
  cuenta: 'account',
  company: 'company',
  broker: 'company',
  société: 'company',
  courtier: 'company',
  società: 'company',
  firma: 'company',
  compañía: 'company',
  empresa: 'company',
};

type TotalKey = keyof ParsedReport['totals'];
const TOTAL_LABELS: Record<string, TotalKey> = {};
const addTotals = (key: TotalKey, ...labels: string[]) => {
  for (const l of labels) TOTAL_LABELS[l] = key;
};
addTotals('balance', 'balance', 'solde', 'saldo', 'kontostand');
addTotals('equity', 'equity', 'fonds propres', 'capitaux propres', 'equità', 'patrimonio netto', 'kapital', 'capital');
addTotals('floatingPL', 'floating p/l', 'profit flottant', 'p/l flottant', 'profitto fluttuante', 'p/l fluttuante');
addTotals('credit', 'credit facility', 'facilité de crédit', 'crédit', 'credito', 'kredit', 'crédito');
addTotals('margin', 'margin', 'marge', 'margine', 'margen', 'margem');
addTotals('freeMargin', 'free margin', 'marge libre', 'margine libero', 'freie marge', 'margen libre', 'margem livre');
addTotals(
  'closedTradePL',
  'total net profit',
  'profit net total',
  'bénéfice net total',
  'profitto netto totale',
  'utile netto totale',
  'gesamtnettogewinn',
  'beneficio neto total',
);

/** `57174315 (USD, HFMarketsKE-Demo2, demo, Hedge)` → its parts, read by meaning. */
function readAccountLine(text: string, report: ParsedReport): void {
  const open = text.indexOf('(');
  const login = (open === -1 ? text : text.slice(0, open)).trim();
  report.account.number = login || null;
  if (open === -1) return;
  const close = text.lastIndexOf(')');
  const inside = text.slice(open + 1, close === -1 ? undefined : close);
  const rest: string[] = [];
  for (const raw of inside.split(',')) {
    const token = raw.trim();
    const lower = token.toLowerCase();
    if (token === '') continue;
    if (/^[A-Z]{3}$/.test(token)) report.account.currency = token;
    else if (leverageOf(token) && /^1\s*:/.test(token)) report.account.leverage = leverageOf(token);
    else if (lower.includes('hedg') || lower === 'couverture' || lower === 'copertura')
      report.account.marginMode = 'hedge';
    else if (lower.includes('netting') || lower === 'compensation' || lower === 'compensazione')
      report.account.marginMode = 'netting';
    else if (lower === 'demo' || lower === 'démo') report.account.mode = 'demo';
    else if (lower === 'contest' || lower === 'concours' || lower === 'gara') report.account.mode = 'demo';
    else if (lower === 'real' || lower === 'réel' || lower === 'reale' || lower === 'live')
      report.account.mode = 'live';
    else rest.push(token);
  }
  if (rest.length > 0) report.account.server = rest.join(', ');
}

const SECTION_NAMES: Record<Section, string> = {
  positions: 'Positions',
  orders: 'Orders',
  deals: 'Deals',
  open: 'Open Positions',
  working: 'Working Orders',
  results: 'Results',
};

export class Mt5Reader {
  readonly report: ParsedReport;
  private section: Section | null = null;
  private columns: Column[] | null = null;
  private keys: Record<string, number> = {};
  private expectHeader = false;
  private readonly seen: Section[] = [];
  private readonly totals = new Map<string, string>();
  private readonly header = new Map<string, string>();

  constructor(
    format: 'mt5-html' | 'mt5-xlsx',
    /** 'Line' (HTML) or 'Row' (XLSX). */
    private readonly unit: 'Line' | 'Row',
  ) {
    this.report = emptyReport(format);
  }

  row = (row: Row): void => {
    const comment = row.hiddenText;
    const cells = row.cells;
    let filledCount = 0;
    let firstFilled: Cell | undefined;
    for (const c of cells) {
      if (c.text === '') continue;
      filledCount++;
      firstFilled ??= c;
    }
    if (filledCount === 0) return;
    if (filledCount === 1) {
      const section = SECTION_TITLES[firstFilled!.text.toLowerCase()];
      if (section) {
        this.section = section;
        this.seen.push(section);
        this.columns = null;
        this.expectHeader = section !== 'results';
        return;
      }
    }
    if (firstFilled!.text.endsWith(':')) {
      this.labels(cells, this.section === null ? this.header : this.totals);
      return;
    }
    const section = this.section;
    if (section === null || section === 'results') return;
    if (this.expectHeader) {
      this.expectHeader = false;
      this.columns = mapHeader(cells, section);
      this.keys = Object.fromEntries((this.columns ?? []).map((c, i) => [c.key, i]));
      if (!this.columns)
        throw new ReportError(
          'UNSUPPORTED_REPORT',
          `${this.unit} ${row.line}: the columns of the "${SECTION_NAMES[section]}" section could not be read (${cells
            .map((c) => c.text)
            .filter(Boolean)
            .join(', ')}). Save the report with the terminal in English and try again.`,
        );
      return;
    }
    if (!this.columns) return;
    const v = new Values(valuesOf(cells, this.columns), this.keys);
    const f = new FieldReader(`${this.unit} ${row.line}`);
    switch (section) {
      case 'positions': {
        const id = v.get('position') ?? '';
        if (id === '') return; // a totals or spacer row
        if (!/^\d+$/.test(id)) f.fail('position', id, 'a position number');
        this.report.closedTrades.push(this.trade(f, row.line, id, v, comment, false));
        return;
      }
      case 'open': {
        const id = v.get('position') ?? '';
        if (id === '') return;
        if (!/^\d+$/.test(id)) f.fail('position', id, 'a position number');
        this.report.openTrades.push(this.trade(f, row.line, id, v, v.get('comment') || null, true));
        return;
      }
      case 'deals': {
        const deal = v.get('deal') ?? '';
        const type = (v.get('type') ?? '').toLowerCase();
        if (deal === '' || type === '' || type === 'buy' || type === 'sell') return;
        const c = v.get('comment') ?? '';
        this.report.balanceOperations.push({
          row: row.line,
          ticket: deal,
          time: f.time(v.get('time'), 'time'),
          type,
          amount: f.decimal(v.get('profit'), 'profit'),
          comment: c === '' ? null : c,
        });
        return;
      }
      case 'orders': {
        const order = v.get('order') ?? '';
        const state = (v.get('state') ?? '').toLowerCase();
        if (order === '') return;
        if (
          /^(canceled|cancelled|expired|rejected|annulé|scaduto|annullato|cancellato|expiré|rejeté|rifiutato)$/.test(
            state,
          )
        )
          this.report.skipped.push({
            row: row.line,
            reason: `${(v.get('type') ?? '').toLowerCase()} order ${order} ${state} — not a trade`,
          });
        return;
      }
      case 'working': {
        const order = v.get('order') ?? '';
        if (order === '') return;
        this.report.skipped.push({
          row: row.line,
          reason: `${(v.get('type') ?? '').toLowerCase()} order ${order} is still pending (Working Orders) — not a trade`,
        });
        return;
      }
    }
  };

  private labels(cells: readonly Cell[], into: Map<string, string>): void {
    for (let i = 0; i < cells.length; i++) {
      const text = cells[i]!.text;
      if (!text.endsWith(':')) continue;
      let j = i + 1;
      while (j < cells.length && cells[j]!.text === '') j++;
      if (j < cells.length && !cells[j]!.text.endsWith(':'))
        into.set(text.slice(0, -1).trim().toLowerCase(), cells[j]!.text);
    }
  }

  private trade(
    f: FieldReader,
    line: number,
    id: string,
    v: Values,
    comment: string | null,
    open: boolean,
  ): ParsedTrade {
    const closePrice = open ? (v.get('marketPrice') ?? '') : (v.get('price2') ?? '');
    return {
      row: line,
      ticket: id,
      symbol: v.get('symbol') ?? '',
      side: f.side(v.get('type')),
      lots: f.lots(v.get('volume')),
      openTime: f.time(v.get('time'), 'open time'),
      closeTime: open ? null : f.time(v.get('time2'), 'close time'),
      openPrice: f.decimal(v.get('price'), 'open price'),
      closePrice: closePrice === '' ? null : f.decimal(closePrice, open ? 'market price' : 'close price'),
      sl: f.level(v.get('sl'), 'S / L'),
      tp: f.level(v.get('tp'), 'T / P'),
      commission: f.money(v.get('commission'), 'commission'),
      taxes: f.money(v.get('fee'), 'fee'),
      swap: f.money(v.get('swap'), 'swap'),
      profit: f.decimal(v.get('profit'), 'profit'),
      comment: comment === '' ? null : comment,
      magic: null,
    };
  }

  /** After the last row: the header, the totals, and a clear refusal when the report has no Positions. */
  finish(): ParsedReport {
    const report = this.report;
    if (!this.seen.includes('positions')) {
      if (this.seen.includes('deals') || this.seen.includes('orders'))
        throw new ReportError(
          'UNSUPPORTED_REPORT',
          'This MetaTrader 5 report has no "Positions" section (the layout of old terminal builds: only Orders and Deals), so its closed trades cannot be read reliably. Update the terminal, then save the report again from Toolbox → History (right-click → Report).',
        );
      throw new ReportError(
        'UNSUPPORTED_REPORT',
        `No "Positions" section was found in this MetaTrader 5 report (looked for a section titled Positions, Posizioni, Positionen or Posiciones${
          this.seen.length
            ? `; found ${this.seen.map((s) => SECTION_NAMES[s]).join(', ')}`
            : '; found no section at all'
        }). Save the report from Toolbox → History (right-click → Report) with the terminal in English and try again.`,
      );
    }
    for (const [label, value] of this.header) {
      const key = HEADER_LABELS[label];
      if (key === 'name') report.account.name = value || null;
      else if (key === 'company') report.account.broker = value || null;
      else if (key === 'account') readAccountLine(value, report);
    }
    for (const [label, value] of this.totals) {
      const key = TOTAL_LABELS[label];
      if (key && report.totals[key] === null) report.totals[key] = toDecimal(value);
    }
    return report;
  }
}
