import type { TradeSyncResponse } from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { unwrapApi } from '../../../components/data/api-error';
import { useSync } from '../../../components/data/use-sync';
import { tradeHistoryKey } from './trade-history-api';

/** GET {trading host}/api/v1/trade/sync_trade: the server reads OANDA and answers with what it did. */
export const syncTrades = (base: string) =>
  unwrapApi(authRequest<TradeSyncResponse>('GET', `${base}/api/v1/trade/sync_trade`));

export const useSyncTrades = (base: string | null) =>
  useSync(
    () => (base === null ? Promise.reject(new Error('This platform is not connected.')) : syncTrades(base)),
    tradeHistoryKey,
  );
