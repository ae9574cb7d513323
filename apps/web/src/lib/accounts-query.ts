import { queryOptions } from '@tanstack/react-query';
import type { AccountListResponse } from '@pipsense/contract';
import { authRequest } from './api';
import { queryKeys } from './query-keys';

/** How many accounts one look-up reads: a trader has a handful. */
const FIRST_ACCOUNTS = 100;

/**
 * The first 100 accounts of a platform (GET account/get_accounts?page=1&limit=100[&platform]; none for the default,
 * OANDA): the Overview's account filter, the MetaTrader card of the settings, an account's money page. Under the
 * accounts key, so an import or a sync refreshes it.
 */
export const accountsOfPlatformQuery = (base: string, platform?: string) =>
  queryOptions({
    queryKey: queryKeys.accounts.firstOf(base, platform),
    queryFn: ({ signal }) =>
      authRequest<AccountListResponse>(
        'GET',
        `${base}/api/v1/account/get_accounts`,
        { page: 1, limit: FIRST_ACCOUNTS, ...(platform ? { platform } : {}) },
        signal,
      ),
  });
