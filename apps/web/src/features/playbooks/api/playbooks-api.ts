import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  MissedTradeBody,
  MissedTradeResponse,
  MissedTradesResponse,
  PlaybookBody,
  PlaybookResponse,
} from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { playbookBase } from '../../../lib/playbooks-query';
import { queryKeys } from '../../../lib/query-keys';

export { playbookReportQuery, playbooksQuery } from '../../../lib/playbooks-query';

const byId = (route: string, id: string) => `${playbookBase}/${route}/${encodeURIComponent(id)}`;

/**
 * A change to a playbook or a missed trade can move every playbook figure (counts, reports, the Overview's card) and
 * the trade list's playbook column: all of them are read again.
 */
function usePlaybookMutation<T, R>(send: (input: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.playbooks.all }),
        client.invalidateQueries({ queryKey: queryKeys.tradeHistory.all }),
      ]),
  });
}

/** POST playbook/create_playbook. */
export const useCreatePlaybook = () =>
  usePlaybookMutation((body: PlaybookBody) =>
    authRequest<PlaybookResponse>('POST', `${playbookBase}/create_playbook`, { ...body }),
  );

/** POST playbook/edit_playbook/:id: groups and rules sent with their id are kept, those left out retired. */
export const useEditPlaybook = () =>
  usePlaybookMutation(({ id, body }: { id: string; body: PlaybookBody }) =>
    authRequest<PlaybookResponse>('POST', byId('edit_playbook', id), { ...body }),
  );

/** POST playbook/delete_playbook/:id. */
export const useDeletePlaybook = () =>
  usePlaybookMutation((id: string) => authRequest<PlaybookResponse>('POST', byId('delete_playbook', id), {}));

/** GET playbook/get_missed_trades: every missed trade, newest first as the server sends them. */
export const missedTradesQuery = () =>
  queryOptions({
    queryKey: queryKeys.playbooks.missed,
    queryFn: ({ signal }) =>
      authRequest<MissedTradesResponse>('GET', `${playbookBase}/get_missed_trades`, undefined, signal).then(
        (b) => b.data,
      ),
  });

/** POST playbook/create_missed_trade. */
export const useCreateMissedTrade = () =>
  usePlaybookMutation((body: MissedTradeBody) =>
    authRequest<MissedTradeResponse>('POST', `${playbookBase}/create_missed_trade`, { ...body }),
  );

/** POST playbook/edit_missed_trade/:id. */
export const useEditMissedTrade = () =>
  usePlaybookMutation(({ id, body }: { id: string; body: MissedTradeBody }) =>
    authRequest<MissedTradeResponse>('POST', byId('edit_missed_trade', id), { ...body }),
  );

/** POST playbook/delete_missed_trade/:id. */
export const useDeleteMissedTrade = () =>
  usePlaybookMutation((id: string) => authRequest<MissedTradeResponse>('POST', byId('delete_missed_trade', id), {}));
