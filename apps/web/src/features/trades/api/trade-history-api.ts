import type { TradeListResponse } from '@pipsense/contract';
import { pagedListQuery } from '../../../components/data/paged-list-query';
import { queryKeys } from '../../../lib/query-keys';

/** GET {trading host}/api/v1/trade/get_trade_history?page&limit=10, newest first. */
export const tradeHistoryQuery = (base: string, page: number) =>
  pagedListQuery<TradeListResponse>(
    queryKeys.tradeHistory.page(base, page),
    `${base}/api/v1/trade/get_trade_history`,
    page,
  );
