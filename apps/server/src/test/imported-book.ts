import type { ImportedAccountInput, ImportedBalanceOperationInput, ImportedTradeInput } from '../modules/trading';

/*
 * What an import hands trading's storeImport (docs/decisions/012-metatrader-import.md), built for tests: an account,
 * its trades and its balance operations with plain defaults, each test naming only the fields it is about.
 */

/** A demo MetaTrader account (Broker-Demo, login 42) in USD, its server clock at UTC, nothing else known. */
export const importedAccount = (over: Partial<ImportedAccountInput> = {}): ImportedAccountInput => ({
  server: 'Broker-Demo',
  login: '42',
  mode: 'demo',
  name: null,
  currency: 'USD',
  balance: null,
  equity: null,
  floatingPL: null,
  closedPL: null,
  margin: null,
  freeMargin: null,
  broker: null,
  leverage: null,
  brokerTime: 'fixed',
  utcOffset: '+00:00',
  openTradeCount: 0,
  commission: null,
  swap: null,
  ...over,
});

/**
 * A closed EURUSD buy of one lot, 1.08000 → 1.08200 on 2026-11-02 08:00–10:00 UTC, +200.00, no stops, commission
 * or swap. Its server open time is the open time's UTC wall clock unless given (a server at UTC).
 */
export const importedTrade = (over: Partial<ImportedTradeInput> & Pick<ImportedTradeInput, 'ticket'>) => {
  const openTime = over.openTime ?? '2026-11-02T08:00:00Z';
  const trade: ImportedTradeInput = {
    symbol: 'EURUSD',
    instrument: 'EUR_USD',
    units: '100000',
    lots: '1.00',
    price: '1.08000',
    averageClosePrice: '1.08200',
    stopLossPrice: null,
    takeProfitPrice: null,
    openTime,
    closeTime: '2026-11-02T10:00:00Z',
    serverOpenTime: openTime.slice(0, 19),
    realizedPL: '200.00',
    commission: '0.00',
    swap: '0.00',
    ...over,
  };
  return trade;
};

/**
 * A balance operation (a deposit of 100.00 unless told) at `serverTime`, the server's clock at `utcOffset`
 * (`+HH:MM`); its UTC time follows from them.
 */
export const importedOperation = (
  over: Partial<ImportedBalanceOperationInput> & Pick<ImportedBalanceOperationInput, 'serverTime'>,
  utcOffset = '+00:00',
): ImportedBalanceOperationInput => ({
  ticket: null,
  type: 'balance',
  amount: '100.00',
  comment: null,
  time: new Date(`${over.serverTime}${utcOffset}`).toISOString(),
  ...over,
});

/** A trade of a server on UTC, opened and closed at these server times (`YYYY-MM-DDTHH:MM:SS`), with its P/L. */
export const closedAt = (
  ticket: string,
  open: string,
  close: string,
  realizedPL: string,
  more: Partial<ImportedTradeInput> = {},
) => importedTrade({ ticket, openTime: `${open}Z`, closeTime: `${close}Z`, serverOpenTime: open, realizedPL, ...more });
