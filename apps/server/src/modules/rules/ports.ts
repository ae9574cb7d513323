import type { DailyRates } from '../../domain/currency-totals';
import type { RuleCashFlow } from './engine';

/**
 * What the rules module reads, as small ports wired in app.ts to the modules owning the data (docs/rules.md,
 * Inputs): the account named by the API, its trades through the read side, its cash flows through trading, its
 * balance and equity through the money module. The module owns only its rule sets.
 */

/** A trade as the read side gives it, with the first stop-loss kept for R (domain/risk.ts). */
export interface RuleTradeFacts {
  tradeId: string;
  instrument: string;
  price: string | null;
  initialUnits: string;
  realizedPL: string;
  financing: string;
  openTime: string;
  closeTime: string | null;
  averageClosePrice: string | null;
  initialStopLossPrice: string | null;
}

export interface RuleSources {
  /** The accounts of the user that `accountId` (a key or a login) names, with their currency. */
  named(userId: string, accountId: string): Promise<Array<{ accountKey: string; currency: string | null }>>;
  trades(userId: string, accountKey: string): Promise<RuleTradeFacts[]>;
  cashFlows(userId: string, accountKey: string): Promise<RuleCashFlow[]>;
  /**
   * The version of the user's stored trades and accounts (db/data-versions.ts): it moves with every write of what
   * the engine reads of them (a sync, an import), so breaks computed at one version stand until it moves.
   */
  dataVersion(userId: string): Promise<string>;
  /** The daily rates between currencies (the Overview's), for the risk of a trade on a cross; none: not judged. */
  rates?(userId: string): DailyRates;
  /** The money module's balance history by trade up to `to`: B(t) and E(t) at each booking. */
  balanceHistory(
    userId: string,
    accountKey: string,
    to: string,
  ): Promise<{
    points: Array<{ time: string; balance: string; equity: string | null; equitySource: string | null }>;
    equityComplete: boolean;
  }>;
}
