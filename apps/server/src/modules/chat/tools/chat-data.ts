import type { DailyRates } from '../../../domain/currency-totals';
import type { AccountItem, CandlesResult, Mode, TagFacts, TradeItem } from '@pipsense/contract';
import type { JournalSnapshot, TagComparisonRequest } from './journal';
import type { PerformanceResult } from './performance';
import type { BreakTrade } from './rule-status';
import type { ResolvedPeriod } from './periods';
import type { TradeQuestion, TradeQueryResult } from './trade-query';

/**
 * Where the numbers of an answer come from: OANDA just now, or the last sync (and why OANDA was not
 * asked). Answers say which, so a trader never mistakes an hour-old balance for a live one.
 */
export type DataOrigin =
  | { kind: 'oanda'; at: string }
  /**
   * The user's default trading platform is MetaTrader: everything comes from the stored import, never
   * from a live call; `at` is when the newest import of the mode was stored (null: nothing imported).
   */
  | { kind: 'import'; platform: 'MetaTrader'; at: string | null }
  | {
      kind: 'sync';
      /** When the data was last synced; null when it never was. */
      at: string | null;
      /**
       * not_connected: no OANDA credentials; other_mode: the credentials are for the other mode;
       * oanda_failed: OANDA was asked and failed (`detail` says how); not_asked: live data was not needed.
       */
      reason: 'not_connected' | 'other_mode' | 'oanda_failed' | 'not_asked';
      detail?: string;
    };

export interface TradesSnapshot {
  /** The user's trades in the mode: closed ones from the last sync, open ones from `openOrigin`. */
  trades: TradeItem[];
  openOrigin: DataOrigin;
  /** When the trade history of the mode was last synced; null when never. */
  historySyncedAt: string | null;
  /** Account currency by OANDA account id, where known. */
  currencies: Record<string, string>;
}

/** Where an answer's numbers come from, and whether the mode has any trade at all. */
interface TradeSource {
  openOrigin: DataOrigin;
  /** When the trade history of the mode was last synced; null when never. */
  historySyncedAt: string | null;
  /** No trade to read: nothing stored for the mode (nor open at OANDA when it was asked). */
  empty: boolean;
}

export interface TradesAnswer extends TradeSource {
  result: TradeQueryResult;
}

export interface PerformanceAnswer extends TradeSource {
  result: PerformanceResult;
}

export interface PerformanceRequest {
  period: ResolvedPeriod;
  instrument?: string | undefined;
}

export interface TagComparisonAnswer extends TradeSource {
  result: TagFacts[];
}

interface AccountsSnapshot {
  accounts: AccountItem[];
  origin: DataOrigin;
}

export interface CandleRequest {
  instrument: string;
  granularity: string;
  count: number;
}

/**
 * What the assistant's tools read, always for the signed-in user. Implemented over the trading
 * service (trading-chat-data.ts); tests may give fixtures. Failures are AppErrors with a message
 * for the trader (OANDA not connected, token refused, OANDA unreachable).
 */
export interface ChatData {
  /**
   * The trades that match, the top `filter.limit` of them listed, totals over all. `liveOpen`: take the open
   * trades from OANDA when the credentials are for this mode (else the sync's).
   */
  queryTrades(userId: string, mode: Mode, filter: TradeQuestion, options: { liveOpen: boolean }): Promise<TradesAnswer>;
  /** Results of the stored trades closed in the period. */
  performance(userId: string, mode: Mode, request: PerformanceRequest): Promise<PerformanceAnswer>;
  /** From OANDA when the credentials are for this mode, else the last sync. */
  accounts(userId: string, mode: Mode): Promise<AccountsSnapshot>;
  /** The trader's journal: tags, tagged trades, notes, initial stops. */
  journal(userId: string): Promise<JournalSnapshot>;
  /** Per tag, the stored trades closed in the period (journal.ts compareTagsOf). */
  compareTags(
    userId: string,
    mode: Mode,
    request: TagComparisonRequest,
    journal: JournalSnapshot,
  ): Promise<TagComparisonAnswer>;
  /** Mid-price candles from OANDA with the user's credentials, oldest first. */
  candles(userId: string, request: CandleRequest): Promise<CandlesResult>;
  /** The stored trades of one account (its key), any mode: the P/L of trades that broke a rule (rule-status.ts). */
  accountTrades?(userId: string, accountKey: string): Promise<BreakTrade[]>;
  /**
   * The trader's home currency and daily rates, for totals over accounts of several currencies
   * (domain/currency-totals.ts); without it such totals are listed per currency.
   */
  currencyRule?(userId: string): Promise<{ home: string; rates: DailyRates }>;
}
