import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GetInfoResponse } from '@pipsense/contract';
import { config } from '../config/env';
import { authRequest } from './api';
import { queryKeys } from './query-keys';

export type AccountInfo = Pick<GetInfoResponse, 'data' | 'providers' | 'oandaNotice'>;

/**
 * GET {backend}/api/v1/account/get_info: the info record (token masked) and what the server has configured for each
 * AI provider. Settings, the chat screen and the OANDA connection check all read this one cached query. Refetched on
 * every visit: the user may have just changed it in Settings.
 */
export const infoQuery = queryOptions({
  queryKey: queryKeys.info,
  queryFn: ({ signal }): Promise<AccountInfo> =>
    authRequest<GetInfoResponse>('GET', `${config.backend}/api/v1/account/get_info`, undefined, signal).then(
      ({ data, providers, oandaNotice }) => ({ data, providers, ...(oandaNotice ? { oandaNotice } : {}) }),
    ),
  staleTime: 0,
});

export const useInfo = () => useQuery(infoQuery);
