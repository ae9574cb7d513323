import { platformByLabel, platformByStored, platformParam, type PlatformQuery } from '@pipsense/contract';
import { tradingBase, type PlatformName } from '../../config/env';

/** What the trading routes are asked with: `{ platform: 'metatrader' }`; the server's default (OANDA) sends nothing. */
export type PlatformParams = { platform?: PlatformQuery };

/** The platform the server answers when none is named (`platformParam`'s default: OANDA). */
const DEFAULT_PLATFORM: PlatformQuery = platformParam.parse(undefined);

/** Platforms whose data comes from uploaded reports, not from a broker's API: Import instead of Sync. */
const IMPORTED_PLATFORMS: readonly PlatformQuery[] = ['metatrader'];

export interface PlatformScope {
  /** The spec's label in the dropdown ('OANDA', 'MetaTrader', 'TradeView'). */
  label: PlatformName;
  /** The trading service, or null for a platform without one (TradeView). */
  base: string | null;
  /** PLATFORM_TABLE's query value; null for a platform that holds no data. */
  query: PlatformQuery | null;
  /** The `platform` parameter of the list, export and metrics routes. */
  params: PlatformParams;
  /** Trades and accounts come from imported reports (nothing to sync). */
  imported: boolean;
}

/** The contract's platform row behind a dropdown label, and how the trading routes are asked for its data. */
export function platformScope(label: PlatformName): PlatformScope {
  const query = platformByLabel(label)?.query ?? null;
  const base = query === null ? null : tradingBase(label);
  return {
    label,
    base,
    query,
    params: query === null || query === DEFAULT_PLATFORM ? {} : { platform: query },
    imported: query !== null && IMPORTED_PLATFORMS.includes(query),
  };
}

/**
 * The platform of an account by the `accountId` the API knows it by: an imported account's is its key, which starts
 * with the platform's stored name ('metatrader:Server:login'); an OANDA account's is OANDA's own id, without a colon.
 */
export function platformOfAccountId(accountId: string): PlatformName {
  const colon = accountId.indexOf(':');
  return (colon > 0 && platformByStored(accountId.slice(0, colon))?.label) || 'OANDA';
}
