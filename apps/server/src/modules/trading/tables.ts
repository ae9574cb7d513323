import { userRowsDeletion } from '../../db/user-data';
import type { DataVersionsTables } from '../../db/data-versions';
import type { Database } from '../../db/schema';

/** The tables trading owns: no other module writes them (db/slice.ts). */
export type TradingTables = Pick<
  Database,
  'broker_accounts' | 'trades' | 'balance_operations' | 'account_transactions' | 'equity_samples' | 'trade_reductions'
>;

/** Trading's slice with the shared counters it moves inside its own transactions (db/data-versions.ts). */
export type TradingDb = TradingTables & DataVersionsTables;

/** The module's part of an account's deletion (db/user-data.ts): the user's rows of its tables. */
export const tradingUserData = userRowsDeletion<TradingTables>([
  'broker_accounts',
  'trades',
  'balance_operations',
  'account_transactions',
  'equity_samples',
  'trade_reductions',
]);
