import type { AccountSyncResult, Mode } from '@pipsense/contract';
import type { OandaApi } from '../../integrations/oanda/oanda-client';
import type { OandaCredentials } from '../settings';
import { oandaAccount } from './account-key';
import { accountContent } from './broker-data';
import type { BrokerAccountRepository, BrokerAccountRow, SummaryWrite } from './broker-account.repository';
import type { AccountTransactionRepository } from './account-transaction.repository';
import { utcDateTime } from '../../domain/datetime';
import { aboutAccount } from './oanda-failure';

export interface AccountSyncDeps {
  accounts: BrokerAccountRepository;
  /** The transaction store and equity samples (docs/decisions/022-transaction-store.md). */
  transactions: AccountTransactionRepository;
  now: () => Date;
}

/** The configured account, or every account the token can see when none is configured. */
export async function resolveAccountIds(api: OandaApi, credentials: OandaCredentials): Promise<string[]> {
  if (credentials.accountId) return [credentials.accountId];
  return (await api.listAccounts()).map((a) => a.id);
}

/** Reads an account's summary from OANDA and stores it, with its NAV, balance and unrealized P/L as a sample. */
export async function refreshSummary(
  deps: AccountSyncDeps,
  api: OandaApi,
  userId: string,
  mode: Mode,
  oandaAccountId: string,
): Promise<{ row: BrokerAccountRow; write: SummaryWrite; lastTransactionID: string | null }> {
  const summary = await api.accountSummary(oandaAccountId);
  const lastTransactionID = summary.lastTransactionID ?? summary.account.lastTransactionID ?? null;
  const at = deps.now().toISOString();
  const content = accountContent(summary.account, lastTransactionID, mode);
  const saved = await deps.accounts.saveSummary(userId, oandaAccount(mode, oandaAccountId), content, at);
  await deps.transactions.recordSample(userId, {
    account_key: saved.row.account_key,
    time: utcDateTime(at) ?? at,
    nav: content.nav,
    balance: content.balance,
    unrealized_pl: content.unrealized_pl,
  });
  return { ...saved, lastTransactionID };
}

/** Runs `work` over `items` with at most `limit` in flight, keeping the order of the results. */
async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Account sync: every account the token sees (or the configured one) with its summary, fetched two at a time
 * (the size of the client's connection pool).
 */
export async function syncAccounts(
  deps: AccountSyncDeps,
  api: OandaApi,
  userId: string,
  credentials: OandaCredentials,
): Promise<AccountSyncResult> {
  const ids = await resolveAccountIds(api, credentials);
  const writes = await mapLimit(ids, 2, (id) =>
    aboutAccount(id, true, async () => (await refreshSummary(deps, api, userId, credentials.mode, id)).write),
  );
  return {
    accounts: ids.length,
    created: writes.filter((w) => w === 'created').length,
    updated: writes.filter((w) => w === 'updated').length,
  };
}
