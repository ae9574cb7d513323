import type { Kysely } from 'kysely';
import {
  PLATFORM_TABLE,
  platformByQuery,
  type Mode,
  type PlatformQuery,
  type PlatformStored,
} from '@pipsense/contract';
import type { TradingTables } from './tables';

/*
 * One identity for a broker account and for a trade, whatever the platform (docs/decisions/007-account-and-trade-keys.md).
 *
 * Account key: `<platform>:<server>:<login>`, stored whole in `account_key` (with its parts beside it on
 * broker_accounts), unique per user. The login is the broker's own account id; for OANDA it is the account id the
 * API shows as `accountId` (101-004-1234567-001), and the server is OANDA's environment (fxpractice, fxtrade).
 * A login never holds a colon; a server may, so the login is what follows the last one.
 *
 * Trade key: (user, account key, trade id). The trade id is the broker's; where a broker reuses an id within an
 * account (MT5 netting positions after a reversal), the id carries the open time as a suffix, `<id>@<open time>`.
 * OANDA never reuses a trade id, so its ids are stored as they are.
 */

/** The stored platform values (PLATFORM_TABLE): the account key's first part and `platform` on rows. */
const PLATFORMS: readonly PlatformStored[] = PLATFORM_TABLE.map((p) => p.stored);
type Platform = PlatformStored;

interface AccountKeyParts {
  platform: Platform;
  server: string;
  login: string;
}

function accountKey({ platform, server, login }: AccountKeyParts): string {
  if (login.includes(':')) throw new Error(`an account login holds no colon: ${login}`);
  return `${platform}:${server}:${login}`;
}

function accountKeyParts(key: string): AccountKeyParts {
  const first = key.indexOf(':');
  const last = key.lastIndexOf(':');
  const platform = key.slice(0, first);
  if (first < 0 || last === first || !(PLATFORMS as readonly string[]).includes(platform))
    throw new Error(`not an account key: ${key}`);
  return { platform: platform as Platform, server: key.slice(first + 1, last), login: key.slice(last + 1) };
}

/**
 * The API's `accountId` of an account key (trades, filters, journal refs): for OANDA the broker's account id (the
 * login); for an imported MetaTrader account the key itself (docs/decisions/012-metatrader-import.md, The API's
 * account id), since a login alone is not unique across MetaTrader brokers.
 */
export function apiAccountId(key: string): string {
  const parts = accountKeyParts(key);
  return parts.platform === 'oanda' ? parts.login : key;
}

/** The key of an account as the API lists it (AccountItem: its platform, server and login). */
export function accountKeyOf(account: { platform: PlatformQuery; server: string; login: string }): string {
  return accountKey({
    platform: platformByQuery(account.platform).stored,
    server: account.server,
    login: account.login,
  });
}

/** OANDA's environments: practice accounts (demo mode) live on fxpractice, real ones (live mode) on fxtrade. */
const oandaServer = (mode: Mode): string => (mode === 'live' ? 'fxtrade' : 'fxpractice');

/** An account's identity as broker_accounts stores it: the key and its parts. */
export type AccountIdentity = AccountKeyParts & { account_key: string };

/** The identity of an OANDA account, from the credentials' mode and OANDA's account id. */
export function oandaAccount(mode: Mode, accountId: string): AccountIdentity {
  const parts: AccountKeyParts = { platform: 'oanda', server: oandaServer(mode), login: accountId };
  return { ...parts, account_key: accountKey(parts) };
}

/**
 * The identity of an imported MetaTrader account: its trade server as the report names it (for an MT4 report or a
 * CSV file without one, the server name the import was given) and the login as the report prints it. Nothing is
 * changed in either but the colon rule (a login holds none, so its colons are dropped; a server may hold them); a
 * report that names no login stands for the login `imported`.
 */
export function metatraderAccount(server: string, printedLogin: string): AccountIdentity {
  const login = printedLogin.replace(/:/g, '').trim() || 'imported';
  const parts: AccountKeyParts = { platform: 'metatrader', server, login };
  return { ...parts, account_key: accountKey(parts) };
}

/*
 * Which accounts an API `accountId` names: the broker's login (OANDA's account id) or the account key itself (what a
 * MetaTrader account shows as its accountId, decision 012). The one rule, in SQL for the readers of stored rows and in
 * memory for accounts as the API lists them.
 */

/** The keys of the user's accounts that any of `named` names, as a subquery. */
export const accountKeysNamed = (
  db: Kysely<Pick<TradingTables, 'broker_accounts'>>,
  userId: string,
  named: string | readonly string[],
) => {
  const names = typeof named === 'string' ? [named] : [...named];
  return db
    .selectFrom('broker_accounts')
    .select('account_key')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('login', 'in', names), eb('account_key', 'in', names)]));
};

/** Whether an account as the API lists it (login, API id) is the one `named` names. */
export const isAccountNamed = (account: { oandaAccountId: string; login: string }, named: string): boolean =>
  account.oandaAccountId === named || account.login === named;
