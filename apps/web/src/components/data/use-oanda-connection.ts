import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../lib/api';
import { infoQuery } from '../../lib/info-query';

/**
 * Whether the user has saved an OANDA access token (get_info returns it masked, or empty when none is saved). The
 * server answers an unconfigured user's lists with an empty page, so this is how an empty Trades or Accounts screen
 * tells 'nothing synced yet' from 'nothing to sync from'.
 */
export function useOandaConnection(enabled: boolean) {
  return useQuery({ ...infoQuery, select: (info) => info.data.oanda.accessToken !== '', enabled });
}

const OANDA_NOT_CONFIGURED = 'OANDA_NOT_CONFIGURED';

/**
 * Whether a trading call failed because the user has not saved an OANDA configuration yet. A 400 without a code
 * counts as well: these screens only send a valid page and limit, which leaves the missing configuration as the 400
 * they can meet.
 */
export function isOandaNotConfigured(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.code !== undefined) return error.code === OANDA_NOT_CONFIGURED;
  return error.status === 400;
}
