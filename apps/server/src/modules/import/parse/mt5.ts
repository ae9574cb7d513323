import { compareDecimals, signOf, subtractDecimals, sumDecimals } from '../../../domain/decimal';
import { emptyReport, FieldReader, leverageOf } from './fields';
import type { Cell, Row } from './html-rows';
import { mtTime, toDecimal } from './text';
import { ReportError, type ParsedReport, type ParsedTrade } from './types';

/*
 * MT5 Trade History Report (docs/reference/metatrader.md, MT5 HTML reports), from the HTML or the XLSX: both are turned
 * into the same rows of cells (html-rows.ts, xlsx.ts) and read here, by the report's structure, whatever the terminal's
 * language (docs/reference/metatrader.md, Reading a report in any language):
 *
 * - a section starts at a row with one filled cell that is no value and no `Label:`, followed by a header row (only
 *   words, at least eight cells); a title row without a header row closes the tables (the Results block);
 * - the tables come in a fixed order (Positions, Orders, Deals, Open Positions, Working Orders) and each known layout
 *   has its own number of columns, in a fixed order: a header is the first table of the remaining order whose layout
 *   has as many columns, and its columns are read by position. Known titles and header words only cross-check;
 *   a header word we do not know becomes a warning saying what the column was read as;
 * - buy/sell words we do not know are told from the row's prices (the profit's sign against close − open);
 * - the summary block and Results are read by position where their own sums check out (Equity = Balance + Credit +
 *   Floating P/L; Gross Profit + Gross Loss = Total Net Profit), else by known labels.
 *
 * - Positions → closedTrades, one per row (a netting reversal may print two rows with one position id: both kept).
 *   Fee: where a Positions layout prints one it goes to `taxes`, else '0'.
 * - Deals: rows without symbol and volume (balance, credit, other non-trading) → balanceOperations; trading deals are
 *   summed (report.deals) so that a difference between the report's total and the closed trades can be explained.
 * - Orders: orders that filled nothing (`requested / 0`) → skipped with the reason; filled orders are the positions'.
 * - Open Positions → openTrades; Working Orders → skipped ("still pending").
 * A report without a Positions table (2011-era layout: Orders and Deals only) is refused (UNSUPPORTED_REPORT):
 * rebuilding hedged positions from Deals alone is guesswork (docs/reference/metatrader.md, Deals).
 */

type Section = 'positions' | 'orders' | 'deals' | 'open' | 'working';
const TABLE_ORDER: readonly Section[] = ['positions', 'orders', 'deals', 'open', 'working'];

/** Known titles (a cross-check only: any title is read by the table's place and width). */
const SECTION_TITLES: Record<string, Section | 'results'> = {};
const addTitles = (section: Section | 'results', ...titles: string[]) => {
  for (const t of titles) SECTION_TITLES[t] = section;
};
addTitles(
  'positions',
  'positions',
  'posizioni',
  'positionen',
  'posiciones',
  'posições',
  'ポジション',
  '持仓',
  '仓位',
  'позиции',
);
addTitles('orders', 'orders', 'ordres', 'ordini', 'aufträge', 'órdenes', 'ordens', '注文', '订单', 'ордера');
addTitles(
  'deals',
  'deals',
  'transactions',
  'operazioni',
  'affari',
  'transacciones',
  'negócios',
  'trades',
  '約定',
  '成交',
  '交易',
  'сделки',
);
addTitles(
  'open',
  'open positions',
  'trade positions',
  'positions ouvertes',
  'posizioni aperte',
  'offene positionen',
  'posiciones abiertas',
  'posições abertas',
  'オープンポジション',
  '未平仓',
  'открытые позиции',
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
  '待機注文',
  '挂单',
  'отложенные ордера',
);
addTitles('results', 'results', 'résultats', 'risultati', 'ergebnisse', 'resultados', '結果', '结果', 'результаты');

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

/** Header words the terminal prints, by field: a cross-check of the column read by position. */
const HEADER_ALIASES: Record<string, Field> = {};
const addAliases = (field: Field, ...names: string[]) => {
  for (const n of names) HEADER_ALIASES[n] = field;
};
addAliases(
  'time',
  'time',
  'open time',
  'heure',
  "heure d'ouverture",
  'ora',
  'ora di apertura',
  'zeit',
  'eröffnungszeit',
  'hora',
  'hora de apertura',
  '時間',
  '時刻',
  'オープン時刻',
  '时间',
  '开仓时间',
  'время',
  'время открытия',
);
addAliases('position', 'position', 'posizione', 'posición', 'posição', 'ポジション', '持仓', 'позиция');
addAliases('order', 'order', 'ordre', 'ordine', 'auftrag', 'orden', 'ordem', '注文', '订单', 'ордер');
addAliases('deal', 'deal', 'transaction', 'operazione', 'affare', 'transacción', 'negócio', '約定', '成交', 'сделка');
addAliases('symbol', 'symbol', 'symbole', 'simbolo', 'símbolo', '銘柄', '交易品种', 'символ');
addAliases('type', 'type', 'tipo', 'typ', 'タイプ', '类型', 'тип');
addAliases('direction', 'direction', 'direzione', 'richtung', 'dirección', 'direção', '方向', 'направление');
addAliases('volume', 'volume', 'volumen', '数量', '取引量', '交易量', 'объем', 'объём');
addAliases('price', 'price', 'prix', 'prezzo', 'preis', 'precio', 'preço', '価格', '价格', 'цена');
addAliases('sl', 's / l', 's/l', 'sl');
addAliases('tp', 't / p', 't/p', 'tp');
addAliases(
  'commission',
  'commission',
  'commissions',
  'commissioni',
  'commissione',
  'kommission',
  'provision',
  'comisión',
  'comissão',
  '手数料',
  '手续费',
  '佣金',
  'комиссия',
);
addAliases('fee', 'fee', 'frais', 'tariffa', 'gebühr', 'gebühren', 'tarifa', 'taxa', '料金', '费用', 'сбор');
addAliases('swap', 'swap', 'swaps', 'echange', 'échange', 'スワップ', '库存费', '隔夜利息', 'своп');
addAliases(
  'profit',
  'profit',
  'profitto',
  'bénéfice',
  'gewinn',
  'beneficio',
  'lucro',
  '損益',
  '利润',
  '盈利',
  'прибыль',
);
addAliases('balance', 'balance', 'solde', 'saldo', 'kontostand', '残高', '余额', 'баланс');
addAliases(
  'comment',
  'comment',
  'commentaire',
  'commento',
  'kommentar',
  'comentario',
  'comentário',
  'コメント',
  '注释',
  'комментарий',
);
addAliases(
  'marketPrice',
  'market price',
  'prix du marché',
  'prezzo di mercato',
  'marktpreis',
  'precio de mercado',
  '市場価格',
  '市场价格',
  'рыночная цена',
);
addAliases('state', 'state', 'état', 'stato', 'status', 'estado', '状態', '状态', 'состояние');

/** Each table's known layouts: the columns in the order the terminal prints them (docs/reference/metatrader.md). */
const POSITIONS = ['time', 'position', 'symbol', 'type', 'volume', 'price', 'sl', 'tp', 'time', 'price'] as const;
const LAYOUTS: Record<Section, ReadonlyArray<readonly Field[]>> = {
  positions: [
    [...POSITIONS, 'commission', 'swap', 'profit'],
    [...POSITIONS, 'commission', 'fee', 'swap', 'profit'],
  ],
  orders: [['time', 'order', 'symbol', 'type', 'volume', 'price', 'sl', 'tp', 'time', 'state', 'comment']],
  deals: [
    [
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
    [
      'time',
      'deal',
      'symbol',
      'type',
      'direction',
      'volume',
      'price',
      'order',
      'commission',
      'swap',
      'profit',
      'balance',
      'comment',
    ],
  ],
  open: [
    ['time', 'position', 'symbol', 'type', 'volume', 'price', 'sl', 'tp', 'marketPrice', 'swap', 'profit', 'comment'],
  ],
  working: [['time', 'order', 'symbol', 'type', 'volume', 'price', 'sl', 'tp', 'marketPrice', 'state', 'comment']],
};

const REQUIRED: Record<Section, Field[]> = {
  positions: ['time', 'position', 'symbol', 'type', 'volume', 'price', 'profit'],
  orders: ['order', 'type'],
  deals: ['deal', 'type', 'profit'],
  open: ['time', 'position', 'symbol', 'type', 'volume', 'price'],
  working: ['order', 'type'],
};

const SECTION_NAMES: Record<Section, string> = {
  positions: 'Positions',
  orders: 'Orders',
  deals: 'Deals',
  open: 'Open Positions',
  working: 'Working Orders',
};

/** How a column is named to a trader in a warning. */
const FIELD_NAMES: Record<string, string> = {
  time: 'time',
  time2: 'close time',
  position: 'position',
  order: 'order',
  deal: 'deal',
  symbol: 'symbol',
  type: 'type',
  direction: 'direction',
  volume: 'volume',
  price: 'price',
  price2: 'close price',
  sl: 'S / L',
  tp: 'T / P',
  commission: 'commission',
  fee: 'fee',
  swap: 'swap',
  profit: 'profit',
  balance: 'balance',
  comment: 'comment',
  marketPrice: 'market price',
  state: 'state',
};

/** Buy/sell as terminals print them; any other word is told from the row's prices. */
const SIDE_WORDS: Record<string, 'buy' | 'sell'> = {};
for (const w of ['buy', 'achat', 'acquisto', 'kauf', 'compra', '買い', '买入', '买', 'покупка']) SIDE_WORDS[w] = 'buy';
for (const w of ['sell', 'vente', 'vendita', 'verkauf', 'venta', 'venda', '売り', '卖出', '卖', 'продажа'])
  SIDE_WORDS[w] = 'sell';

/** Non-trading deal types we know by name (else kept as printed). */
const OPERATION_WORDS: Record<string, string> = {};
for (const w of ['balance', 'solde', 'saldo', 'kontostand', '残高', '余额', 'баланс']) OPERATION_WORDS[w] = 'balance';
for (const w of ['credit', 'crédit', 'credito', 'kredit', 'crédito', 'クレジット', '信用', 'кредит'])
  OPERATION_WORDS[w] = 'credit';

/** A header's columns: each field (second Time/Price as time2/price2) and its column range. */
interface Column {
  key: string;
  start: number;
  end: number;
}

const keyed = (fields: readonly Field[]): string[] => {
  const seen = new Map<Field, number>();
  return fields.map((f) => {
    const n = (seen.get(f) ?? 0) + 1;
    seen.set(f, n);
    return n === 1 ? f : `${f}${n}`;
  });
};

/** '0', '0.00', '-0.00'. */
const ZERO = /^-?0(\.0*)?$/;
const isTime = (text: string) => mtTime(text) !== null;
const isNumber = (text: string) => toDecimal(text) !== null;
const isLabel = (text: string) => text.endsWith(':') || text.endsWith('：');

/** A header row: only words (no time, no number), at least eight of them. */
function isHeaderRow(filled: readonly Cell[]): boolean {
  return filled.length >= 8 && filled.every((c) => !isNumber(c.text) && !isTime(c.text) && !isLabel(c.text));
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

/** The columns of a table's header: by name when every word is known, else by the position of a known layout. */
function mapHeader(
  named: readonly Cell[],
  section: Section,
  where: string,
): { columns: Column[]; warning: string | null } | null {
  const table = SECTION_NAMES[section];
  const fields = named.map((c) => HEADER_ALIASES[c.text.toLowerCase()]);
  const byName = (): Column[] => {
    const keys = keyed(fields.filter((f): f is Field => f !== undefined));
    let k = 0;
    const out: Column[] = [];
    named.forEach((c, i) => {
      if (fields[i] !== undefined) out.push({ key: keys[k++]!, start: c.col, end: c.col + c.colspan });
    });
    return out;
  };
  const hasRequired = REQUIRED[section].every((f) => fields.includes(f));
  if (hasRequired && fields.every((f) => f !== undefined)) return { columns: byName(), warning: null };
  const layout = LAYOUTS[section].find((l) => l.length === named.length);
  if (layout) {
    const keys = keyed(layout);
    const notes: string[] = [];
    named.forEach((c, i) => {
      if (fields[i] !== layout[i]) notes.push(`"${c.text}" as ${FIELD_NAMES[keys[i]!]}`);
    });
    return {
      columns: named.map((c, i) => ({ key: keys[i]!, start: c.col, end: c.col + c.colspan })),
      warning: notes.length
        ? `${where}: in the ${table} table, ${notes.length === 1 ? 'the column' : 'the columns'} ${notes.join(', ')} ${notes.length === 1 ? 'was' : 'were'} not recognised by name and read by ${notes.length === 1 ? 'its' : 'their'} position in the terminal's layout. Check the imported values.`
        : null,
    };
  }
  if (!hasRequired) return null;
  const unknown = named.filter((_, i) => fields[i] === undefined).map((c) => `"${c.text}"`);
  return {
    columns: byName(),
    warning: unknown.length
      ? `${where}: in the ${table} table, ${unknown.length === 1 ? 'the column' : 'the columns'} ${unknown.join(', ')} ${unknown.length === 1 ? 'was' : 'were'} not recognised and not imported.`
      : null,
  };
}

type HeaderKey = 'name' | 'account' | 'company' | 'date';
const HEADER_LABELS: Record<string, HeaderKey> = {};
const addHeaderLabels = (key: HeaderKey, ...labels: string[]) => {
  for (const l of labels) HEADER_LABELS[l] = key;
};
addHeaderLabels('name', 'name', 'nom', 'nome', 'nombre', '名前', '名称', 'имя');
addHeaderLabels('account', 'account', 'compte', 'conto', 'konto', 'cuenta', 'conta', '口座', '账户', 'счет', 'счёт');
addHeaderLabels(
  'company',
  'company',
  'broker',
  'société',
  'courtier',
  'società',
  'firma',
  'unternehmen',
  'compañía',
  'empresa',
  '会社',
  '公司',
  'компания',
);

type TotalKey = keyof ParsedReport['totals'];
const TOTAL_LABELS: Record<string, TotalKey> = {};
const addTotals = (key: TotalKey, ...labels: string[]) => {
  for (const l of labels) TOTAL_LABELS[l] = key;
};
addTotals('balance', 'balance', 'solde', 'saldo', 'kontostand', '残高', '余额', 'баланс');
addTotals(
  'equity',
  'equity',
  'fonds propres',
  'capitaux propres',
  'equità',
  'patrimonio netto',
  'kapital',
  'capital',
  '有効証拠金',
  '净值',
  'средства',
);
addTotals(
  'floatingPL',
  'floating p/l',
  'profit flottant',
  'p/l flottant',
  'profitto fluttuante',
  'p/l fluttuante',
  'schwebender g/v',
  'beneficio flotante',
  '評価損益',
  '浮动盈亏',
  'плавающая прибыль/убыток',
);
addTotals(
  'credit',
  'credit facility',
  'facilité de crédit',
  'crédit',
  'credito',
  'kredit',
  'crédito',
  'クレジット',
  '信用',
  'кредит',
);
addTotals('margin', 'margin', 'marge', 'margine', 'margen', 'margem', '証拠金', '预付款', 'маржа');
addTotals(
  'freeMargin',
  'free margin',
  'marge libre',
  'margine libero',
  'freie marge',
  'margen libre',
  'margem livre',
  '余剰証拠金',
  '可用预付款',
  'свободная маржа',
);
addTotals(
  'closedTradePL',
  'total net profit',
  'profit net total',
  'profit total net',
  'bénéfice net total',
  'profitto netto totale',
  'utile netto totale',
  'gesamtnettogewinn',
  'beneficio neto total',
  '総損益',
  '总净盈利',
  'чистая прибыль',
);

const HEDGE = new Set(['couverture', 'copertura', 'cobertura', 'ヘッジ', '对冲', 'хеджинг']);
const NETTING = new Set(['compensation', 'compensazione', 'compensación', 'ネッティング', '净额结算', 'неттинг']);
const DEMO = new Set(['demo', 'démo', 'contest', 'concours', 'gara', 'デモ', '模拟', 'демо', 'конкурс']);
const LIVE = new Set(['real', 'réel', 'reale', 'live', 'echt', 'リアル', '真实', 'реальный']);

/** `57174315 (USD, HFMarketsKE-Demo2, demo, Hedge)` → its parts, read by meaning. */
function readAccountLine(text: string, report: ParsedReport): void {
  const open = text.indexOf('(');
  const login = (open === -1 ? text : text.slice(0, open)).trim();
  report.account.number = login || null;
  if (open === -1) return;
  const close = text.lastIndexOf(')');
  const inside = text.slice(open + 1, close === -1 ? undefined : close);
  const rest: string[] = [];
  for (const raw of inside.split(/[,，、]/)) {
    const token = raw.trim();
    const lower = token.toLowerCase();
    if (token === '') continue;
    if (/^[A-Z]{3}$/.test(token)) report.account.currency = token;
    else if (leverageOf(token) && /^1\s*:/.test(token)) report.account.leverage = leverageOf(token);
    else if (lower.includes('hedg') || HEDGE.has(lower)) report.account.marginMode = 'hedge';
    else if (lower.includes('netting') || NETTING.has(lower)) report.account.marginMode = 'netting';
    else if (DEMO.has(lower)) report.account.mode = 'demo';
    else if (LIVE.has(lower)) report.account.mode = 'live';
    else rest.push(token);
  }
  if (rest.length > 0) report.account.server = rest.join(', ');
}

interface LabelRow {
  labels: string[];
  values: string[];
}

/** `Label: value` pairs of a row: a label cell ends in ':' and the next filled cell that is no label holds its value. */
function labelRow(cells: readonly Cell[]): LabelRow {
  const out: LabelRow = { labels: [], values: [] };
  for (let i = 0; i < cells.length; i++) {
    const text = cells[i]!.text;
    if (!isLabel(text)) continue;
    let j = i + 1;
    while (j < cells.length && cells[j]!.text === '') j++;
    out.labels.push(text.slice(0, -1).trim().toLowerCase());
    out.values.push(j < cells.length && !isLabel(cells[j]!.text) ? cells[j]!.text : '');
  }
  return out;
}

/** A money value (no percentage, no `count (pct%)`), as a decimal; null otherwise. */
const moneyOf = (text: string): string | null => (text.includes('%') || text.includes('(') ? null : toDecimal(text));
const same = (a: string, b: string) => compareDecimals(a, b) === 0;

/** Decimals summed in blocks: a report may hold tens of thousands of deals. */
class Sum {
  private parts: string[] = [];
  add(...values: string[]): void {
    for (const v of values) this.parts.push(v);
    if (this.parts.length >= 4096) this.parts = [sumDecimals(this.parts)];
  }
  get total(): string {
    return sumDecimals(this.parts.length ? this.parts : ['0']);
  }
}

export class Mt5Reader {
  readonly report: ParsedReport;
  private section: Section | null = null;
  private columns: Column[] | null = null;
  private keys: Record<string, number> = {};
  /** Text of a title row whose next row decides whether it opens a table. */
  private pendingTitle: string | null = null;
  /** Index in TABLE_ORDER of the next table that may come. */
  private nextTable = 0;
  private readonly seen: Section[] = [];
  private inResults = false;
  private readonly headerRows: LabelRow[] = [];
  private readonly summaryRows: LabelRow[] = [];
  private readonly resultRows: LabelRow[] = [];
  private readonly dealTotal = new Sum();
  private dealCount = 0;
  /** Commission + fee of the first deal of each order (an entry deal's order is its position's id). */
  private readonly orderCharges = new Map<string, { row: number; deal: string; amount: string }>();
  /** Side words told from prices, and trades whose word could not be told yet. */
  private readonly learnedSides = new Map<string, 'buy' | 'sell'>();
  private readonly undecided: Array<{ trade: ParsedTrade; word: string; where: string }> = [];

  constructor(
    format: 'mt5-html' | 'mt5-xlsx',
    /** 'Line' (HTML) or 'Row' (XLSX). */
    private readonly unit: 'Line' | 'Row',
  ) {
    this.report = emptyReport(format);
  }

  row = (row: Row): void => {
    const cells = row.cells;
    let filledCount = 0;
    let first: Cell | undefined;
    for (const c of cells) {
      if (c.text === '') continue;
      filledCount++;
      first ??= c;
    }
    if (filledCount === 0) return;
    if (this.pendingTitle !== null) {
      const title = this.pendingTitle;
      this.pendingTitle = null;
      const filled = cells.filter((c) => c.text !== '');
      if (isHeaderRow(filled)) {
        this.openTable(title, filled, row.line);
        return;
      }
      // A title without a header row after the tables: the Results block.
      if (this.seen.length > 0) this.inResults = true;
    }
    const text = first!.text;
    if (filledCount === 1 && !isLabel(text) && !isNumber(text) && !isTime(text)) {
      this.pendingTitle = text;
      this.section = null;
      this.columns = null;
      return;
    }
    if (isLabel(text)) {
      const labels = labelRow(cells);
      if (this.seen.length === 0) this.headerRows.push(labels);
      else (this.inResults ? this.resultRows : this.summaryRows).push(labels);
      return;
    }
    if (this.section === null || this.columns === null) return;
    this.data(row, new Values(valuesOf(cells, this.columns), this.keys));
  };

  private openTable(title: string, named: readonly Cell[], line: number): void {
    const where = `${this.unit} ${line}`;
    const known = SECTION_TITLES[title.toLowerCase()];
    let section: Section | undefined;
    if (known && known !== 'results' && TABLE_ORDER.indexOf(known) >= this.nextTable) section = known;
    for (let i = this.nextTable; !section && i < TABLE_ORDER.length; i++)
      if (LAYOUTS[TABLE_ORDER[i]!].some((l) => l.length === named.length)) section = TABLE_ORDER[i];
    const mapped = section ? mapHeader(named, section, where) : null;
    if (!section || !mapped) {
      if (section === 'positions' || known === 'positions')
        throw new ReportError(
          'UNSUPPORTED_REPORT',
          `${where}: the columns of the "Positions" table could not be read (${named.map((c) => c.text).join(', ')}): neither a known layout nor known column names. Save the report again from Toolbox → History (right-click → Report) and try again.`,
        );
      this.report.warnings.push(
        `${where}: a table titled "${title}" with ${named.length} columns is not one of the report's known tables; its rows were not imported.`,
      );
      return;
    }
    if (mapped.warning) this.report.warnings.push(mapped.warning);
    this.section = section;
    this.seen.push(section);
    this.nextTable = TABLE_ORDER.indexOf(section) + 1;
    this.columns = mapped.columns;
    this.keys = Object.fromEntries(mapped.columns.map((c, i) => [c.key, i]));
  }

  private data(row: Row, v: Values): void {
    const f = new FieldReader(`${this.unit} ${row.line}`);
    switch (this.section) {
      case 'positions': {
        const id = v.get('position') ?? '';
        if (id === '') return; // a totals or spacer row
        if (!/^\d+$/.test(id)) f.fail('position', id, 'a position number');
        this.report.closedTrades.push(this.trade(f, row.line, id, v, row.hiddenText, false));
        return;
      }
      case 'open': {
        const id = v.get('position') ?? '';
        if (id === '') return;
        if (!/^\d+$/.test(id)) f.fail('position', id, 'a position number');
        this.report.openTrades.push(this.trade(f, row.line, id, v, v.get('comment') || null, true));
        return;
      }
      case 'deals':
        this.deal(f, row.line, v);
        return;
      case 'orders': {
        const order = v.get('order') ?? '';
        if (order === '') return;
        const state = (v.get('state') ?? '').toLowerCase();
        const volume = v.get('volume') ?? '';
        const slash = volume.indexOf('/');
        // `requested / filled`: nothing filled, no position (canceled, expired, rejected: in any language).
        const unfilled =
          slash === -1
            ? /^(canceled|cancelled|expired|rejected|annulé|scaduto|annullato|cancellato|expiré|rejeté|rifiutato)$/.test(
                state,
              )
            : signOf(toDecimal(volume.slice(slash + 1).trim()) ?? '1') === 0;
        if (unfilled)
          this.report.skipped.push({
            row: row.line,
            reason: `${(v.get('type') ?? '').toLowerCase()} order ${order} ${state || 'not filled'} — not a trade`,
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
  }

  /** A Deals row: a non-trading operation (no symbol, no volume), or a trading deal summed for the totals check. */
  private deal(f: FieldReader, line: number, v: Values): void {
    const deal = v.get('deal') ?? '';
    if (deal === '') return; // the totals row
    if ((v.get('symbol') ?? '') === '' && (v.get('volume') ?? '') === '') {
      const printed = (v.get('type') ?? '').toLowerCase();
      const c = v.get('comment') ?? '';
      this.report.balanceOperations.push({
        row: line,
        ticket: deal,
        time: f.time(v.get('time'), 'time'),
        type: OPERATION_WORDS[printed] ?? printed,
        amount: f.decimal(v.get('profit'), 'profit'),
        comment: c === '' ? null : c,
      });
      return;
    }
    const commission = f.money(v.get('commission'), 'commission');
    const fee = f.money(v.get('fee'), 'fee');
    this.dealTotal.add(commission, fee, f.money(v.get('swap'), 'swap'), f.money(v.get('profit'), 'profit'));
    this.dealCount++;
    const order = v.get('order') ?? '';
    if (order !== '' && !this.orderCharges.has(order)) {
      const amount = ZERO.test(fee) ? commission : sumDecimals([commission, fee]);
      if (!ZERO.test(amount)) this.orderCharges.set(order, { row: line, deal, amount });
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
    const trade: ParsedTrade = {
      row: line,
      ticket: id,
      symbol: v.get('symbol') ?? '',
      side: 'buy',
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
      profit: open ? f.money(v.get('profit'), 'profit') : f.decimal(v.get('profit'), 'profit'),
      comment: comment === '' ? null : comment,
      magic: null,
    };
    const word = (v.get('type') ?? '').trim().toLowerCase();
    if (word === '') f.fail('type', '', 'buy or sell');
    const side = SIDE_WORDS[word] ?? this.learnedSides.get(word) ?? this.sideFromPrices(word, trade);
    if (side) trade.side = side;
    else this.undecided.push({ trade, word, where: f.where });
    return trade;
  }

  /**
   * A side word we do not know, told from the row: the profit is the price move times the direction, so a profit
   * with the same sign as close − open is a buy, with the opposite sign a sell. Learned for the report's other rows.
   */
  private sideFromPrices(word: string, t: ParsedTrade): 'buy' | 'sell' | null {
    if (t.closePrice === null) return null;
    const move = signOf(subtractDecimals(t.closePrice, t.openPrice));
    const sign = signOf(t.profit);
    if (move === 0 || sign === 0) return null;
    const side = move === sign ? 'buy' : 'sell';
    this.learnedSides.set(word, side);
    this.report.warnings.push(
      `The trade type "${word}" is not a word PipSense knows: trades of that type were read as ${side}, from their prices (the profit's sign against the move from open to close price). Check the sides in the preview.`,
    );
    return side;
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
        `No "Positions" section was found in this MetaTrader 5 report (looked for the first table whose header row has 13 or 14 columns${
          this.seen.length
            ? `; found ${this.seen.map((s) => SECTION_NAMES[s]).join(', ')}`
            : '; found no section at all'
        }). Save the report from Toolbox → History (right-click → Report) and try again.`,
      );
    }
    this.resolveSides();
    this.readHeader();
    this.readTotals();
    if (this.dealCount > 0) {
      const openEntries = [];
      for (const t of report.openTrades) {
        const entry = this.orderCharges.get(t.ticket);
        if (entry) openEntries.push({ ...entry, position: t.ticket });
      }
      report.deals = { total: this.dealTotal.total, openEntries };
    }
    return report;
  }

  private resolveSides(): void {
    for (const u of this.undecided) {
      let side = this.learnedSides.get(u.word);
      if (!side) {
        // Two words in the report, one of them known: the other is the other side.
        const words = new Set(this.undecided.map((x) => x.word));
        const known = [...this.report.closedTrades, ...this.report.openTrades].find(
          (t) => !this.undecided.some((x) => x.trade === t),
        );
        if (words.size === 1 && known) side = known.side === 'buy' ? 'sell' : 'buy';
      }
      if (!side)
        throw new ReportError(
          'BAD_ROW',
          `${u.where}: the type "${u.word}" is not buy or sell in a language PipSense knows, and the row's prices cannot tell (no profit or no price move). Save the report with the terminal in English and try again.`,
        );
      u.trade.side = side;
    }
  }

  private readHeader(): void {
    const account = this.report.account;
    const rows = this.headerRows;
    let accountAt = -1;
    rows.forEach((r, i) =>
      r.labels.forEach((label, j) => {
        const key = HEADER_LABELS[label];
        const value = r.values[j]!;
        if (key === 'name') account.name = value || null;
        else if (key === 'company') account.broker = value || null;
        else if (key === 'account') {
          readAccountLine(value, this.report);
          accountAt = i;
        }
      }),
    );
    // By position: the account line by its shape (`LOGIN (…)`), the name before it, the company after it.
    if (accountAt === -1) accountAt = rows.findIndex((r) => /^\d+\s*\(/.test(r.values[0] ?? ''));
    if (accountAt === -1) return;
    if (account.number === null) readAccountLine(rows[accountAt]!.values[0]!, this.report);
    if (account.name === null && accountAt > 0) account.name = rows[accountAt - 1]!.values[0] || null;
    const after = rows[accountAt + 1]?.values[0] ?? '';
    if (account.broker === null && after !== '' && !isTime(after)) account.broker = after;
  }

  private readTotals(): void {
    const totals = this.report.totals;
    for (const r of [...this.summaryRows, ...this.resultRows])
      r.labels.forEach((label, j) => {
        const key = TOTAL_LABELS[label];
        if (key && totals[key] === null) totals[key] = toDecimal(r.values[j]!);
      });
    // The summary block by position (Balance, Free Margin / Credit, Margin / Floating P/L, Margin Level / Equity),
    // taken where its own sum holds: Equity = Balance + Credit + Floating P/L.
    const s = this.summaryRows.map((r) => r.values.map((v) => moneyOf(v)));
    const at = (r: number, c: number) => s[r]?.[c] ?? null;
    const [balance, freeMargin, credit, margin, floating, equity] = [
      at(0, 0),
      at(0, 1),
      at(1, 0),
      at(1, 1),
      at(2, 0),
      at(3, 0),
    ];
    if (balance && credit && floating && equity && same(sumDecimals([balance, credit, floating]), equity)) {
      const byPosition = { balance, freeMargin, credit, margin, floatingPL: floating, equity };
      for (const [key, value] of Object.entries(byPosition) as Array<[TotalKey, string | null]>)
        if (value !== null) totals[key] = value;
    }
    // Results: the first row holding Total Net Profit, Gross Profit, Gross Loss side by side, taken where
    // Gross Profit + Gross Loss = Total Net Profit; the label's value only when no row checks out.
    const labelled = totals.closedTradePL;
    for (const r of this.resultRows) {
      const m = r.values.map(moneyOf);
      const found = m.findIndex(
        (a, i) =>
          i + 2 < m.length && a !== null && m[i + 1] && m[i + 2] && same(sumDecimals([m[i + 1]!, m[i + 2]!]), a),
      );
      if (found === -1) continue;
      totals.closedTradePL = m[found]!;
      if (labelled !== null && !same(labelled, m[found]!))
        this.report.warnings.push(
          `The report's Results show two different total net profits (${labelled} and ${m[found]}); ${m[found]} was taken, as Gross Profit + Gross Loss give it.`,
        );
      break;
    }
    if (totals.closedTradePL === null)
      this.report.warnings.push(
        "The report's own total net profit was not found in its Results, so the imported trades cannot be checked against it.",
      );
  }
}
