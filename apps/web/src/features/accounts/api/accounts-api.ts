import type { AccountListResponse } from '@pipsense/contract';
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
