import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TradeReviewData } from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { coachBase } from '../../../lib/coach-query';
import { queryKeys } from '../../../lib/query-keys';

const tradePath = (accountId: string, tradeId: string) =>
  `${encodeURIComponent(accountId)}/${encodeURIComponent(tradeId)}`;

/** GET coach/get_trade_review/:accountId/:tradeId: the stored review (or null), the facts as they are now, the patterns. */
export const useTradeCoachReview = (accountId: string, tradeId: string) =>
  useQuery({
    queryKey: queryKeys.coach.tradeReview(accountId, tradeId),
    queryFn: ({ signal }) =>
      authRequest<{ data: TradeReviewData }>(
        'GET',
        `${coachBase}/get_trade_review/${tradePath(accountId, tradeId)}`,
        undefined,
        signal,
      ).then((b) => b.data),
  });

/** POST coach/review_trade/:accountId/:tradeId: writes the review now (with the provider when one is configured). */
export function useReviewTrade(accountId: string, tradeId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      authRequest<{ data: TradeReviewData }>(
        'POST',
        `${coachBase}/review_trade/${tradePath(accountId, tradeId)}`,
        {},
      ).then((b) => b.data),
    onSuccess: (data) => client.setQueryData(queryKeys.coach.tradeReview(accountId, tradeId), data),
  });
}
