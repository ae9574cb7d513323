import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BulkAssignBody,
  BulkAssignResponse,
  TradePlaybookResponse,
  UpdateTradePlaybookBody,
} from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { playbookBase } from '../../../lib/playbooks-query';
import { queryKeys } from '../../../lib/query-keys';

const tradePath = (accountId: string, tradeId: string) =>
  `${encodeURIComponent(accountId)}/${encodeURIComponent(tradeId)}`;

/** GET playbook/get_trade_playbook/:accountId/:tradeId: the trade's playbook and the rules of its review. */
export const useTradePlaybook = (accountId: string, tradeId: string) =>
  useQuery({
    queryKey: queryKeys.playbooks.trade(accountId, tradeId),
    queryFn: ({ signal }) =>
      authRequest<TradePlaybookResponse>(
        'GET',
        `${playbookBase}/get_trade_playbook/${tradePath(accountId, tradeId)}`,
        undefined,
        signal,
      ).then((body) => body.data),
  });

/** The list's playbook column and filters, the playbooks' counts and reports move with a review. */
const refreshAfterReview = (client: ReturnType<typeof useQueryClient>) =>
  Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.tradeHistory.all }),
    client.invalidateQueries({ queryKey: queryKeys.playbooks.all }),
  ]);

/** POST playbook/update_trade_playbook/:accountId/:tradeId: the playbook, the rules ticked and whether it is reviewed. */
export function useSaveTradePlaybook(accountId: string, tradeId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateTradePlaybookBody) =>
      authRequest<TradePlaybookResponse>(
        'POST',
        `${playbookBase}/update_trade_playbook/${tradePath(accountId, tradeId)}`,
        {
          ...body,
        },
      ),
    onSuccess: (saved) => {
      client.setQueryData(queryKeys.playbooks.trade(accountId, tradeId), saved.data);
      void refreshAfterReview(client);
    },
  });
}

/** POST playbook/bulk_assign: the selected trades onto one playbook (or off theirs). */
export function useBulkAssign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkAssignBody) =>
      authRequest<BulkAssignResponse>('POST', `${playbookBase}/bulk_assign`, { ...body }),
    onSuccess: () => refreshAfterReview(client),
  });
}
