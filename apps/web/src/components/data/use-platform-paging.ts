import { useState } from 'react';
import { useLocation } from 'react-router';
import { TRADING_PLATFORMS } from '@pipsense/contract';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { PlatformName } from '../../config/env';
import { platformScope } from './platform-scope';

/**
 * The platform and page of a synced screen. Switching platform clears what the screen showed (every cached variant
 * under `clearKey`) and goes back to page 1 (docs/PRODUCT.md, Trade list), as does a change of `filterKey`; `base` is
 * null for a platform without a service, `scope` says how the trading routes are asked for the platform's data.
 */
export function usePlatformPaging(clearKey: QueryKey, filterKey = '') {
  const client = useQueryClient();
  const location = useLocation();
  // OANDA first (docs/PRODUCT.md, Trade list), unless the link that led here names the platform (the import's 'See the
  // trades').
  const [platform, setPlatformState] = useState<PlatformName>(() => linkedPlatform(location.state) ?? 'OANDA');
  const [page, setPage] = useState(1);
  // Other filters name other rows: a change starts again at page 1 (adjusted while rendering, so the old page of the
  // new filters is never asked for).
  const [pagedFilter, setPagedFilter] = useState(filterKey);
  if (pagedFilter !== filterKey) {
    setPagedFilter(filterKey);
    setPage(1);
  }
  const setPlatform = (next: PlatformName) => {
    if (next === platform) return;
    client.removeQueries({ queryKey: clearKey });
    setPlatformState(next);
    setPage(1);
  };
  const scope = platformScope(platform);
  return { platform, base: scope.base, scope, page, setPage, setPlatform };
}

/** Router state `{ platform: 'MetaTrader' }` set by a link to a platform's screen. */
export const platformState = (platform: PlatformName) => ({ platform });

function linkedPlatform(state: unknown): PlatformName | null {
  const named = (state as { platform?: unknown } | null)?.platform;
  return TRADING_PLATFORMS.find((p) => p === named) ?? null;
}
