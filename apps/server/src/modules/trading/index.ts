/** Trading's public face: what app.ts wires and what other modules may use (docs/ARCHITECTURE.md). */
export { createTradingService, type TradingService } from './trading.service';
/**
 * Money over time (docs/decisions/022-transaction-store.md): the service's `cashFlows(userId, {accountKey?, from?,
 * to?})` and `equitySamples(userId, accountKey, from?, to?)` answer these shapes.
 */
export { tradingRoutes } from './trading.routes';
export { createExcursionJob } from './excursions-job';
/** Whether OANDA can have candles for a trade (an OANDA trade, or an import mapped to an OANDA instrument). */
export { hasOandaCandles } from './excursions-job';
/** Other modules name a trade's account as the API does (`accountId`: OANDA's login, a MetaTrader account's key). */
export { apiAccountId, accountKeysNamed, isAccountNamed } from './account-key';
/** The key of an account as the API lists it: what the money module names accounts by. */
export { accountKeyOf } from './account-key';
/** A stored trade as the API shows it (the trade views map the rows they read with it). */
export { toTradeItem } from './broker-data';
/**
 * What the import hands over to storeImport. Its trades are named by domain/imported-trade-ids.ts, the rule the
 * import's preview names its sample by too.
 */
export type { ImportedAccountInput, ImportedBalanceOperationInput, ImportedTradeInput } from './metatrader-store';
export { tradingUserData, type TradingDb, type TradingTables } from './tables';
