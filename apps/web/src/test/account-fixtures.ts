import { accountItem, accountListResponse, type AccountItem, type AccountListResponse } from '@pipsense/contract';

/** An account as the server sends it (shape checked against the contract): Accounts, the MetaTrader settings card. */
export function account(overrides: Partial<AccountItem> = {}): AccountItem {
  return accountItem.parse({
    id: 'b7f3c2a0-internal-row-id',
    userId: 'u-42-internal-owner',
    version: 7,
    oandaAccountId: '101-004-27183640-001',
    mode: 'demo',
    alias: 'Primary',
    currency: 'USD',
    balance: '100234.5678',
    NAV: '100199.994',
    unrealizedPL: '-34.57355',
    pl: '234.5678',
    financing: '-1.2345',
    commission: '0.0000',
    marginUsed: '427.6976',
    marginAvailable: '99772.2964',
    positionValue: '21384.8800',
    marginRate: '0.02',
    marginCloseoutPercent: '0.00213',
    withdrawalLimit: '99772.2964',
    openTradeCount: 8,
    openPositionCount: 3,
    pendingOrderCount: 14,
    hedgingEnabled: false,
    openedAt: '2024-02-12T09:30:00.000000000Z',
    lastTransactionID: '5318',
    syncedAt: '2025-10-03T14:30:12.000Z',
    createdAt: '2025-10-01T07:05:00.000Z',
    updatedAt: '2025-10-03T14:30:12.000Z',
    platform: 'oanda',
    login: '101-004-27183640-001',
    server: 'fxpractice',
    broker: null,
    leverage: null,
    brokerTime: null,
    serverUtcOffset: null,
    ...overrides,
  });
}

/** An imported MetaTrader account, keyed as the API names it ('metatrader:<server>:<login>'). */
export const metaTraderAccount = (server: string, login: string, overrides: Partial<AccountItem> = {}) =>
  account({ platform: 'metatrader', oandaAccountId: `metatrader:${server}:${login}`, login, server, ...overrides });

/** One page of get_accounts. */
export function accountPage(data: AccountItem[], pages = 1, total = data.length): AccountListResponse {
  return accountListResponse.parse({ success: true, message: 'Accounts fetched', data, pages, total });
}
