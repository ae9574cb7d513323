import type { CashFlowItem } from '@pipsense/contract';

/**
 * What the rule engine reads (docs/rules.md, Inputs). The money module supplies them (docs/money.md): trades as
 * they book, the account's cash flows, and its equity over time. Times are UTC ISO-8601; amounts exact decimal
 * strings in the account currency.
 */

export type {
  DayRecord,
  Rule,
  RuleBreak,
  RuleEvaluation,
  RuleInput,
  RuleLine,
  RulePresetId,
  RuleSet,
  RuleSetInput,
  RuleStatus,
} from '@pipsense/contract';

/** One exit of a position: a partial close or the final one. */
interface RuleExit {
  time: string;
  /** What the exit books: its realized P/L plus its costs, as the money module books a close. */
  realizedPL: string;
}

export interface RuleTrade {
  /** The trade's key, named by the breaks of trade-level rules. */
  key: string;
  instrument: string;
  openTime: string;
  /** The final close; null while the position is open. */
  closeTime: string | null;
  /**
   * What the trade books at its close: its realized P/L plus its financing (commission and swap) as the money
   * module books it (docs/money.md, What a trade books). Not read while the trade is open.
   */
  realizedPL: string;
  /**
   * The risk taken at the open, in the account currency: units × |entry − initial stop| converted by the caller;
   * null when the trade had no stop (max_risk_per_trade then says nothing of it).
   */
  riskAtOpen: string | null;
  /**
   * Partial closes, each on its own day (docs/reference/prop-firms.md §8.9, item 10). When given they replace the
   * one booking of `realizedPL` at `closeTime`; the last is the final close.
   */
  exits?: RuleExit[];
}

/** The contract's cash-flow types: deposit, withdrawal, credit, financing, fee, adjustment. */
export type RuleCashFlowType = CashFlowItem['type'];

export interface RuleCashFlow {
  time: string;
  type: RuleCashFlowType;
  /** Signed (a withdrawal is negative). */
  amount: string;
}

export interface RuleEquityPoint {
  time: string;
  /** The account's equity E(t) as the money module answers it (balance operations included); null: unknown. */
  equity: string | null;
}

interface RuleEquitySeries {
  points: RuleEquityPoint[];
  /** The money module's `equityComplete`: false while a rebuild runs or where some equity is unknown. */
  equityComplete: boolean;
  /**
   * true when the account has no equity source at all (an import without a candle source): the closed-only basis,
   * on which equity is known only while no position is open (docs/reference/prop-firms.md §8.9, item 9).
   */
  equityUnknown: boolean;
}

export interface RuleInputs {
  /** The account currency: every amount is in it. */
  currency: string;
  trades: RuleTrade[];
  cashFlows: RuleCashFlow[];
  equity: RuleEquitySeries;
}
