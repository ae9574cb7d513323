import type { BrokerTimeName } from '@pipsense/contract';

/** How a MetaTrader server's clock rule reads to a trader: the import's choice and an account's details. */
export const BROKER_TIME_LABELS: Record<BrokerTimeName, string> = {
  'ny-close-us': 'UTC+2, UTC+3 while New York is on summer time (most brokers)',
  'ny-close-eu': 'UTC+2, UTC+3 during EU summer time',
  fixed: 'One fixed offset all year',
};
