import { formatMinorUnits, minorUnitsOf } from '../domain/money';
import type {
  RuleCashFlow,
  RuleEquityPoint,
  RuleInput,
  RuleInputs,
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
