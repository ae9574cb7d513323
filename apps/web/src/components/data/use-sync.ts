import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { authRequest } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { isOandaNotConfigured } from './use-oanda-connection';

/**
 * A Sync button's mutation, GET {base}{path}: toasts the server's message either way (docs/PRODUCT.md, Messages), and
 * on success refetches the list so the new rows show. A sync refused for want of an OANDA configuration rechecks it, so
 * the screen can say so. `base` is null for a platform without a service.
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
    },
    onError: async (error) => {
      toast.error(error.message);
      void client.invalidateQueries({ queryKey: queryKeys.syncStatus });
      if (isOandaNotConfigured(error)) await client.invalidateQueries({ queryKey: queryKeys.info });
    },
  });
}
