import type { ContractSize, ImportedTrade, ImportFormat, ImportPreview, Mode } from '@pipsense/contract';
import { IMPORT_SAMPLE_ROWS } from '@pipsense/contract/import-constants';
import {
  compareDecimals,
  decimalPlaces,
  multiplyDecimals,
  negateDecimal,
  roundDecimal,
  subtractDecimals,
  sumDecimals,
  trimDecimal,
} from '../../domain/decimal';
import { serverOffsetAt, serverTimesToUtc, type BrokerTime } from '../../domain/broker-time';
import { importedTradeIds } from '../../domain/imported-trade-ids';
import type { ImportedAccountInput, ImportedBalanceOperationInput, ImportedTradeInput } from '../trading';
import type { ParsedReport, ParsedTrade } from './parse/types';
import { contractSizeOf, instrumentOf } from './symbols';

/*
 * From a parsed report to what the import hands the trading module (pure): broker server time to UTC, the
 * instrument and units of each trade, the account, and the preview the trader confirms. Trade ids and the account
 * key are the trading module's (docs/decisions/012-metatrader-import.md).
 */

/** Units per lot of a symbol: the trader's correction, else the built-in table. */
export type ContractSizes = (symbol: string, instrument: string) => { size: string; known: boolean };

export function contractSizesWith(corrections: ReadonlyMap<string, string>): ContractSizes {
  return (symbol, instrument) => {
    const own = corrections.get(symbol.toUpperCase());
    return own ? { size: own, known: true } : contractSizeOf(symbol, instrument);
  };
}

/**
 * A closed or open trade in UTC, before its units (which depend on contract sizes the trader may still correct). An
 * open trade has no close time and no close price (the report's market price is not one); its realizedPL is the
 * report's floating profit, which the trading module stores as unrealized P/L.
 */
export interface PlannedTrade {
  row: number;
  ticket: string;
  symbol: string;
  instrument: string;
  side: 'buy' | 'sell';
  lots: string;
  /** UTC, stored form. */
  openTime: string;
  /** null: the trade is still open at the report's end. */
  closeTime: string | null;
  /** The open time as the server printed it (`YYYY-MM-DDTHH:mm:ss`): what a re-import matches the trade by. */
  serverOpenTime: string;
  price: string;
  averageClosePrice: string | null;
  stopLossPrice: string | null;
  takeProfitPrice: string | null;
  commission: string;
  swap: string;
  realizedPL: string;
}

function planTrade(t: ParsedTrade, utc: { openTime: string; closeTime: string | null }): PlannedTrade {
  return {
    row: t.row,
    ticket: t.ticket,
    symbol: t.symbol,
    instrument: instrumentOf(t.symbol),
    side: t.side,
    lots: t.lots,
    openTime: utc.openTime,
    closeTime: utc.closeTime,
    serverOpenTime: t.openTime,
    price: t.openPrice,
    averageClosePrice: t.closeTime === null ? null : t.closePrice,
    stopLossPrice: t.sl,
    takeProfitPrice: t.tp,
    // MT4 taxes and the MT5 fee are charges like the commission: kept with it (the trade's costs apart from swap).
    commission: t.taxes && t.taxes !== '0' ? sumDecimals([t.commission, t.taxes]) : t.commission,
    swap: t.swap,
    realizedPL: t.profit,
  };
}

/**
 * A balance operation of the report with its time in UTC, at the same server offset as the trades; the printed
 * server time is kept beside it (it names an operation without a ticket, metatrader-store.ts).
 */
function planBalanceOperation(
  o: ParsedReport['balanceOperations'][number],
  time: string,
): ImportedBalanceOperationInput {
  return {
    ticket: o.ticket,
    time,
    serverTime: o.time,
    type: o.type,
    amount: o.amount,
    comment: o.comment,
  };
}

/** The trades to store, units = lots × contract size (negative for a sell, as OANDA's). */
export function tradeInputs(planned: readonly PlannedTrade[], sizes: ContractSizes): ImportedTradeInput[] {
  return planned.map((t) => {
    const units = trimDecimal(multiplyDecimals(t.lots, sizes(t.symbol, t.instrument).size));
    return {
      ticket: t.ticket,
      symbol: t.symbol,
      instrument: t.instrument,
      units: t.side === 'sell' && units !== '0' ? negateDecimal(units) : units,
      lots: t.lots,
      price: t.price,
      averageClosePrice: t.averageClosePrice,
      stopLossPrice: t.stopLossPrice,
      takeProfitPrice: t.takeProfitPrice,
      openTime: t.openTime,
      closeTime: t.closeTime,
      serverOpenTime: t.serverOpenTime,
      realizedPL: t.realizedPL,
      commission: t.commission,
      swap: t.swap,
    };
  });
}

/**
 * Where an account of a report lives: the broker's server (MT4 and CSV files name none: the broker, else the
 * format, stands for it) and the login as printed, which the trading module turns into the account key.
 */
export function accountIdentity(report: ParsedReport): { server: string; login: string } {
  const server = (report.account.server ?? report.account.broker ?? report.format).trim() || report.format;
  return { server, login: report.account.number ?? '' };
}

/**
 * The report's total at the precision of the computed one when that loses nothing: MT5 XLSX Results print six
 * decimals ('-208.150000') where the HTML prints two.
 */
export function atPrecisionOf(total: string | null, computed: string): string | null {
  if (total === null) return null;
  const places = decimalPlaces(computed);
  if (decimalPlaces(total) <= places) return total;
  const rounded = roundDecimal(total, places);
  return compareDecimals(rounded, total) === 0 ? rounded : total;
}

/**
 * Why the report's own total differs from the imported closed trades' net, naming the rows that explain it; null when
 * they agree or the report has no total. An MT5 report's Total Net Profit may be the sum of its Deals table, which
 * also holds the entry commission of positions still open (docs/reference/metatrader.md, MT5 open positions, summary
 * and results).
 */
export function explainReportTotal(report: ParsedReport, net: string, total: string | null): string | null {
  if (total === null || compareDecimals(net, total) === 0) return null;
  const difference = subtractDecimals(total, net);
  const where = report.format === 'mt5-xlsx' ? 'row' : 'line';
  const entries = report.deals?.openEntries ?? [];
  const charged = entries.length ? sumDecimals(entries.map((e) => e.amount)) : '0';
  const rows = entries.map((e) => `position ${e.position} (deal ${e.deal}, ${where} ${e.row}: ${e.amount})`).join(', ');
  if (entries.length && compareDecimals(charged, difference) === 0)
    return `The report's total (${total}) also counts the commission already charged when ${
      entries.length === 1 ? 'a position still open was' : 'positions still open were'
    } opened: ${rows}. Open positions are imported once they close, so the imported trades add up to ${net}.`;
  if (report.deals && compareDecimals(report.deals.total, total) === 0)
    return `The report's total (${total}) is the sum of its Deals table; the imported closed positions add up to ${net}. The ${difference} between them is in deals of positions that are not closed in this report${
      entries.length ? ` (entry charges of the positions still open: ${rows})` : ''
    } or that were opened before its period.`;
  return `The report's total (${total}) differs from the imported closed trades (${net}) by ${difference}, and no rows of the report explain it. Check that the report was exported whole and not edited.`;
}

/**
 * What a preview keeps until confirm (table `imports`, as JSON): the plan without the sample (the trades are in it). A
 * preview saved before open trades and balance operations were stored has neither: confirm then stores none.
 */
export interface Payload {
  format: ImportFormat;
  mode: Mode | null;
  account: ImportPlan['account'];
  trades: PlannedTrade[];
  openTrades?: PlannedTrade[];
  balanceOperations?: ImportPlan['balanceOperations'];
}

export interface ImportPlan {
  brokerTime: BrokerTime;
  /** From the report, else the account's remembered mode; null: ask. */
  mode: Mode | null;
  trades: PlannedTrade[];
  /** Open at the report's end: stored as open trades, closed by a later report that shows them closed. */
  openTrades: PlannedTrade[];
  balanceOperations: ImportedBalanceOperationInput[];
  account: Omit<ImportedAccountInput, 'mode'>;
  preview: ImportPreview;
}

/** The offsets a rule read the trades at, in order ('+02:00', '+03:00'). */
function offsetsUsed(trades: readonly PlannedTrade[], time: BrokerTime): string[] {
  if (time.rule === 'fixed') return [time.offset];
  const seen = new Set<string>();
  for (const t of trades)
    for (const at of [t.openTime, t.closeTime]) if (at !== null) seen.add(serverOffsetAt(Date.parse(at), time));
  return [...seen].sort();
}

/**
 * The report read with the server's clock (`brokerTime`, domain/broker-time.ts), with `sizes`, as a plan: what
 * confirm stores and the preview the trader sees.
 */
export function planImport(
  report: ParsedReport,
  options: { brokerTime: BrokerTime; rememberedMode: Mode | null; sizes: ContractSizes },
): ImportPlan {
  const { brokerTime, sizes } = options;
  // One reading of the server's clock for every row, so that the repeated autumn hour is ordered by all the tickets.
  const { closedTrades, openTrades: open, balanceOperations: operations } = report;
  const utc = serverTimesToUtc(
    [
      ...closedTrades,
      ...open,
      ...operations.map((o) => ({ ticket: o.ticket ?? '', openTime: o.time, closeTime: null })),
    ],
    brokerTime,
  );
  const trades = closedTrades.map((t, i) => planTrade(t, utc[i]!));
  const openTrades = open.map((t, i) => planTrade(t, utc[closedTrades.length + i]!));
  const balanceOperations = operations.map((o, i) =>
    planBalanceOperation(o, utc[closedTrades.length + open.length + i]!.openTime),
  );
  const mode = report.account.mode ?? options.rememberedMode;
  const net = sumDecimals(trades.flatMap((t) => [t.realizedPL, t.commission, t.swap]));

  const bySymbol = new Map<string, ContractSize>();
  for (const t of trades)
    if (!bySymbol.has(t.symbol)) {
      const { size, known } = sizes(t.symbol, t.instrument);
      bySymbol.set(t.symbol, { symbol: t.symbol, instrument: t.instrument, contractSize: size, known });
    }

  // The sample's ids are named over the whole report (a reversal may pair a sampled trade with a later one).
  const sampled = trades.slice(0, IMPORT_SAMPLE_ROWS);
  const ids = importedTradeIds(trades);
  const sample: ImportedTrade[] = tradeInputs(sampled, sizes).map((t, i) => ({
    tradeId: ids[i]!,
    symbol: t.symbol,
    instrument: t.instrument,
    side: sampled[i]!.side,
    lots: t.lots,
    units: t.units,
    openTime: t.openTime,
    closeTime: t.closeTime!,
    price: t.price,
    averageClosePrice: t.averageClosePrice,
    stopLossPrice: t.stopLossPrice,
    takeProfitPrice: t.takeProfitPrice,
    commission: t.commission,
    swap: t.swap,
    realizedPL: t.realizedPL,
  }));

  let from: string | null = null;
  let to: string | null = null;
  for (const t of trades) {
    if (from === null || t.openTime < from) from = t.openTime;
    if (to === null || t.closeTime! > to) to = t.closeTime;
  }
  const totals = report.totals;
  const reportNetProfit = atPrecisionOf(totals.closedTradePL, net);

  const fixedOffset = brokerTime.rule === 'fixed' ? brokerTime.offset : null;
  return {
    brokerTime,
    mode,
    trades,
    openTrades,
    balanceOperations,
    account: {
      ...accountIdentity(report),
      name: report.account.name,
      currency: report.account.currency,
      balance: atPrecisionOf(totals.balance, net),
      equity: atPrecisionOf(totals.equity, net),
      floatingPL: atPrecisionOf(totals.floatingPL, net),
      closedPL: atPrecisionOf(totals.closedTradePL, net) ?? net,
      margin: atPrecisionOf(totals.margin, net),
      freeMargin: atPrecisionOf(totals.freeMargin, net),
      broker: report.account.broker,
      leverage: report.account.leverage,
      brokerTime: brokerTime.rule,
      utcOffset: fixedOffset,
      openTradeCount: report.openTrades.length,
      commission: trades.length ? sumDecimals(trades.map((t) => t.commission)) : null,
      swap: trades.length ? sumDecimals(trades.map((t) => t.swap)) : null,
    },
    preview: {
      account: {
        number: report.account.number,
        name: report.account.name,
        currency: report.account.currency,
        leverage: report.account.leverage,
        broker: report.account.broker,
        server: report.account.server,
        mode,
      },
      closedTrades: trades.length,
      openTrades: report.openTrades.length,
      balanceOperations: report.balanceOperations.length,
      skipped: report.skipped,
      from,
      to,
      netProfit: net,
      reportNetProfit,
      reportTotalExplained: explainReportTotal(report, net, reportNetProfit),
      warnings: report.warnings,
      brokerTime: brokerTime.rule,
      serverUtcOffset: fixedOffset,
      serverUtcOffsets: offsetsUsed([...trades, ...openTrades], brokerTime),
      contractSizes: [...bySymbol.values()],
      sample,
    },
  };
}
