/**
 * What the money module reads, as small ports (docs/money.md, Sources): each is wired in app.ts to the module
 * owning the data, and the tests hand in fakes. The module owns no table.
 */

/** A booked movement of an account's balance that is not a trade's own P/L (contract MONEY_CASH_FLOW_TYPES). */
export type CashFlowType = 'deposit' | 'withdrawal' | 'credit' | 'financing' | 'fee' | 'adjustment';

export interface CashFlow {
  accountKey: string;
  /** UTC, ISO-8601. */
  time: string;
  type: CashFlowType;
  /** Signed exact decimal in the account's currency (a withdrawal is negative). */
  amount: string;
  currency: string | null;
  comment: string | null;
}

/** The account's deposits, withdrawals, credits, financing, fees and adjustments, every platform. */
export interface CashFlowSource {
  cashFlows(userId: string, filter: { accountKey: string; from?: string; to?: string }): Promise<CashFlow[]>;
}

/** One reading of the account as the broker reported it (NAV is the equity). */
export interface EquitySample {
  accountKey: string;
  time: string;
  nav: string;
  balance: string | null;
  unrealizedPL: string | null;
}

export interface EquitySampleSource {
  equitySamples(userId: string, accountKey: string, from?: string, to?: string): Promise<EquitySample[]>;
}

export type CandleGranularity = 'M1' | 'M5' | 'H1';

/** A complete mid candle as the candle store keeps it: its start time (UTC) and close, an exact decimal string. */
export interface MoneyCandle {
  time: string;
  c: string;
}

export interface CandleSource {
  /** Whether candles can be read for this user at all (an OANDA connection); false: equity between closes is unknown. */
  canRead(userId: string): Promise<boolean>;
  read(request: {
    userId: string;
    instrument: string;
    granularity: CandleGranularity;
    from: string;
    to: string;
    priority: 'interactive' | 'rebuild' | 'batch';
  }): Promise<MoneyCandle[]>;
}

/** A trade as B(t) and E(t) read it (through the read side of trades, docs/decisions/021). */
export interface MoneyTrade {
  tradeId: string;
  instrument: string;
  /** Open price. */
  price: string | null;
  /** Signed units: initial for a closed trade, current for an open one. */
  units: string;
  state: string;
  openTime: string;
  closeTime: string | null;
  realizedPL: string;
  /** OANDA: financing paid over the trade's life; MetaTrader: commission + swap (decision 012). */
  financing: string;
}

/** An account's closed trades as B(t) books them, as columns (the read side's narrow read), oldest close first. */
export interface ClosedTrades {
  /** Close times, epoch milliseconds, in order. */
  closeAt: Float64Array;
  /** Minor units of the account currency (domain/money.ts). */
  realizedPL: Float64Array;
  financing: Float64Array;
}

export interface TradeSource {
  /** The closed trades: what B(t) books (docs/money.md, What a trade books). */
  closed(userId: string, accountKey: string): Promise<ClosedTrades>;
  /** The open time of the account's first trade, open or closed (null: none): where a range without `from` starts. */
  firstOpenTime(userId: string, accountKey: string): Promise<string | null>;
  /** Every trade, open or closed: the positions E(t) is rebuilt from (read only when candles are). */
  trades(userId: string, accountKey: string): Promise<MoneyTrade[]>;
}

/** A fill that reduced a trade before its close (an OANDA partial close): booked at its own time. */
export interface MoneyPartialClose {
  tradeId: string;
  /** UTC, ISO-8601. */
  time: string;
  /** Units closed, as the broker gives them (a long's reduction is negative). */
  units: string;
  /** Exact decimals in the account currency. */
  realizedPL: string;
  financing: string;
  /** The trade's close time; null while the trade is open. */
  tradeCloseTime: string | null;
}

export interface PartialCloseSource {
  /** The account's partial closes, oldest first (none for a platform that does not tell them). */
  partialCloses(userId: string, accountKey: string): Promise<MoneyPartialClose[]>;
}

/** An account as the API names it (its login or key, as the trade filter), with its key and currency. */
export interface AccountSource {
  /** The accounts of the user that `accountId` names (none, one, or more when a login repeats across servers). */
  named(
    userId: string,
    accountId: string,
  ): Promise<Array<{ accountKey: string; currency: string | null; alias?: string | null }>>;
}
