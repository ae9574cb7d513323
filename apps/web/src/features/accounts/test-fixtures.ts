import {
  balanceHistoryResponse,
  cashFlowsResponse,
  returnsResponse,
  type BalancePoint,
  type CashFlowItem,
  type CashFlowsResponse,
  type BalanceHistoryResponse,
  type ReturnsResponse,
} from '@pipsense/contract';

/** The account fixtures live in test/ (the Settings screen lists imported accounts too). */
export * from '../../test/account-fixtures';

/** The money routes of an account (docs/PRODUCT.md, Account money). */
export const CASH_FLOWS = '/api/v1/money/get_cash_flows';
export const HISTORY = '/api/v1/money/get_balance_history/:accountId';
export const RETURNS = '/api/v1/money/get_returns';

/** A cash flow as the server sends it: a 10,000.00 USD deposit unless told. */
export function cashFlow(overrides: Partial<CashFlowItem> = {}): CashFlowItem {
  return {
    accountId: '101-004-27183640-001',
    time: '2025-01-02T09:00:00.000000000Z',
    type: 'deposit',
    amount: '10000.0000',
    currency: 'USD',
    comment: null,
    ...overrides,
  };
}

export const cashFlowsBody = (data: CashFlowItem[]): CashFlowsResponse =>
  cashFlowsResponse.parse({ success: true, message: `${data.length} cash flows`, data });

/** A point of the history: equity as given (null: not known, no source). */
export function point(time: string, balance: string, equity: string | null = balance): BalancePoint {
  return { time, balance, equity, equitySource: equity === null ? null : 'sample' };
}

export const historyBody = (points: BalancePoint[], currency: string | null = 'USD'): BalanceHistoryResponse =>
  balanceHistoryResponse.parse({
    success: true,
    message: `${points.length} points`,
    data: { currency, points, equityComplete: points.every((p) => p.equity !== null) },
  });

/** `count` daily points from 1 January 2025, the balance rising by 10 a day. */
export const dailyPoints = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    point(new Date(Date.UTC(2025, 0, 2 + i)).toISOString(), (10_000 + 10 * i).toFixed(4)),
  );

export const returnsBody = (total: string, periods: Array<[string, string]>): ReturnsResponse =>
  returnsResponse.parse({
    success: true,
    message: `Time-weighted return ${total} %`,
    data: { currency: 'USD', total, periods: periods.map(([start, r]) => ({ start, return: r })) },
  });
