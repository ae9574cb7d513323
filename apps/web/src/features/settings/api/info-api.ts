import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GetInfoResponse, InfoRecord } from '@pipsense/contract';
import { toast } from 'react-toastify';
import { config } from '../../../config/env';
import { authRequest } from '../../../lib/api';
import type { AccountInfo } from '../../../lib/info-query';
import { queryKeys } from '../../../lib/query-keys';

/** POST update_info with the whole record; a masked access token sent back keeps the stored one. */
const updateInfo = (record: InfoRecord) =>
  authRequest<GetInfoResponse>('POST', `${config.backend}/api/v1/account/update_info`, { ...record });

const saveSuccessMessage = 'Configuration updated successfully';

/** Saving settings: the spec's toasts, and the cached record replaced by what the server stored. */
export function useSaveInfo() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateInfo,
    onSuccess: ({ data, providers }) => {
      client.setQueryData<AccountInfo>(queryKeys.info, { data, providers });
      toast.success(saveSuccessMessage);
    },
    onError: (error) => toast.error(error.message),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.info }),
  });
}
