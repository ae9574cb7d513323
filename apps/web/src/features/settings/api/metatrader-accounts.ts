import { useQuery } from '@tanstack/react-query';
import type { AccountListResponse, PlatformQuery } from '@pipsense/contract';
import { config } from '../../../config/env';
import { authRequest } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The imported MetaTrader accounts (GET account/get_accounts?platform=metatrader, first 100): the MetaTrader card is
 * Active only once one exists. Under the accounts key, so an import or a sync refreshes it.
 */
export function useMetaTraderAccounts() {
  const base = config.metatrader ?? config.oanda;
  return useQuery({
    queryKey: [...queryKeys.accounts.all, base, 'metatrader', 'settings'],
    queryFn: ({ signal }) =>
      authRequest<AccountListResponse>(
        'GET',
        `${base}/api/v1/account/get_accounts`,
        { page: 1, limit: 100, platform: 'metatrader' satisfies PlatformQuery },
        signal,
      ),
  });
}
