import { useState } from 'react';
import { useLocation } from 'react-router';
import { TRADING_PLATFORMS } from '@pipsense/contract';
import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { PlatformName } from '../../config/env';
import { infoQuery, type AccountInfo } from '../../lib/info-query';
import { platformScope } from './platform-scope';

/** The platform every screen falls back to: the trader never chose another, or get_info cannot be read. */
const FALLBACK_PLATFORM: PlatformName = 'OANDA';

/**
 * The trader's default trading platform (get_info's `default_trading_platfrom`; empty means OANDA): the platform the
 * Overview, Trades and Accounts screens open on (docs/PRODUCT.md, Overview). Undefined until get_info has answered, so
 * that a MetaTrader trader never sees OANDA's empty state first; OANDA when it fails.
 */
function useDefaultPlatform(): PlatformName | undefined {
  const info = useQuery({ ...infoQuery, select: defaultPlatformOf });
  if (info.data !== undefined) return info.data;
  return info.isError ? FALLBACK_PLATFORM : undefined;
}

const defaultPlatformOf = (info: AccountInfo): PlatformName =>
  TRADING_PLATFORMS.find((p) => p === info.data.default_trading_platfrom) ?? FALLBACK_PLATFORM;

/**
 * The platform and page of a synced screen. The screen opens on the platform a link named (the import's 'See the
 * trades'), else on the trader's default trading platform once get_info has answered (`ready` is false until then);
 * the dropdown's choice holds from then on. Switching platform clears what the screen showed (every cached variant
 * under `clearKey`) and goes back to page 1 (docs/PRODUCT.md, Trade list), as does a change of `filterKey`; `base` is
 * null for a platform without a service, `scope` says how the trading routes are asked for the platform's data.
 */
export function usePlatformPaging(clearKey: QueryKey, filterKey = '') {
  const client = useQueryClient();
  const location = useLocation();
  const [chosen, setChosen] = useState<PlatformName | null>(() => linkedPlatform(location.state));
  const fallback = useDefaultPlatform();
  const platform = chosen ?? fallback ?? FALLBACK_PLATFORM;
  const [page, setPage] = useState(1);
  // Other filters or another platform name other rows: a change starts again at page 1 (adjusted while rendering, so
  // the old page of the new rows is never asked for). The default itself may change while nothing was chosen (an
  // import made MetaTrader the default).
  const listKey = `${platform}\n${filterKey}`;
  const [pagedKey, setPagedKey] = useState(listKey);
  if (pagedKey !== listKey) {
    setPagedKey(listKey);
    setPage(1);
  }
  const setPlatform = (next: PlatformName) => {
    if (next === platform) return;
    client.removeQueries({ queryKey: clearKey });
    setChosen(next);
    setPage(1);
  };
  const scope = platformScope(platform);
  const ready = chosen !== null || fallback !== undefined;
  return { platform, ready, base: scope.base, scope, page, setPage, setPlatform };
}

/** Router state `{ platform: 'MetaTrader' }` set by a link to a platform's screen. */
export const platformState = (platform: PlatformName) => ({ platform });

function linkedPlatform(state: unknown): PlatformName | null {
  const named = (state as { platform?: unknown } | null)?.platform;
  return TRADING_PLATFORMS.find((p) => p === named) ?? null;
}
