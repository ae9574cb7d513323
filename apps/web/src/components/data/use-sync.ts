import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { ApiError, authRequest } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { isOandaNotConfigured } from './use-oanda-connection';

const SYNC_IN_PROGRESS = 'SYNC_IN_PROGRESS';

/** The press met a sync already running for the user (the background sync, another tab's): 409, SYNC_IN_PROGRESS. */
const isSyncInProgress = (error: unknown) =>
  error instanceof ApiError && (error.code === SYNC_IN_PROGRESS || error.status === 409);

/**
 * A Sync button's mutation, GET {base}{path}: toasts the server's message either way (docs/PRODUCT.md, Messages), and
 * on success refetches the list so the new rows show. A press that met a sync already running is no failure: the
 * status is read again and the screen shows that sync (its button busy, its progress) instead of an error toast. A
 * sync refused for want of an OANDA configuration rechecks it, so the screen can say so. `base` is null for a platform
 * without a service.
 */
export function useSync<T extends { message: string }>(base: string | null, path: string, listKey: QueryKey) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      base === null ? Promise.reject(new Error('This platform is not connected.')) : authRequest<T>('GET', base + path),
    onSuccess: async (result) => {
      toast.success(result.message || 'Sync finished');
      await client.invalidateQueries({ queryKey: listKey });
      void client.invalidateQueries({ queryKey: queryKeys.syncStatus });
      // New trades may have crossed an alert threshold of a loss limit (docs/PRODUCT.md, My Rules: Alerts).
      void client.invalidateQueries({ queryKey: queryKeys.rules.alerts });
    },
    onError: async (error) => {
      if (isSyncInProgress(error)) {
        await client.invalidateQueries({ queryKey: queryKeys.syncStatus });
        return;
      }
      toast.error(error.message);
      void client.invalidateQueries({ queryKey: queryKeys.syncStatus });
      if (isOandaNotConfigured(error)) await client.invalidateQueries({ queryKey: queryKeys.info });
    },
  });
}
