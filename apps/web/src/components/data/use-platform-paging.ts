import { useState } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { tradingBase, type PlatformName } from '../../config/env';

/**
 * The platform and page of a synced screen. Switching platform clears what the screen showed (every cached variant
 * under `clearKey`) and goes back to page 1 (SPEC §2); `base` is null for a platform without a service.
 */
export function usePlatformPaging(clearKey: QueryKey) {
  const client = useQueryClient();
  const [platform, setPlatformState] = useState<PlatformName>('OANDA');
  const [page, setPage] = useState(1);
  const setPlatform = (next: PlatformName) => {
    if (next === platform) return;
    client.removeQueries({ queryKey: clearKey });
    setPlatformState(next);
    setPage(1);
  };
  return { platform, base: tradingBase(platform), page, setPage, setPlatform };
}
