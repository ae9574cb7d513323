import {
  IMPORT_SAMPLE_ROWS,
  type ContractSize,
  type ImportedTrade,
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
import { normaliseDateTime } from '../../integrations/oanda/datetime';
import type { ImportedAccountInput, ImportedTradeInput } from '../trading';
import type { ParsedReport, ParsedTrade } from './parse/types';
import { contractSizeOf, instrumentOf } from './symbols';

/*
 * From a parsed report to what the import stores (pure): broker server time to UTC, the instrument and units of
 * each trade, the trade ids, the account, and the preview the trader confirms.
 */

/** `2024.03.01T10:00:00`-style server time (the parsers' form) at `offset` → OANDA's canonical UTC form. */
export function serverTimeToUtc(serverTime: string, offset: string): string {
  const utc = normaliseDateTime(`${serverTime}${offset === '+00:00' ? 'Z' : offset}`);
  if (!utc) throw new Error(`not a server time: ${serverTime}`);
  return utc;
}

/** Units per lot of a symbol: the trader's correction, else the built-in table. */
export type ContractSizes = (symbol: string, instrument: string) => { size: string; known: boolean };

export function contractSizesWith(corrections: ReadonlyMap<string, string>): ContractSizes {
  return (symbol, instrument) => {
    const own = corrections.get(symbol.toUpperCase());
    return own ? { size: own, known: true } : contractSizeOf(symbol, instrument);
  };
}

/**
 * One trade id per closed trade: the MT4 ticket or MT5 position id; where one id covers more than one trade in the
 * report (an MT5 netting reversal), each gets its open time: `<id>@<open time>` (modules/trading/account-key.ts).
 * The trading module applies the same rule against stored trades.
 */
export function tradeIds(trades: ReadonlyArray<{ ticket: string; openTime: string }>): string[] {
  const seen = new Map<string, number>();
  for (const t of trades) seen.set(t.ticket, (seen.get(t.ticket) ?? 0) + 1);
  return trades.map((t) => ((seen.get(t.ticket) ?? 0) > 1 ? `${t.ticket}@${t.openTime}` : t.ticket));
}

/** A closed trade in UTC, before its units (which depend on contract sizes the trader may still correct). */
export interface PlannedTrade {
  row: number;
  ticket: string;
  symbol: string;
  instrument: string;
  side: 'buy' | 'sell';
  lots: string;
  openTime: string;
  closeTime: string;
  price: string;
  averageClosePrice: string | null;
  stopLossPrice: string | null;
  takeProfitPrice: string | null;
  commission: string;
  swap: string;
  realizedPL: string;
}

function planTrade(t: ParsedTrade, offset: string): PlannedTrade {
  return {
    row: t.row,
    ticket: t.ticket,
    symbol: t.symbol,
    instrument: instrumentOf(t.symbol),
    side: t.side,
    lots: t.lots,
    openTime: serverTimeToUtc(t.openTime, offset),
    closeTime: serverTimeToUtc(t.closeTime!, offset),
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

/** The trades to store: ids, and units = lots × contract size (negative for a sell, as OANDA's). */
export function tradeInputs(
  planned: readonly PlannedTrade[],
  sizes: ContractSizes,
  ids: readonly string[] = tradeIds(planned),
): ImportedTradeInput[] {
  return planned.map((t, i) => {
    const units = trimDecimal(multiplyDecimals(t.lots, sizes(t.symbol, t.instrument).size));
    return {
      ticket: ids[i]!,
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
      realizedPL: t.realizedPL,
      commission: t.commission,
      swap: t.swap,
    };
  });
}

/** Where an account of a report lives: its login and the broker's server (MT4 and CSV files name no server). */
export function accountIdentity(report: ParsedReport): { server: string; login: string } {
  const server = (report.account.server ?? report.account.broker ?? report.format).trim() || report.format;
  const login = (report.account.number ?? '').replace(/:/g, '').trim() || 'imported';
  return { server, login };
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

export interface ImportPlan {
  identity: { server: string; login: string };
  offset: string;
  /** From the report, else the account's remembered mode; null: ask. */
  mode: Mode | null;
  trades: PlannedTrade[];
  account: Omit<ImportedAccountInput, 'mode'>;
  preview: ImportPreview;
}

/** The report at `offset`, with `sizes`, as a plan: what confirm stores and the preview the trader sees. */
export function planImport(
  report: ParsedReport,
  options: { offset: string; rememberedMode: Mode | null; sizes: ContractSizes },
): ImportPlan {
  const { offset, sizes } = options;
  const trades = report.closedTrades.map((t) => planTrade(t, offset));
  const identity = accountIdentity(report);
  const mode = report.account.mode ?? options.rememberedMode;
  const net = sumDecimals(trades.flatMap((t) => [t.realizedPL, t.commission, t.swap]));

  const bySymbol = new Map<string, ContractSize>();
  for (const t of trades)
    if (!bySymbol.has(t.symbol)) {
      const { size, known } = sizes(t.symbol, t.instrument);
      bySymbol.set(t.symbol, { symbol: t.symbol, instrument: t.instrument, contractSize: size, known });
    }

  // The sample's ids follow the whole report's rule (a reversal may pair a sampled trade with a later one).
  const sampled = trades.slice(0, IMPORT_SAMPLE_ROWS);
  const inputs = tradeInputs(sampled, sizes, tradeIds(trades).slice(0, sampled.length));
  const sample: ImportedTrade[] = inputs.map((t, i) => ({
    tradeId: t.ticket,
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

  return {
    identity,
    offset,
    mode,
    trades,
    account: {
      ...identity,
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
      utcOffset: offset,
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
      serverUtcOffset: offset,
      contractSizes: [...bySymbol.values()],
      sample,
    },
  };
}
