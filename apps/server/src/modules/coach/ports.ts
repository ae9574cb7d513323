import type { TradeListItem, TradePlaybook } from '@pipsense/contract';
import type { LlmProvider } from '../../integrations/llm';

/** A trade as the API names it (`accountId`: OANDA's login or an imported account's key). */
export interface TradeRef {
  accountId: string;
  tradeId: string;
}

/** A trade's stored keys, and its account as the API names it (trading's `apiAccountId`). */
export interface OwnedTrade {
  accountKey: string;
  tradeId: string;
  accountId: string;
}

/** A trade of the user as totals read it: enough to find its instrument and the losses before an entry. */
export interface TradeFigure {
  accountId: string;
  tradeId: string;
  instrument: string;
  realizedPL: string;
  financing: string;
  closeTime: string | null;
}

/** A candle of the candle store (prices as OANDA's decimal strings). */
export interface CoachCandle {
  time: string;
  h: string;
  l: string;
  c: string;
  complete: boolean;
}

/**
 * What the coach's trade reviews read from other modules (docs/coach.md), wired in app.ts: trades through trading
 * (ownership) and the read side, candles through the candle store, the playbook review through the playbooks, the
 * personal rules through the rules, the provider through the settings.
 */
export interface CoachTradePorts {
  /** The user's trade; rejects with a 404 when it is not among the user's trades (trading's `ownedTrades`). */
  ownedTrade(userId: string, ref: TradeRef): Promise<OwnedTrade>;
  /** Every trade of the user on one instrument as the trade list shows it (the read side). */
  tradesOn(userId: string, instrument: string): Promise<TradeListItem[]>;
  /** Every trade of the user, oldest first (the read side's figures). */
  tradeFigures(userId: string): Promise<TradeFigure[]>;
  /**
   * The mid candles of the trade's instrument overlapping [from, to), read through the candle store (only the
   * missing spans fetched, within the token's budget): at the interactive priority for a trader waiting, at the
   * batch one (waiting for its places) in the background. Null when the trade has no candle source (no OANDA connection, or a symbol OANDA
   * does not quote).
   */
  candles(
    userId: string,
    trade: Pick<TradeListItem, 'platform' | 'instrument'>,
    request: { granularity: 'H1' | 'H4'; from: string; to: string; background: boolean },
  ): Promise<CoachCandle[] | null>;
  /** The trade's playbook review (playbooks' `tradePlaybook`). */
  playbookReview(userId: string, ref: TradeRef): Promise<TradePlaybook | null>;
  /** Whether the user's rule sets have a trade-level rule (the rules' break index). */
  hasPersonalRules(userId: string): Promise<boolean>;
  /** The behaviour patterns that flag the trade; none when left unwired. */
  patternsOfTrade?: ((userId: string, ref: TradeRef) => Promise<string[]>) | undefined;
  /** The provider of the user's default AI platform (as the chat and the insights pick it), undefined without one. */
  provider(userId: string): Promise<LlmProvider | undefined>;
}
