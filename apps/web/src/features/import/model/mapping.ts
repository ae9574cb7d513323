import { CSV_FIELD_LABELS, CSV_FIELDS, type CsvField } from '@pipsense/contract';

const squash = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '');

/** Header words that usually name each field in brokers' and journals' exports. */
const USUAL_HEADERS: Record<CsvField, readonly string[]> = {
  ticket: ['ticket', 'position', 'order', 'deal', 'id', 'tradeid', 'positionid'],
  openTime: ['opentime', 'timeopen', 'opendate', 'entrytime', 'opened', 'open'],
  closeTime: ['closetime', 'timeclose', 'closedate', 'exittime', 'closed', 'close'],
  symbol: ['symbol', 'instrument', 'item', 'pair', 'market'],
  side: ['type', 'side', 'direction', 'action', 'buysell'],
  volume: ['volume', 'lots', 'size', 'lot', 'quantity', 'qty'],
  openPrice: ['openprice', 'priceopen', 'entryprice', 'entry'],
  closePrice: ['closeprice', 'priceclose', 'exitprice', 'exit'],
  stopLoss: ['sl', 'stoploss', 'stop'],
  takeProfit: ['tp', 'takeprofit', 'target'],
  profit: ['profit', 'pl', 'pnl', 'profitloss', 'netprofit', 'result'],
  commission: ['commission', 'comm', 'commissions'],
  swap: ['swap', 'swaps', 'rollover', 'financing'],
  fees: ['fees', 'fee', 'taxes', 'tax'],
};

/** A first guess of which header is which field (each header used once), for the trader to correct. */
export function guessColumns(headers: readonly string[]): Partial<Record<CsvField, string>> {
  const guess: Partial<Record<CsvField, string>> = {};
  const used = new Set<string>();
  for (const field of CSV_FIELDS) {
    const names = [...USUAL_HEADERS[field], squash(CSV_FIELD_LABELS[field])];
    const header = headers.find((h) => !used.has(h) && names.includes(squash(h)));
    if (header !== undefined) {
      guess[field] = header;
      used.add(header);
    }
  }
  return guess;
}
