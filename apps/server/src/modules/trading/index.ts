/** Trading's public face: what app.ts wires and what other modules may use (docs/ARCHITECTURE.md). */
export { createTradingService, type TradingService } from './trading.service';
export { tradingRoutes } from './trading.routes';
export { createExcursionJob } from './excursions-job';
/** Other modules name a trade's account as the API does (`accountId`), and an imported account by the same rule. */
export { apiAccountId, metatraderAccount } from './account-key';
export type { TradeQuery } from './trade-query.repository';
export type { ImportedAccountInput, ImportedTradeInput } from './metatrader-store';
export {
  tradingUserData,
  type TradeListReads,
  type TradingDb,
  type TradingServiceDb,
  type TradingTables,
} from './tables';
