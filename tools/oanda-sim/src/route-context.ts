// Per-request inputs shared by the route handlers.

import type { Broker } from './broker';
import type { AccountRec } from './ledger-types';
import type { WireContext } from './wire';

export interface RouteContext {
  readonly broker: Broker;
  readonly query: URLSearchParams;
  readonly wire: WireContext;
  /** Scheme and host the client used, for Link headers and page URLs: "http://127.0.0.1:4010". */
  readonly baseUrl: string;
  readonly pathname: string;
  readonly datetimeFormat: 'RFC3339' | 'UNIX';
}

export interface AccountRouteContext extends RouteContext {
  readonly account: AccountRec;
  readonly lastTransactionID: string;
}
