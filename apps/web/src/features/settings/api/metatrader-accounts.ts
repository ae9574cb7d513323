import { useQuery } from '@tanstack/react-query';
import type { PlatformQuery } from '@pipsense/contract';
import { config } from '../../../config/env';
import { accountsOfPlatformQuery } from '../../../lib/accounts-query';

/** The imported MetaTrader accounts (the first 100): the MetaTrader card is Active only once one exists. */
export function useMetaTraderAccounts() {
  const base = config.metatrader ?? config.oanda;
  return useQuery(accountsOfPlatformQuery(base, 'metatrader' satisfies PlatformQuery));
}
