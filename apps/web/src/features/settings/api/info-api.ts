import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GetInfoResponse, InfoRecord } from '@pipsense/contract';
import { toast } from 'react-toastify';
import { config } from '../../../config/env';
import { authRequest, unwrap } from '../../../lib/api';

const base = `${config.backend}/api/v1/account`;

export type AccountInfo = Pick<GetInfoResponse, 'data' | 'providers'>;

export const infoQueryKey = ['account-info'] as const;

/** GET get_info: the info record (token masked) and what the server has configured for each AI provider. */
export const infoQuery = queryOptions({
  queryKey: infoQueryKey,
  queryFn: ({ signal }): Promise<AccountInfo> =>
    unwrap(authRequest<GetInfoResponse>('GET', `${base}/get_info`, undefined, signal)).then(({ data, providers }) => ({
      data,
      providers,
    })),
});
export const useInfo = () => useQuery(infoQuery);

/** POST update_info with the whole record; a masked access token sent back keeps the stored one. */
export const updateInfo = (record: InfoRecord) =>
  unwrap(authRequest<GetInfoResponse>('POST', `${base}/update_info`, { ...record }));

export const saveSuccessMessage = 'Configuration updated successfully';

/** Saving settings: the spec's toasts, and the cached record replaced by what the server stored. */
export function useSaveInfo() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateInfo,
    onSuccess: ({ data, providers }) => {
      client.setQueryData<AccountInfo>(infoQueryKey, { data, providers });
      toast.success(saveSuccessMessage);
    },
    onError: (error) => toast.error(error.message),
    onSettled: () => client.invalidateQueries({ queryKey: infoQueryKey }),
  });
}
