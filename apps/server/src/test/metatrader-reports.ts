import { zipSync } from 'fflate';

/*
 * Deterministic synthetic MetaTrader reports in the terminals' real layouts (docs/reference/metatrader.md: MT4
 * statements, MT5 HTML reports, MT5 XLSX reports), for the parser tests, the import bench, the e2e test and the demo:
 * `mt4Statement` (MT4 Statement.htm text), `mt5Report` (MT5 Trade History Report HTML text: encode it with
 * `encodeUtf16le` as the terminal does), `mt5Xlsx` (the XLSX bytes, every XML part UTF-16LE with a BOM). Each returns
 * the figures a correct parser must find. Money is generated in integer minor units and formatted, so every expected
 * total is exact.
 */

export interface ReportExpectation {
  closedTrades: number;
  openTrades: number;
  balanceOperations: number;
  skipped: number;
  /** Σ(profit + commission + taxes + swap) of the closed trades = the report's own closed P/L. */
  closedTradePL: string;
  commission: string;
  swap: string;
  profit: string;
  /** Σ balance operations. */
  deposits: string;
  balance: string;
  /** First closed trade in file order (for spot checks). */
  first: { ticket: string; symbol: string; side: 'buy' | 'sell'; lots: string; openTime: string; profit: string };
}

/** mulberry32: a seeded stream in [0, 1) for generated test data. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Integer minor units → report money: space thousands, `decimals` places ('-1 140.03', JPY '-1 736'). */
export function formatMoney(units: number, decimals = 2): string {
  const negative = units < 0;
  const abs = Math.abs(units);
  const scale = 10 ** decimals;
  const whole = Math.floor(abs / scale);
  const fraction = decimals ? `.${String(abs % scale).padStart(decimals, '0')}` : '';
  return `${negative ? '-' : ''}${String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')}${fraction}`;
}

/** Integer minor units → a plain decimal string ('-1140.03'), as the parsers return. */
export function plainMoney(units: number, decimals = 2): string {
  return formatMoney(units, decimals).replace(/ /g, '');
}

function formatPrice(points: number, digits: number): string {
  const s = String(points).padStart(digits + 1, '0');
  return digits ? `${s.slice(0, s.length - digits)}.${s.slice(s.length - digits)}` : s;
}

const pad = (n: number) => String(n).padStart(2, '0');
function mtTimeText(epochSeconds: number, seconds: boolean): string {
  const d = new Date(epochSeconds * 1000);
  const base = `${d.getUTCFullYear()}.${pad(d.getUTCMonth() + 1)}.${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(
    d.getUTCMinutes(),
  )}`;
  return seconds ? `${base}:${pad(d.getUTCSeconds())}` : base;
}
/** `2024.03.01 09:12[:05]` → `2024-03-01T09:12:05`. */
const isoOfMtTime = (t: string) =>
  `${t.slice(0, 4)}-${t.slice(5, 7)}-${t.slice(8, 10)}T${t.slice(11, 16)}:${t.slice(17, 19) || '00'}`;

interface SymbolSpec {
  name: string;
  digits: number;
  base: number;
}
const SYMBOLS: SymbolSpec[] = [
  { name: 'EURUSD', digits: 5, base: 108000 },
  { name: 'GBPUSD', digits: 5, base: 126000 },
  { name: 'USDJPY', digits: 3, base: 150000 },
  { name: 'XAUUSD', digits: 2, base: 215000 },
  { name: 'EURJPY', digits: 3, base: 162000 },
  { name: 'AUDUSD', digits: 5, base: 66000 },
];

interface GenTrade {
  ticket: string;
  symbol: SymbolSpec;
  side: 'buy' | 'sell';
  lotsHundredths: number;
  open: number;
  close: number;
  openPoints: number;
  closePoints: number;
  slPoints: number;
  tpPoints: number;
  commission: number;
  swap: number;
  profit: number;
  magic: number | null;
  comment: string | null;
}

/** Trades in time order, money in minor units of the account currency (`moneyScale` 100 for cents, 1 for JPY). */
function generateTrades(count: number, seed: number, moneyScale: number, firstTicket: number): GenTrade[] {
  const random = mulberry32(seed);
  const out: GenTrade[] = [];
  let time = Date.UTC(2020, 0, 6, 1, 0, 0) / 1000;
  for (let i = 0; i < count; i++) {
    const symbol = SYMBOLS[Math.floor(random() * SYMBOLS.length)]!;
    const side = random() < 0.5 ? 'buy' : 'sell';
    const lotsHundredths = 1 + Math.floor(random() * 200);
    time += 60 + Math.floor(random() * 5400) + 7;
    const open = time;
    const close = open + 60 + Math.floor(random() * 36000) + 3;
    const openPoints = symbol.base + Math.floor(random() * 4000) - 2000;
    const move = Math.floor(random() * 600) - 300;
    const closePoints = openPoints + move;
    const withLevels = random() < 0.4;
    const slPoints = withLevels ? openPoints + (side === 'buy' ? -400 : 400) : 0;
    const tpPoints = withLevels ? openPoints + (side === 'buy' ? 500 : -500) : 0;
    const sign = side === 'buy' ? 1 : -1;
    const profit = Math.round(sign * move * lotsHundredths * 0.1 * (moneyScale === 1 ? 1.5 : 1));
    const commission = -Math.round((lotsHundredths * 7 * moneyScale) / 100);
    const swap = random() < 0.3 ? Math.floor(random() * 400) - 250 : 0;
    const magicRoll = random();
    out.push({
      ticket: String(firstTicket + i * 3),
      symbol,
      side,
      lotsHundredths,
      open,
      close,
      openPoints,
      closePoints,
      slPoints,
      tpPoints,
      commission,
      swap,
      profit,
      magic: magicRoll < 0.2 ? 7000 + Math.floor(magicRoll * 10) : null,
      comment: magicRoll < 0.2 ? 'GridBot v3' : magicRoll > 0.9 ? '[tp]' : null,
    });
  }
  return out;
}

function sumUnits(values: Iterable<number>): number {
  let s = 0;
  for (const v of values) s += v; // integers only: exact below 2^53
  return s;
}

export interface Mt4Options {
  trades: number;
  seed?: number;
  currency?: 'USD' | 'JPY';
  seconds?: boolean;
  newestFirst?: boolean;
  /** '1:100'; null writes the unreplaced `<!--LEVERAGE-->` placeholder. */
  leverage?: string | null;
  account?: string;
  name?: string;
  broker?: string;
}

const MT4_HEAD = `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">
<html>
  <head>
    <title>Statement: {ACCOUNT} - {NAME}</title>
    <meta name="generator" content="MetaQuotes Software Corp.">
    <style type="text/css">
    <!--
    td { font: 8pt Tahoma,Arial; }
    .msdate { mso-number-format:"General Date"; }
    .mspt   { mso-number-format:\\#\\,\\#\\#0\\.00;  }
    //-->
    </style>
  </head>
<body topmargin=1 marginheight=1>
<div align=center>
<div style="font: 20pt Times New Roman"><b>{BROKER}</b></div><br>

<table cellspacing=1 cellpadding=3 border=0>
`;

const MT4_COLUMNS = `<tr align=center bgcolor="#C0C0C0">
   <td>Ticket</td><td nowrap>Open Time</td><td>Type</td><td>Size</td><td>Item</td>
   <td>Price</td><td>S / L</td><td>T / P</td><td nowrap>{CLOSE}</td>
   <td>Price</td><td>Commission</td><td>Taxes</td><td>Swap</td><td>Profit</td></tr>
`;

/**
 * An MT4 statement (2019–2025 build layout: Leverage cell, detail rows under titled tickets) with `trades` closed
 * trades, of which the 2nd and 3rd are one order closed in two parts (`to #` / `from #`), a deposit first, a
 * withdrawal in the middle, one cancelled pending order, one open trade, one working order and the Summary.
 */
export function mt4Statement(options: Mt4Options): { html: string; expected: ReportExpectation } {
  const seed = options.seed ?? 1;
  const jpy = options.currency === 'JPY';
  const decimals = jpy ? 0 : 2;
  const scale = jpy ? 1 : 100;
  const seconds = options.seconds ?? true;
  const account = options.account ?? '7700123';
  const trades = generateTrades(options.trades, seed, scale, 50_000_000);
  if (trades.length >= 3) {
    // Trades 1 and 2: one order closed in two parts (same open time and price, the rest gets a new ticket).
    const [a, b] = [trades[1]!, trades[2]!];
    Object.assign(b, {
      symbol: a.symbol,
      side: a.side,
      open: a.open,
      openPoints: a.openPoints,
      close: Math.max(b.close, a.close + 60),
    });
    Object.assign(b, { slPoints: a.slPoints, tpPoints: a.tpPoints, magic: null });
    a.magic = null;
    a.comment = `to #${b.ticket}`;
    b.comment = `from #${a.ticket}`;
  }
  const money = (u: number) => formatMoney(u, decimals);
  const price = (p: number, s: SymbolSpec) =>
    `<td style="mso-number-format:0\\.${'0'.repeat(s.digits)};">${formatPrice(p, s.digits)}</td>`;
  const time = (t: number) => mtTimeText(t, seconds);
  const rows: Array<{ at: number; html: string }> = [];
  let stripe = 0;
  const tr = () => (stripe++ % 2 ? '<tr bgcolor=#E0E0E0 align=right>' : '<tr align=right>');
  const tradeRow = (t: GenTrade): string => {
    const title = t.magic !== null ? `#${t.magic} ${t.comment ?? ''}`.trimEnd() : t.comment;
    const rowStart = tr();
    let html =
      `${rowStart}<td${title ? ` title="${title}"` : ''}>${t.ticket}</td><td${title ? ' class=msdate' : ''} nowrap>${time(t.open)}</td>` +
      `<td>${t.side}</td><td class=mspt>${formatMoney(t.lotsHundredths)}</td><td>${t.symbol.name.toLowerCase()}</td>` +
      price(t.openPoints, t.symbol) +
      price(t.slPoints, t.symbol) +
      price(t.tpPoints, t.symbol) +
      `<td class=msdate nowrap>${time(t.close)}</td>` +
      price(t.closePoints, t.symbol) +
      `<td class=mspt>${money(t.commission)}</td><td class=mspt>${money(0)}</td><td class=mspt>${money(t.swap)}</td><td class=mspt>${money(t.profit)}</td></tr>\n`;
    if (title)
      html += `${rowStart}<td colspan=9>&nbsp;</td><td>${t.magic ?? '&nbsp;'}</td><td colspan=3>${t.comment ?? '&nbsp;'}</td></tr>\n`;
    return html;
  };
  for (const t of trades) rows.push({ at: t.close, html: tradeRow(t) });
  const first = trades[0];
  const depositAt = (first?.open ?? Date.UTC(2020, 0, 6) / 1000) - 3600;
  const deposit = 100_000 * scale;
  const withdrawal = -2_500 * scale;
  const middle = trades[Math.floor(trades.length / 2)];
  const withdrawalAt = (middle?.close ?? depositAt) + 30;
  const balanceRow = (ticket: string, at: number, comment: string, amount: number) =>
    `${tr()}<td title="${comment}">${ticket}</td><td class=msdate nowrap>${time(at)}</td><td>balance</td><td colspan=10 align=left>${comment}</td><td class=mspt>${money(amount)}</td></tr>\n`;
  rows.push({ at: depositAt, html: balanceRow('49999001', depositAt, 'Deposit', deposit) });
  rows.push({ at: withdrawalAt, html: balanceRow('49999002', withdrawalAt, 'Withdrawal', withdrawal) });
  const cancelledAt = withdrawalAt + 20;
  rows.push({
    at: cancelledAt,
    html: `${tr()}<td title="cancelled">49999003</td><td class=msdate nowrap>${time(cancelledAt - 600)}</td><td>buy limit</td><td class=mspt>0.50</td><td>gbpusd</td><td style="mso-number-format:0\\.00000;">1.25050</td><td style="mso-number-format:0\\.00000;">0.00000</td><td style="mso-number-format:0\\.00000;">0.00000</td><td class=msdate nowrap>${time(cancelledAt)}</td><td style="mso-number-format:0\\.00000;">1.25544</td><td colspan=4>cancelled</td></tr>\n`,
  });
  rows.sort((a, b) => a.at - b.at);
  if (options.newestFirst) rows.reverse();

  const commission = sumUnits(trades.map((t) => t.commission));
  const swap = sumUnits(trades.map((t) => t.swap));
  const profit = sumUnits(trades.map((t) => t.profit));
  const closedPL = commission + swap + profit;
  const deposits = deposit + withdrawal;
  const balance = deposits + closedPL;
  const floating = 25 * scale;
  const lastTime = trades.length ? trades[trades.length - 1]!.close : depositAt;

  const out: string[] = [
    MT4_HEAD.replace('{ACCOUNT}', account)
      .replace('{NAME}', options.name ?? 'Synthetic Trader')
      .replace('{BROKER}', options.broker ?? 'Synthetic Brokers Ltd'),
    `<tr align=left>
    <td colspan=2><b>Account: ${account}</b></td>
    <td colspan=5><b>Name: ${options.name ?? 'Synthetic Trader'}</b></td>
    <td colspan=2><b>Currency: ${jpy ? 'JPY' : 'USD'}</b></td>
    <td colspan=2><b>Leverage: ${options.leverage === null ? '<!--LEVERAGE-->' : (options.leverage ?? '1:100')}</b></td>
    <td colspan=3 align=right><b>2024 March 28, 23:41</b></td></tr>
<tr align=left><td colspan=13><b>Closed Transactions:</b></td></tr>
`,
    MT4_COLUMNS.replace('{CLOSE}', 'Close Time'),
  ];
  for (const r of rows) out.push(r.html);
  out.push(`<tr align=right>
    <td colspan=10>&nbsp;</td>
    <td class=mspt>${money(commission)}</td>
    <td class=mspt>${money(0)}</td>
    <td class=mspt>${money(swap)}</td>
    <td class=mspt>${money(profit)}</td>
</tr>
<tr align=right>
    <td colspan=12 align=right><b>Closed P/L:</b></td>
    <td colspan=2 align=right title="Commission + Swap + Profit + Taxes" class=mspt><b>${money(closedPL)}</b></td>
</tr>
<tr align=left><td colspan=13><b>Open Trades:</b></td></tr>
`);
  out.push(MT4_COLUMNS.replace('{CLOSE}', '&nbsp;'));
  out.push(
    `<tr align=right><td>59999001</td><td nowrap>${time(lastTime + 60)}</td><td>buy</td><td class=mspt>0.10</td><td>eurusd</td><td style="mso-number-format:0\\.00000;">1.08000</td><td style="mso-number-format:0\\.00000;">0.00000</td><td style="mso-number-format:0\\.00000;">0.00000</td><td class=msdate nowrap>&nbsp;</td><td style="mso-number-format:0\\.00000;">1.08250</td><td class=mspt>${money(0)}</td><td class=mspt>${money(0)}</td><td class=mspt>${money(0)}</td><td class=mspt>${money(floating)}</td></tr>
<tr align=right>
    <td colspan=10>&nbsp;</td><td class=mspt>${money(0)}</td><td class=mspt>${money(0)}</td><td class=mspt>${money(0)}</td><td class=mspt>${money(floating)}</td>
</tr>
<tr><td colspan=10>&nbsp;</td><td colspan=2 align=right><b>Floating P/L:</b></td>
    <td colspan=2 align=right title="Commission + Swap + Profit + Taxes" class=mspt><b>${money(floating)}</b></td></tr>
<tr align=left><td colspan=13><b>Working Orders:</b></td></tr>
<tr align=center bgcolor="#C0C0C0">
    <td>Ticket</td><td nowrap>Open Time</td><td>Type</td><td>Size</td><td>Item</td>
    <td>Price</td><td>S / L</td><td>T / P</td><td colspan=2 nowrap>Market Price</td><td colspan=4>&nbsp;</td></tr>
<tr align=right><td>59999002</td><td nowrap>${time(lastTime + 120)}</td><td>sell stop</td><td class=mspt>0.30</td><td>gbpusd</td><td style="mso-number-format:0\\.00000;">1.25800</td><td style="mso-number-format:0\\.00000;">1.26200</td><td style="mso-number-format:0\\.00000;">1.25000</td><td class=msdate nowrap>&nbsp;</td><td style="mso-number-format:0\\.00000;">1.26214</td><td colspan=4>&nbsp;</td></tr>
<tr><td colspan=13 style="font: 1pt arial">&nbsp;</td></tr>
<tr align=left><td colspan=13><b>Summary:</b></td></tr>
<tr align=right>
    <td colspan=2><b>Deposit/Withdrawal:</b></td><td colspan=2 class=mspt><b>${money(deposits)}</b></td>
    <td colspan=4><b>Credit Facility:</b></td><td class=mspt><b>${money(0)}</b></td><td colspan=5>&nbsp;</td></tr>
<tr align=right>
    <td colspan=2><b>Closed Trade P/L:</b></td><td colspan=2 class=mspt><b>${money(closedPL)}</b></td>
    <td colspan=4><b>Floating P/L:</b></td><td class=mspt><b>${money(floating)}</b></td>
    <td colspan=3><b>Margin:</b></td><td colspan=2 class=mspt><b>${money(108 * scale)}</b></td></tr>
<tr align=right>
    <td colspan=2><b>Balance:</b></td><td colspan=2 class=mspt><b>${money(balance)}</b></td>
    <td colspan=4><b>Equity:</b></td><td class=mspt><b>${money(balance + floating)}</b></td>
    <td colspan=3><b>Free Margin:</b></td><td colspan=2 class=mspt><b>${money(balance + floating - 108 * scale)}</b></td></tr>
</table>
</div></body></html>
`,
  );
  // The first closed trade in file order: rows are sorted by close time (reversed for newest-first).
  const byClose = [...trades].sort((a, b) => a.close - b.close);
  const fileFirst = options.newestFirst ? byClose[byClose.length - 1] : byClose[0];
  return {
    html: out.join(''),
    expected: {
      closedTrades: trades.length,
      openTrades: 1,
      balanceOperations: 2,
      skipped: 2,
      closedTradePL: plainMoney(closedPL, decimals),
      commission: plainMoney(commission, decimals),
      swap: plainMoney(swap, decimals),
      profit: plainMoney(profit, decimals),
      deposits: plainMoney(deposits, decimals),
      balance: plainMoney(balance, decimals),
      first: fileFirst
        ? {
            ticket: fileFirst.ticket,
            symbol: fileFirst.symbol.name.toLowerCase(),
            side: fileFirst.side,
            lots: formatMoney(fileFirst.lotsHundredths),
            openTime: isoOfMtTime(time(fileFirst.open)),
            profit: plainMoney(fileFirst.profit, decimals),
          }
        : { ticket: '', symbol: '', side: 'buy', lots: '', openTime: '', profit: '' },
    },
  };
}

/** UTF-16LE bytes with a byte-order mark, as the MT5 terminal writes its HTML report and XLSX parts. */
export function encodeUtf16le(text: string): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out[0] = 0xff;
  out[1] = 0xfe;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[2 + i * 2] = c & 0xff;
    out[3 + i * 2] = c >> 8;
  }
  return out;
}

export interface Mt5Options {
  positions: number;
  seed?: number;
  account?: string;
  name?: string;
  company?: string;
  server?: string;
}

interface Mt5Data {
  trades: GenTrade[];
  deposit: number;
  commission: number;
  swap: number;
  profit: number;
  closedPL: number;
  balance: number;
  account: string;
  name: string;
  company: string;
  server: string;
}

function mt5Data(options: Mt5Options): Mt5Data {
  const trades = generateTrades(options.positions, options.seed ?? 1, 100, 80_000_000);
  for (const t of trades) t.magic = null; // MT5 positions carry a comment only
  const commission = sumUnits(trades.map((t) => t.commission));
  const swap = sumUnits(trades.map((t) => t.swap));
  const profit = sumUnits(trades.map((t) => t.profit));
  const deposit = 50_000_00;
  return {
    trades,
    deposit,
    commission,
    swap,
    profit,
    closedPL: commission + swap + profit,
    balance: deposit + commission + swap + profit,
    account: options.account ?? '88001234',
    name: options.name ?? 'Synthetic Trader',
    company: options.company ?? 'Synthetic Markets Ltd',
    server: options.server ?? 'Synthetic-Live',
  };
}

/** MT5 shortest volume form: 0.1, 1, 0.05. */
const mt5Volume = (hundredths: number) => formatMoney(hundredths).replace(/\.?0+$/, '');

function mt5Expectation(d: Mt5Data): ReportExpectation {
  const f = d.trades[0];
  return {
    closedTrades: d.trades.length,
    openTrades: 0,
    balanceOperations: 1,
    skipped: 0,
    closedTradePL: plainMoney(d.closedPL),
    commission: plainMoney(d.commission),
    swap: plainMoney(d.swap),
    profit: plainMoney(d.profit),
    deposits: plainMoney(d.deposit),
    balance: plainMoney(d.balance),
    first: f
      ? {
          ticket: f.ticket,
          symbol: f.symbol.name,
          side: f.side,
          lots: mt5Volume(f.lotsHundredths),
          openTime: isoOfMtTime(mtTimeText(f.open, true)),
          profit: plainMoney(f.profit),
        }
      : { ticket: '', symbol: '', side: 'buy', lots: '', openTime: '', profit: '' },
  };
}

/**
 * An MT5 Trade History Report (recent build, hedging account, English) with `positions` closed positions: the
 * Positions rows (hidden comment cells), their two orders and two deals each, a deposit deal, the Deals totals,
 * the summary block and Results. Returns text: `encodeUtf16le(html)` gives the bytes the terminal writes.
 */
export function mt5Report(options: Mt5Options): { html: string; expected: ReportExpectation } {
  const d = mt5Data(options);
  const t5 = (t: number) => mtTimeText(t, true);
  const p = (points: number, s: SymbolSpec) => formatPrice(points, s.digits);
  const level = (points: number, s: SymbolSpec) => (points ? p(points, s) : '');
  const out: string[] = [
    `<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">\r
<html>\r
  <head>\r
    <title>${d.account}: ${d.name} - Trade History Report</title>\r
    <meta name="generator" content="client terminal">\r
    <style type="text/css">\r
    <!--\r
    .hidden { display: none; }\r
    //-->\r
    </style>\r
  </head>\r
<body>\r
<div align="center">\r
    <table cellspacing="1" cellpadding="3" border="0">\r
        <tr align="center"><td colspan="14"><div style="font: 14pt Tahoma"><b>Trade History Report</b><br></div></td></tr>\r
`,
  ];
  const headerRow = (label: string, value: string) =>
    `        <tr align="left"><th colspan="3" nowrap align="right">${label}</th><th colspan="11" nowrap align="left"><b>${value}</b></th></tr>\r\n`;
  out.push(headerRow('Name:', d.name));
  out.push(headerRow('Account:', `${d.account}&nbsp;(USD,&nbsp;${d.server},&nbsp;real,&nbsp;Hedge)`));
  out.push(headerRow('Company:', d.company));
  out.push(headerRow('Date:', '2024.04.30 18:22'));
  const title = (text: string) =>
    `        <tr align="center"><th colspan="14" style="height: 25px"><div style="font: 10pt Tahoma"><b>${text}</b></div></th></tr>\r\n`;
  const header = (cells: string[]) =>
    `        <tr align="center" bgcolor="#E5F0FC">${cells.map((c) => (c.startsWith('<') ? c : `<td nowrap><b>${c}</b></td>`)).join('')}</tr>\r\n`;
  out.push(title('Positions'));
  out.push(
    header([
      'Time',
      'Position',
      'Symbol',
      'Type',
      'Volume',
      'Price',
      'S / L',
      'T / P',
      'Time',
      'Price',
      'Commission',
      'Swap',
      '<td nowrap colspan="2"><b>Profit</b></td>',
    ]),
  );
  d.trades.forEach((t, i) => {
    out.push(
      `        <tr bgcolor="${i % 2 ? '#F7F7F7' : '#FFFFFF'}" align="right"><td>${t5(t.open)}</td><td>${t.ticket}</td><td>${t.symbol.name}</td><td>${t.side}</td><td class="hidden" colspan="8">${t.comment ?? ''}</td><td class="">${mt5Volume(t.lotsHundredths)}</td><td class="">${p(t.openPoints, t.symbol)}</td><td class="">${level(t.slPoints, t.symbol)}</td><td class="">${level(t.tpPoints, t.symbol)}</td><td class="">${t5(t.close)}</td><td class="">${p(t.closePoints, t.symbol)}</td><td class="">${formatMoney(t.commission)}</td><td class="">${formatMoney(t.swap)}</td><td colspan="2">${formatMoney(t.profit)}</td></tr>\r\n`,
    );
  });
  out.push(title('Orders'));
  out.push(
    header([
      'Open Time',
      'Order',
      'Symbol',
      'Type',
      'Volume',
      'Price',
      'S / L',
      'T / P',
      'Time',
      '<td nowrap colspan="2"><b>State</b></td>',
      '<td nowrap colspan="3"><b>Comment</b></td>',
    ]),
  );
  d.trades.forEach((t) => {
    const v = mt5Volume(t.lotsHundredths);
    const exit = t.side === 'buy' ? 'sell' : 'buy';
    out.push(
      `        <tr bgcolor="#FFFFFF" align="right"><td>${t5(t.open - 1)}</td><td>${t.ticket}</td><td>${t.symbol.name}</td><td>${t.side}</td><td>${v} / ${v}</td><td>market</td><td>${level(t.slPoints, t.symbol)}</td><td>${level(t.tpPoints, t.symbol)}</td><td>${t5(t.open)}</td><td colspan="2">filled</td><td colspan="3">${t.comment ?? ''}</td></tr>\r\n` +
        `        <tr bgcolor="#F7F7F7" align="right"><td>${t5(t.close - 1)}</td><td>${Number(t.ticket) + 1}</td><td>${t.symbol.name}</td><td>${exit}</td><td>${v} / ${v}</td><td>market</td><td></td><td></td><td>${t5(t.close)}</td><td colspan="2">filled</td><td colspan="3"></td></tr>\r\n`,
    );
  });
  out.push(title('Deals'));
  out.push(
    header([
      'Time',
      'Deal',
      'Symbol',
      'Type',
      'Direction',
      'Volume',
      'Price',
      'Order',
      '<td nowrap class="hidden"><b>Cost</b></td>',
      'Commission',
      'Fee',
      'Swap',
      'Profit',
      'Balance',
      'Comment',
    ]),
  );
  const deal = (cells: string[]) =>
    `        <tr bgcolor="#FFFFFF" align="right">${cells.map((c, i) => (i === 8 ? '<td nowrap class="hidden"></td>' : `<td nowrap>${c}</td>`)).join('')}</tr>\r\n`;
  let balance = d.deposit;
  const firstOpen = d.trades[0]?.open ?? Date.UTC(2024, 0, 2) / 1000;
  out.push(
    deal([
      t5(firstOpen - 3600),
      '90000001',
      '',
      'balance',
      '',
      '',
      '',
      '',
      '',
      '0',
      '0',
      '0',
      formatMoney(d.deposit),
      formatMoney(balance),
      'Deposit',
    ]),
  );
  // Deals in time order: entry then exit of each position, commission split in two halves.
  const legs: Array<{ at: number; cells: () => string[] }> = [];
  d.trades.forEach((t, i) => {
    const v = mt5Volume(t.lotsHundredths);
    const entryCommission = Math.trunc(t.commission / 2);
    const exitCommission = t.commission - entryCommission;
    legs.push({
      at: t.open,
      cells: () => {
        balance += entryCommission;
        return [
          t5(t.open),
          String(90000002 + i * 2),
          t.symbol.name,
          t.side,
          'in',
          v,
          p(t.openPoints, t.symbol),
          t.ticket,
          '',
          formatMoney(entryCommission),
          '0.00',
          '0.00',
          '0.00',
          formatMoney(balance),
          t.comment ?? '',
        ];
      },
    });
    legs.push({
      at: t.close,
      cells: () => {
        balance += exitCommission + t.swap + t.profit;
        return [
          t5(t.close),
          String(90000003 + i * 2),
          t.symbol.name,
          t.side === 'buy' ? 'sell' : 'buy',
          'out',
          v,
          p(t.closePoints, t.symbol),
          String(Number(t.ticket) + 1),
          '',
          formatMoney(exitCommission),
          '0.00',
          formatMoney(t.swap),
          formatMoney(t.profit),
          formatMoney(balance),
          '',
        ];
      },
    });
  });
  legs.sort((a, b) => a.at - b.at);
  for (const leg of legs) out.push(deal(leg.cells()));
  out.push(
    `        <tr align="right"><td nowrap colspan="8"></td><td nowrap class="hidden"></td><td nowrap><b>${formatMoney(d.commission)}</b></td><td nowrap><b>0.00</b></td><td nowrap><b>${formatMoney(d.swap)}</b></td><td nowrap><b>${formatMoney(d.profit + d.deposit)}</b></td><td nowrap><b>${formatMoney(d.balance)}</b></td><td nowrap></td></tr>\r\n`,
  );
  const summary = (a: string, av: string, b?: string, bv?: string) =>
    `        <tr align="right"><td colspan="3">${a}</td><td colspan="2"><b>${av}</b></td><td></td>${b ? `<td colspan="3">${b}</td><td colspan="2"><b>${bv}</b></td>` : ''}</tr>\r\n`;
  out.push(summary('Balance:', formatMoney(d.balance), 'Free Margin:', formatMoney(d.balance)));
  out.push(summary('Credit Facility:', '0.00', 'Margin:', '0.00'));
  out.push(summary('Floating P/L:', '0.00', 'Margin Level:', '0.00%'));
  out.push(summary('Equity:', formatMoney(d.balance)));
  out.push(
    `        <tr><td colspan="14" align="center"><div style="font: 10pt Tahoma"><b>Results</b></div></td></tr>\r\n`,
  );
  out.push(
    `        <tr align="right"><td nowrap colspan="3">Total Net Profit:</td><td nowrap><b>${formatMoney(d.closedPL)}</b></td><td nowrap colspan="3">Total Trades:</td><td nowrap><b>${d.trades.length}</b></td></tr>\r\n`,
  );
  out.push('    </table>\r\n</div>\r\n</body>\r\n</html>\r\n');
  return { html: out.join(''), expected: mt5Expectation(d) };
}

/* ---- XLSX ---- */

const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const colName = (i: number) => String.fromCharCode(65 + i);

type XCell = { s: string } | { n: string } | { f: string; v: string } | { inline: string } | null;

/**
 * The MT5 report as the terminal's Open XML export (docs/reference/metatrader.md, MT5 XLSX reports): one sheet, columns
 * A–O, strings shared, numbers as numbers, volumes and times as strings, section titles merged A:O, header labels A:C
 * with values D:O, Positions Profit M:O, Deals totals as SUM formulas with cached values; every XML part UTF-16LE with
 * a BOM and no encoding attribute.
 */
export function mt5Xlsx(options: Mt5Options): { bytes: Uint8Array; expected: ReportExpectation } {
  const d = mt5Data(options);
  const strings: string[] = [];
  const index = new Map<string, number>();
  const s = (text: string): XCell => {
    if (text === '') return null;
    let i = index.get(text);
    if (i === undefined) {
      i = strings.length;
      strings.push(text);
      index.set(text, i);
    }
    return { s: String(i) };
  };
  const n = (text: string): XCell => (text === '' ? null : { n: text.replace(/ /g, '') });
  const rows: XCell[][] = [];
  const merges: string[] = [];
  const add = (cells: XCell[], merge?: Array<[number, number]>) => {
    rows.push(cells);
    const r = rows.length;
    for (const [a, b] of merge ?? []) merges.push(`${colName(a)}${r}:${colName(b)}${r}`);
  };
  const t5 = (t: number) => mtTimeText(t, true);
  const p = (points: number, sp: SymbolSpec) => formatPrice(points, sp.digits);
  add([s('Trade History Report')], [[0, 14]]);
  add(
    [s('Name:'), null, null, s(d.name)],
    [
      [0, 2],
      [3, 14],
    ],
  );
  add(
    [s('Account:'), null, null, s(`${d.account} (USD, ${d.server}, real, Hedge)`)],
    [
      [0, 2],
      [3, 14],
    ],
  );
  add(
    [s('Company:'), null, null, s(d.company)],
    [
      [0, 2],
      [3, 14],
    ],
  );
  add(
    [s('Date:'), null, null, { inline: '2024.04.30 18:22' }],
    [
      [0, 2],
      [3, 14],
    ],
  );
  add([s('Positions')], [[0, 14]]);
  add(
    [
      'Time',
      'Position',
      'Symbol',
      'Type',
      'Volume',
      'Price',
      'S / L',
      'T / P',
      'Time',
      'Price',
      'Commission',
      'Swap',
      'Profit',
    ].map(s),
    [[12, 14]],
  );
  for (const t of d.trades)
    add(
      [
        s(t5(t.open)),
        n(t.ticket),
        s(t.symbol.name),
        s(t.side),
        s(mt5Volume(t.lotsHundredths)),
        n(p(t.openPoints, t.symbol)),
        t.slPoints ? n(p(t.slPoints, t.symbol)) : null,
        t.tpPoints ? n(p(t.tpPoints, t.symbol)) : null,
        s(t5(t.close)),
        n(p(t.closePoints, t.symbol)),
        n(plainMoney(t.commission)),
        n(plainMoney(t.swap)),
        n(plainMoney(t.profit)),
      ],
      [[12, 14]],
    );
  add([s('Deals')], [[0, 14]]);
  add(
    [
      'Time',
      'Deal',
      'Symbol',
      'Type',
      'Direction',
      'Volume',
      'Price',
      'Order',
      'Commission',
      'Fee',
      'Swap',
      'Profit',
      'Balance',
      'Comment',
    ].map(s),
    [[13, 14]],
  );
  const firstDealRow = rows.length + 1;
  const firstOpen = d.trades[0]?.open ?? Date.UTC(2024, 0, 2) / 1000;
  add(
    [
      s(t5(firstOpen - 3600)),
      n('90000001'),
      null,
      s('balance'),
      null,
      null,
      null,
      null,
      n('0'),
      n('0'),
      n('0'),
      n(plainMoney(d.deposit)),
      n(plainMoney(d.deposit)),
      s('Deposit'),
    ],
    [[13, 14]],
  );
  let balance = d.deposit;
  d.trades.forEach((t, i) => {
    balance += t.commission + t.swap + t.profit;
    add(
      [
        s(t5(t.close)),
        n(String(90000002 + i)),
        s(t.symbol.name),
        s(t.side === 'buy' ? 'sell' : 'buy'),
        s('out'),
        s(mt5Volume(t.lotsHundredths)),
        n(p(t.closePoints, t.symbol)),
        n(String(Number(t.ticket) + 1)),
        n(plainMoney(t.commission)),
        n('0'),
        n(plainMoney(t.swap)),
        n(plainMoney(t.profit)),
        n(plainMoney(balance)),
        null,
      ],
      [[13, 14]],
    );
  });
  const lastDealRow = rows.length;
  const sum = (col: string, value: number): XCell => ({
    f: `SUM(Sheet1!${col}${firstDealRow}:${col}${lastDealRow})`,
    v: plainMoney(value),
  });
  add([
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    sum('I', d.commission),
    sum('J', 0),
    sum('K', d.swap),
    n(plainMoney(d.profit + d.deposit)),
    n(plainMoney(d.balance)),
  ]);
  add(
    [
      s('Balance:'),
      null,
      null,
      n(`${plainMoney(d.balance)}0000`),
      null,
      null,
      s('Free Margin:'),
      null,
      null,
      n(`${plainMoney(d.balance)}0000`),
    ],
    [
      [0, 2],
      [3, 4],
      [6, 8],
      [9, 10],
    ],
  );
  add(
    [s('Credit Facility:'), null, null, n('0.000000'), null, null, s('Margin:'), null, null, n('0.000000')],
    [
      [0, 2],
      [3, 4],
      [6, 8],
      [9, 10],
    ],
  );
  add(
    [s('Equity:'), null, null, n(`${plainMoney(d.balance)}0000`)],
    [
      [0, 2],
      [3, 4],
    ],
  );
  add([s('Results')], [[0, 14]]);
  add(
    [
      s('Total Net Profit:'),
      null,
      null,
      n(`${plainMoney(d.closedPL)}0000`),
      s('Gross Profit:'),
      null,
      null,
      n('1.5E+3'),
    ],
    [
      [0, 2],
      [4, 6],
    ],
  );

  const sheetRows = rows
    .map((cells, r) => {
      const row = r + 1;
      const xml = cells
        .map((c, i) => {
          if (c === null) return '';
          const ref = `${colName(i)}${row}`;
          if ('s' in c) return `<c r="${ref}" t="s"><v>${c.s}</v></c>`;
          if ('n' in c) return `<c r="${ref}"><v>${c.n}</v></c>`;
          if ('f' in c) return `<c r="${ref}"><f>${c.f}</f><v>${c.v}</v></c>`;
          return `<c r="${ref}" t="inlineStr"><is><t>${xmlEscape(c.inline)}</t></is></c>`;
        })
        .join('');
      return `<row r="${row}">${xml}</row>`;
    })
    .join('');
  const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const head = '<?xml version="1.0"?>\r\n';
  const parts: Record<string, string> = {
    '[Content_Types].xml': `${head}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
    '_rels/.rels': `${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `${head}<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    'xl/sharedStrings.xml': `${head}<sst xmlns="${NS}" count="${strings.length}" uniqueCount="${strings.length}">${strings
      .map((t) => `<si><t>${xmlEscape(t)}</t></si>`)
      .join('')}</sst>`,
    'xl/worksheets/sheet1.xml': `${head}<worksheet xmlns="${NS}" xmlns:r="${REL}"><sheetData>${sheetRows}</sheetData><mergeCells count="${merges.length}">${merges
      .map((m) => `<mergeCell ref="${m}"/>`)
      .join('')}</mergeCells></worksheet>`,
  };
  const files: Record<string, Uint8Array> = {};
  for (const [name, xml] of Object.entries(parts)) files[name] = encodeUtf16le(xml);
  const expected = mt5Expectation(d);
  return { bytes: zipSync(files, { mtime: new Date(Date.UTC(2024, 3, 30)) }), expected };
}
