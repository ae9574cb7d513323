import { keepPreviousData, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { PAGE_SIZE, type TradeFilterQuery, type TradeListItem, type TradeListResponse } from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** A page of the list: every row carries its journal and risk figures. */
export type TradeListPage = Omit<TradeListResponse, 'data'> & { data: TradeListItem[] };

/**
 * A row as the list shows it: a server that predates the journal sends plain trades, which read as trades with
 * nothing written, no initial stop and no excursion yet.
 */
const asListItem = (row: TradeListResponse['data'][number] & Partial<TradeListItem>): TradeListItem => ({
  ...row,
  note: row.note ?? '',
  rating: row.rating ?? null,
  tags: row.tags ?? [],
  initialRisk: row.initialRisk ?? null,
  rMultiple: row.rMultiple ?? null,
  mae: row.mae ?? null,
  mfe: row.mfe ?? null,
  excursion: row.excursion ?? null,
  playbookId: row.playbookId ?? null,
  reviewed: row.reviewed ?? false,
  followedAll: row.followedAll ?? null,
  attachmentCount: row.attachmentCount ?? 0,
});

/**
 * GET {trading host}/api/v1/trade/get_trade_history?page&limit=10&…filters: one page of the filtered, sorted list.
 * The rows of the page being left stay (under a spinner) until the next page arrives.
 */
export const tradeHistoryQuery = (
  base: string,
  page: number,
  filters: TradeFilterQuery = {},
): UseQueryOptions<TradeListPage, Error, TradeListPage, QueryKey> => ({
  queryKey: queryKeys.tradeHistory.page(base, page, filters),
  queryFn: ({ signal }) =>
    authRequest<TradeListResponse>(
      'GET',
      `${base}/api/v1/trade/get_trade_history`,
      { page, limit: PAGE_SIZE, ...filters },
      signal,
    ).then((body): TradeListPage => ({ ...body, data: body.data.map(asListItem) })),
  placeholderData: keepPreviousData,
});
