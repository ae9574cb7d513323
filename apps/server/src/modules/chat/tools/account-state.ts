import type { AccountItem } from '@pipsense/contract';
import { sumMoney } from '../../../domain/money';
import { round } from '../../../domain/rounding';
import { isDecimal } from '../../../domain/decimal';

export interface AccountState {
  accountId: string;
  alias: string | null;
  currency: string | null;
  balance: string | null;
  NAV: string | null;
  unrealizedPL: string | null;
  marginUsed: string | null;
  marginAvailable: string | null;
  /** Margin used as a percent of NAV, 2 decimals; null when NAV is unknown or zero. */
  marginUtilisation: number | null;
  /** OANDA's margin closeout percent as a percent, 2 decimals (liquidation starts at 100). */
  marginCloseoutPercent: number | null;
  openTradeCount: number | null;
  openPositionCount: number | null;
  pendingOrderCount: number | null;
}

export interface CurrencyTotals {
  currency: string | null;
  accounts: number;
  balance: string;
  NAV: string;
  unrealizedPL: string;
  marginUsed: string;
  marginAvailable: string;
  marginUtilisation: number | null;
}

function utilisation(marginUsed: string | null, nav: string | null): number | null {
  if (!isDecimal(marginUsed) || !isDecimal(nav)) return null;
  const n = Number(nav);
  return n > 0 ? round((Number(marginUsed) / n) * 100, 2) : null;
}

export function accountState(a: AccountItem): AccountState {
  return {
    accountId: a.oandaAccountId,
    alias: a.alias,
    currency: a.currency,
    balance: a.balance,
    NAV: a.NAV,
    unrealizedPL: a.unrealizedPL,
    marginUsed: a.marginUsed,
    marginAvailable: a.marginAvailable,
    marginUtilisation: utilisation(a.marginUsed, a.NAV),
    // OANDA sends it as a fraction (0.0125 = 1.25 %).
    marginCloseoutPercent: isDecimal(a.marginCloseoutPercent) ? round(Number(a.marginCloseoutPercent) * 100, 2) : null,
    openTradeCount: a.openTradeCount,
    openPositionCount: a.openPositionCount,
    pendingOrderCount: a.pendingOrderCount,
  };
}

/** Money is summed exactly in minor units (domain/money.ts), as everywhere else. */
const sum = (values: Array<string | null>) => sumMoney(values.filter(isDecimal));

/** Totals of the accounts that share a currency; amounts in different currencies are never added. */
export function currencyTotals(accounts: ReadonlyArray<AccountState>): CurrencyTotals[] {
  const groups = new Map<string | null, AccountState[]>();
  for (const a of accounts) groups.set(a.currency, [...(groups.get(a.currency) ?? []), a]);
  return [...groups].map(([currency, list]) => {
    const marginUsed = sum(list.map((a) => a.marginUsed));
    const nav = sum(list.map((a) => a.NAV));
    return {
      currency,
      accounts: list.length,
      balance: sum(list.map((a) => a.balance)),
      NAV: nav,
      unrealizedPL: sum(list.map((a) => a.unrealizedPL)),
      marginUsed,
      marginAvailable: sum(list.map((a) => a.marginAvailable)),
      marginUtilisation: utilisation(marginUsed, nav),
    };
  });
}
