import type { ImportedAccountInput, ImportedTradeInput } from '../modules/trading';

/*
 * An imported MetaTrader account and its trades as an import hands them to trading's storeImport (the parsed report),
 * for the tests that store a book through it: each gives what it is about, the rest is a plain default.
 */

/** An account summary: a demo account with the report's figures unknown, its broker clock at UTC. */
export function importedAccount(
  account: Partial<ImportedAccountInput> & Pick<ImportedAccountInput, 'server' | 'login' | 'currency'>,
): ImportedAccountInput {
  return {
    mode: 'demo',
    name: null,
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
    ...account,
  };
}

/** A closed 1-lot EUR/USD long of 11-02 08:00–10:00 UTC, +200.00, without commission or swap. */
export function importedTrade(
  trade: Partial<ImportedTradeInput> & Pick<ImportedTradeInput, 'ticket'>,
): ImportedTradeInput {
  return {
    symbol: 'EURUSD',
    instrument: 'EUR_USD',
    units: '100000',
    lots: '1.00',
    price: '1.08000',
    averageClosePrice: '1.08200',
    stopLossPrice: null,
    takeProfitPrice: null,
    openTime: '2026-11-02T08:00:00Z',
    closeTime: '2026-11-02T10:00:00Z',
    serverOpenTime: '2026-11-02T08:00:00',
    realizedPL: '200.00',
    commission: '0.00',
    swap: '0.00',
    ...trade,
  };
}
