import type { AccountListResponse } from '@pipsense/contract';
import { pagedListQuery } from '../../../components/data/paged-list-query';
import { queryKeys } from '../../../lib/query-keys';

/** GET {trading host}/api/v1/account/get_accounts?page&limit=10. */
export const accountsQuery = (base: string, page: number) =>
  pagedListQuery<AccountListResponse>(queryKeys.accounts.page(base, page), `${base}/api/v1/account/get_accounts`, page);
