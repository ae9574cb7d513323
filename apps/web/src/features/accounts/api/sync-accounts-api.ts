import type { AccountSyncResponse } from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { unwrapApi } from '../../../components/data/api-error';
import { useSync } from '../../../components/data/use-sync';
import { accountsKey } from './accounts-api';

/** GET {trading host}/api/v1/account/sync_account: every account the token can see, with its summary. */
export const syncAccounts = (base: string) =>
  unwrapApi(authRequest<AccountSyncResponse>('GET', `${base}/api/v1/account/sync_account`));

export const useSyncAccounts = (base: string | null) =>
  useSync(
    () => (base === null ? Promise.reject(new Error('This platform is not connected.')) : syncAccounts(base)),
    accountsKey,
  );
