import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { PAGE_SIZE, type AccountListResponse } from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { unwrapApi } from '../../../components/data/api-error';

/** Every cached page of accounts: cleared on a platform switch, refetched after a sync. */
export const accountsKey = ['accounts'] as const;

/** GET {trading host}/api/v1/account/get_accounts?page&limit=10. */
export function fetchAccounts(base: string, page: number, signal?: AbortSignal): Promise<AccountListResponse> {
  return unwrapApi(
    authRequest<AccountListResponse>('GET', `${base}/api/v1/account/get_accounts`, { page, limit: PAGE_SIZE }, signal),
  );
}

export const accountsQuery = (base: string, page: number) =>
  queryOptions({
    queryKey: [...accountsKey, base, page],
    queryFn: ({ signal }) => fetchAccounts(base, page, signal),
    // The rows of the page being left stay (under a spinner) until the next page arrives.
    placeholderData: keepPreviousData,
  });

export const useAccounts = (base: string, page: number) => useQuery(accountsQuery(base, page));
