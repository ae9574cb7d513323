import { formatMinorUnits, minorUnitsOf } from '../domain/money';
import type {
  RuleCashFlow,
  RuleEquityPoint,
  RuleInput,
  RuleInputs,
  RuleLine,
  RuleSetInput,
  RuleTrade,
} from '../modules/rules/engine';

/** Inputs of the rule engine's tests (modules/rules/engine): trades, cash flows and equity written short. */

/** An amount as the engine answers it: '95000' → '95000.0000'. */
export const m = (amount: string): string => formatMinorUnits(minorUnitsOf(amount));

/** A closed trade (closeTime null: still open). */
export function trade(
  key: string,
  openTime: string,
  closeTime: string | null,
  realizedPL = '0',
  more: Partial<RuleTrade> = {},
): RuleTrade {
  return { key, instrument: 'EUR_USD', openTime, closeTime, realizedPL, riskAtOpen: null, ...more };
}

/** A trade opened at 10:00 UTC and closed at 11:00 UTC on a date. */
export const closedOn = (key: string, date: string, pnl: string): RuleTrade =>
  trade(key, `${date}T10:00:00Z`, `${date}T11:00:00Z`, pnl);

/** The line of a rule kind (the first) among a status's or a day's lines. */
export const lineOf = (lines: RuleLine[], kind: RuleLine['kind']): RuleLine => lines.find((l) => l.kind === kind)!;

export const point = (time: string, equity: string | null): RuleEquityPoint => ({ time, equity });

export function inputs(
  parts: {
    trades?: RuleTrade[];
    cashFlows?: RuleCashFlow[];
    points?: RuleEquityPoint[];
    /** No equity source: the closed-only basis. */
    closedOnly?: boolean;
    equityComplete?: boolean;
  } = {},
): RuleInputs {
  return {
    currency: 'USD',
    trades: parts.trades ?? [],
    cashFlows: parts.cashFlows ?? [],
    equity: {
      points: parts.points ?? [],
      equityComplete: parts.equityComplete ?? !parts.closedOnly,
      equityUnknown: parts.closedOnly ?? false,
    },
  };
}

export function ruleSet(
  rules: RuleInput[],
  phase: { startTime: string; initialBalance?: string; name?: string },
): RuleSetInput {
  return {
    accountId: 'acc-1',
    name: phase.name ?? 'test',
    startTime: phase.startTime,
    initialBalance: phase.initialBalance ?? '100000',
    rules,
  };
}
