import { platformByQuery, type AccountItem } from '@pipsense/contract';
import { EMPTY_CELL, formatCount, formatDateTime, formatDecimal, plClass } from '../../../components/data/format';
import type { Detail } from '../../../components/data/detail-list';
import { BROKER_TIME_LABELS } from '../../../lib/broker-time';

/** docs/PRODUCT.md, Constants: balance and NAV with 2 decimals, unrealized P/L with 4. */
export const formatMoney = (value: string | null) => formatDecimal(value, 2);
export const formatAccountPL = (value: string | null) => formatDecimal(value, 4);

/** Internal to PipSense, never shown (docs/PRODUCT.md, Account list). */
export const HIDDEN_ACCOUNT_FIELDS = ['id', 'userId', 'version'] as const;
type ShownField = Exclude<keyof AccountItem, (typeof HIDDEN_ACCOUNT_FIELDS)[number]>;

/** Rates and ids read as OANDA sent them. */
const exact = (value: string | null) => (value === null || value === '' ? EMPTY_CELL : value);

interface FieldSpec<K extends ShownField> {
  label: string;
  format: (value: AccountItem[K]) => string;
  /** P/L-like values are coloured green or red. */
  signed?: boolean;
}

/**
 * Every field of the account in the Account Details modal, in reading order. Typed over the contract's keys, so a
 * field added to the account does not compile until it has a label here.
 */
const FIELDS: { [K in ShownField]: FieldSpec<K> } = {
  alias: { label: 'Alias', format: exact },
  oandaAccountId: { label: 'Account ID', format: exact },
  mode: { label: 'Mode', format: (mode) => (mode === 'live' ? 'Live' : 'Demo') },
  currency: { label: 'Currency', format: exact },
  balance: { label: 'Balance', format: formatMoney },
  NAV: { label: 'NAV', format: formatMoney },
  unrealizedPL: { label: 'Unrealized P/L', format: formatAccountPL, signed: true },
  pl: { label: 'Realized P/L', format: formatAccountPL, signed: true },
  financing: { label: 'Financing', format: formatAccountPL, signed: true },
  commission: { label: 'Commission', format: formatAccountPL },
  marginUsed: { label: 'Margin Used', format: formatMoney },
  marginAvailable: { label: 'Margin Available', format: formatMoney },
  positionValue: { label: 'Position Value', format: formatMoney },
  marginRate: { label: 'Margin Rate', format: exact },
  marginCloseoutPercent: { label: 'Margin Closeout Percent', format: exact },
  withdrawalLimit: { label: 'Withdrawal Limit', format: formatMoney },
  openTradeCount: { label: 'Open Trades', format: formatCount },
  openPositionCount: { label: 'Open Positions', format: formatCount },
  pendingOrderCount: { label: 'Pending Orders', format: formatCount },
  hedgingEnabled: { label: 'Hedging Enabled', format: (v) => (v === null ? EMPTY_CELL : v ? 'Yes' : 'No') },
  openedAt: { label: 'Opened', format: formatDateTime },
  lastTransactionID: { label: 'Last Transaction ID', format: exact },
  syncedAt: { label: 'Last Synced', format: formatDateTime },
  createdAt: { label: 'Added', format: formatDateTime },
  updatedAt: { label: 'Last Updated', format: formatDateTime },
  platform: { label: 'Platform', format: (platform) => platformByQuery(platform).label },
  login: { label: 'Login', format: exact },
  server: { label: 'Server', format: exact },
  broker: { label: 'Broker', format: exact },
  leverage: { label: 'Leverage', format: exact },
  brokerTime: { label: 'Server Clock', format: (rule) => (rule ? BROKER_TIME_LABELS[rule] : EMPTY_CELL) },
  serverUtcOffset: { label: 'Server Time', format: (offset) => (offset ? `UTC${offset}` : EMPTY_CELL) },
};

/** An imported MetaTrader account: the login is its Account ID, the key PipSense files it under comes last. */
const METATRADER_ORDER: readonly ShownField[] = [
  'alias',
  'login',
  'platform',
  'server',
  'broker',
  'mode',
  'currency',
  'leverage',
  'balance',
  'NAV',
  'unrealizedPL',
  'pl',
  'financing',
  'commission',
  'marginUsed',
  'marginAvailable',
  'positionValue',
  'marginRate',
  'marginCloseoutPercent',
  'withdrawalLimit',
  'openTradeCount',
  'openPositionCount',
  'pendingOrderCount',
  'hedgingEnabled',
  'openedAt',
  'lastTransactionID',
  'brokerTime',
  'serverUtcOffset',
  'oandaAccountId',
  'syncedAt',
  'createdAt',
  'updatedAt',
];
/** What the report's figures are called on a MetaTrader account. */
const METATRADER_LABELS: Partial<Record<ShownField, string>> = {
  login: 'Account ID',
  oandaAccountId: 'Account Key',
  NAV: 'Equity',
  unrealizedPL: 'Floating P/L',
  pl: 'Closed Trade P/L',
  syncedAt: 'Last Imported',
};

/**
 * docs/PRODUCT.md, Account list: every field but id, userId and version, the import's too (an OANDA account's login,
 * server, platform).
 */
const OANDA_ORDER = Object.keys(FIELDS) as ShownField[];

function detail<K extends ShownField>(account: AccountItem, key: K): Detail {
  const spec = FIELDS[key];
  const value = account[key];
  return {
    label: (account.platform === 'metatrader' && METATRADER_LABELS[key]) || spec.label,
    value: spec.format(value),
    ...(spec.signed && typeof value === 'string' ? { className: plClass(value) } : {}),
  };
}

/** The Account Details list: every field of the account except id, userId and version. */
export function accountDetails(account: AccountItem): Detail[] {
  const order = account.platform === 'metatrader' ? METATRADER_ORDER : OANDA_ORDER;
  return order.map((key) => detail(account, key));
}

/** The Account ID column: a MetaTrader account is known by its login, an OANDA account by its id. */
export const accountIdOf = (account: AccountItem) =>
  account.platform === 'metatrader' ? account.login : account.oandaAccountId;
