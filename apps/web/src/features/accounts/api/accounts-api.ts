import type { AccountListResponse, AccountSyncResponse } from '@pipsense/contract';
import { usePagedList } from '../../../components/data/use-paged-list';
import { useSync } from '../../../components/data/use-sync';
import { queryKeys } from '../../../lib/query-keys';

/** GET {trading host}/api/v1/account/get_accounts?page&limit=10. */
export const useAccounts = (base: string, page: number) =>
  usePagedList<AccountListResponse>(queryKeys.accounts.page(base, page), `${base}/api/v1/account/get_accounts`, page);

/** GET {trading host}/api/v1/account/sync_account: every account the token can see, with its summary. */
export const useSyncAccounts = (base: string | null) =>
  useSync<AccountSyncResponse>(base, '/api/v1/account/sync_account', queryKeys.accounts.all);
