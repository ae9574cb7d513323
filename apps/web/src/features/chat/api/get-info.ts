import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GetInfoResponse } from '@pipsense/contract';
import { config } from '../../../config/env';
import { authRequest, unwrap } from '../../../lib/api';

/**
 * GET get_info, read for the chat screen: the default platforms (breadcrumb, AI host) and whether the server can
 * reach the chosen provider (model label). Always refetched on entry, so a platform just changed in Settings shows.
 */
export const chatInfoQuery = queryOptions({
  queryKey: ['chat', 'info'],
  queryFn: async ({ signal }) => {
    try {
      return await unwrap(
        authRequest<GetInfoResponse>('GET', `${config.backend}/api/v1/account/get_info`, undefined, signal),
      );
    } catch (error) {
      // The screen keeps the spec's defaults (OpenAI, OANDA) and stays usable.
      if (!signal.aborted)
        console.error('Failed to load the AI platform:', error instanceof Error ? error.message : error);
      throw error;
    }
  },
  staleTime: 0,
});

export const useChatInfo = () => useQuery(chatInfoQuery);
