import { useState } from 'react';
import { tradingBase, type PlatformName } from '../../config/env';

/**
 * The platform and page of a synced list. Switching platform goes back to page 1 and lets the screen clear what it
 * showed (SPEC §2); `base` is null for a platform without a service.
 */
export function usePlatformPaging(onSwitch: () => void) {
  const [platform, setPlatformState] = useState<PlatformName>('OANDA');
  const [page, setPage] = useState(1);
  const setPlatform = (next: PlatformName) => {
    if (next === platform) return;
    onSwitch();
    setPlatformState(next);
    setPage(1);
  };
  return { platform, base: tradingBase(platform), page, setPage, setPlatform };
}
