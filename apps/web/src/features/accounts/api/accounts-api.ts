import type { AccountListResponse, BalanceOperationsResponse } from '@pipsense/contract';
import { pagedListQuery } from '../../../components/data/paged-list-query';
import type { PlatformParams } from '../../../components/data/platform-scope';
import { queryKeys } from '../../../lib/query-keys';

/** GET {trading host}/api/v1/account/get_accounts?page&limit=10[&platform=metatrader]. */
export const accountsQuery = (base: string, page: number, platform: PlatformParams = {}) =>
  pagedListQuery<AccountListResponse>(
    queryKeys.accounts.page(base, page, platform.platform),
    `${base}/api/v1/account/get_accounts`,
    page,
    platform,
  );

/** Balance operations per page of the account's details: one page shows most accounts' whole history. */
const BALANCE_OPERATIONS_PAGE = 50;

/** GET {trading host}/api/v1/account/get_balance_operations/:accountId?page&limit=50: newest first. */
export const balanceOperationsQuery = (base: string, accountId: string, page: number) =>
  pagedListQuery<BalanceOperationsResponse>(
    queryKeys.accounts.balanceOperations(base, accountId, page),
    `${base}/api/v1/account/get_balance_operations/${encodeURIComponent(accountId)}`,
    page,
    { limit: String(BALANCE_OPERATIONS_PAGE) },
  );
