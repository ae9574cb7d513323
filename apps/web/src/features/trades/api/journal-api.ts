import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BulkTagBody, BulkTagResponse, TradeNoteResponse, UpdateTradeNoteBody } from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { journalBase } from '../../../lib/tags-query';

const tradePath = (accountId: string, tradeId: string) =>
  `${encodeURIComponent(accountId)}/${encodeURIComponent(tradeId)}`;

/** GET journal/get_trade_note/:accountId/:tradeId: the trade's note, rating and tags. */
export const useTradeNote = (accountId: string, tradeId: string) =>
  useQuery({
    queryKey: queryKeys.tradeNote(accountId, tradeId),
    queryFn: ({ signal }) =>
      authRequest<TradeNoteResponse>(
        'GET',
        `${journalBase}/get_trade_note/${tradePath(accountId, tradeId)}`,
        undefined,
        signal,
      ).then((body) => body.data),
  });

/**
 * POST journal/update_trade_note/:accountId/:tradeId: replaces the note, rating and tags. The list (its columns and
 * the tag and note filters) and the tag counts are read again.
 */
export function useSaveTradeNote(accountId: string, tradeId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateTradeNoteBody) =>
      authRequest<TradeNoteResponse>('POST', `${journalBase}/update_trade_note/${tradePath(accountId, tradeId)}`, {
        ...body,
      }),
    onSuccess: (saved) => {
      client.setQueryData(queryKeys.tradeNote(accountId, tradeId), saved.data);
      void client.invalidateQueries({ queryKey: queryKeys.tradeHistory.all });
      void client.invalidateQueries({ queryKey: queryKeys.tags });
      void client.invalidateQueries({ queryKey: queryKeys.calendar.all });
    },
  });
}

/** POST journal/bulk_tag: adds the tags to every selected trade (refused whole if one is not the caller's). */
export function useBulkTag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkTagBody) => authRequest<BulkTagResponse>('POST', `${journalBase}/bulk_tag`, { ...body }),
    onSuccess: (_result, body) => {
      void client.invalidateQueries({ queryKey: queryKeys.tradeHistory.all });
      void client.invalidateQueries({ queryKey: queryKeys.tags });
      for (const trade of body.trades)
        void client.invalidateQueries({ queryKey: queryKeys.tradeNote(trade.accountId, trade.tradeId) });
    },
  });
}
