import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { isOandaNotConfigured } from './api-error';
import { oandaConnectionKey } from './use-oanda-connection';

/**
 * A Sync button's mutation: toasts the server's message either way (SPEC §8), and on success refetches the list so
 * the new rows show. A sync refused for want of an OANDA configuration rechecks it, so the screen can say so.
 */
export function useSync<T extends { message: string }>(sync: () => Promise<T>, listKey: QueryKey) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: sync,
    onSuccess: async (result) => {
      toast.success(result.message || 'Sync finished');
      await client.invalidateQueries({ queryKey: listKey });
    },
    onError: async (error) => {
      toast.error(error.message);
      if (isOandaNotConfigured(error)) await client.invalidateQueries({ queryKey: oandaConnectionKey });
    },
  });
}
