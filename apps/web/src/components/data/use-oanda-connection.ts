import { useQuery } from '@tanstack/react-query';
import type { GetInfoResponse } from '@pipsense/contract';
import { config } from '../../config/env';
import { authRequest } from '../../lib/api';
import { unwrapApi } from './api-error';

export const oandaConnectionKey = ['oanda-connection'] as const;

/**
 * Whether the user has saved an OANDA access token (get_info returns it masked, or empty when none is saved). The
 * server answers an unconfigured user's lists with an empty page, so this is how an empty Trades or Accounts screen
 * tells 'nothing synced yet' from 'nothing to sync from'. Refetched on every visit: the user may have just saved it.
 */
export function useOandaConnection(enabled: boolean) {
  return useQuery({
    queryKey: oandaConnectionKey,
    queryFn: ({ signal }) =>
      unwrapApi(authRequest<GetInfoResponse>('GET', `${config.backend}/api/v1/account/get_info`, undefined, signal)).then(
        (body) => body.data.oanda.accessToken !== '',
      ),
    enabled,
    staleTime: 0,
  });
}
