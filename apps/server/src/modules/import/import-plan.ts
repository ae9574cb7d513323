import {
  IMPORT_SAMPLE_ROWS,
  type ContractSize,
  type ImportedTrade,
  type ImportFormat,
  type ImportPreview,
  type Mode,
} from '@pipsense/contract';
import {
  compareDecimals,
  decimalPlaces,
  multiplyDecimals,
  negateDecimal,
  roundDecimal,
  sumDecimals,
  trimDecimal,
} from '../../domain/decimal';
import { serverOffsetAt, serverTimesToUtc, type BrokerTime } from '../../domain/broker-time';
import { importedTradeIds, type ImportedAccountInput, type ImportedTradeInput } from '../trading';
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

/** A closed trade in UTC, before its units (which depend on contract sizes the trader may still correct). */
export interface PlannedTrade {
  row: number;
  ticket: string;
  symbol: string;
  instrument: string;
  side: 'buy' | 'sell';
  lots: string;
  /** UTC, stored form. */
  openTime: string;
  closeTime: string;
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
    closeTime: utc.closeTime!,
    serverOpenTime: t.openTime,
    price: t.openPrice,
    averageClosePrice: t.closePrice,
    stopLossPrice: t.sl,
    takeProfitPrice: t.tp,
    // MT4 taxes and the MT5 fee are charges like the commission: kept with it (the trade's costs apart from swap).
    commission: t.taxes && t.taxes !== '0' ? sumDecimals([t.commission, t.taxes]) : t.commission,
    swap: t.swap,
    realizedPL: t.profit,
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

/** What a preview keeps until confirm (table `imports`, as JSON): the plan without the sample (the trades are in it). */
export interface Payload {
  format: ImportFormat;
  mode: Mode | null;
  account: ImportPlan['account'];
  trades: PlannedTrade[];
}

export interface ImportPlan {
  brokerTime: BrokerTime;
  /** From the report, else the account's remembered mode; null: ask. */
  mode: Mode | null;
  trades: PlannedTrade[];
  account: Omit<ImportedAccountInput, 'mode'>;
  preview: ImportPreview;
}

/** The offsets a rule read the trades at, in order ('+02:00', '+03:00'). */
function offsetsUsed(trades: readonly PlannedTrade[], time: BrokerTime): string[] {
  if (time.rule === 'fixed') return [time.offset];
  const seen = new Set<string>();
  for (const t of trades) for (const at of [t.openTime, t.closeTime]) seen.add(serverOffsetAt(Date.parse(at), time));
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
  const utc = serverTimesToUtc(report.closedTrades, brokerTime);
  const trades = report.closedTrades.map((t, i) => planTrade(t, utc[i]!));
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
    closeTime: t.closeTime,
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
    if (to === null || t.closeTime > to) to = t.closeTime;
  }
  const totals = report.totals;

  const fixedOffset = brokerTime.rule === 'fixed' ? brokerTime.offset : null;
  return {
    brokerTime,
    mode,
    trades,
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
      reportNetProfit: atPrecisionOf(totals.closedTradePL, net),
      brokerTime: brokerTime.rule,
      serverUtcOffset: fixedOffset,
      serverUtcOffsets: offsetsUsed(trades, brokerTime),
      contractSizes: [...bySymbol.values()],
      sample,
    },
  };
}
