import { keepPreviousData, queryOptions, type QueryKey } from '@tanstack/react-query';
import { PAGE_SIZE } from '@pipsense/contract';
import { authRequest } from '../../lib/api';

/**
 * One page of a synced list, GET {url}?page&limit=10[&more]. The rows of the page being left stay (under a spinner)
 * until the next page arrives.
 */
export const pagedListQuery = <T>(queryKey: QueryKey, url: string, page: number, more: Record<string, string> = {}) =>
  queryOptions({
    queryKey,
    queryFn: ({ signal }) => authRequest<T>('GET', url, { page, limit: PAGE_SIZE, ...more }, signal),
    placeholderData: keepPreviousData,
  });
