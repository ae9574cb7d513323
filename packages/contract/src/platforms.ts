import { z } from 'zod';

/**
 * The trading platforms that hold data (issue 10): one row each, used by server and web alike.
 * - `query`: the value of the API's `platform` query parameter (`?platform=metatrader`) and of `platform` on rows;
 * - `stored`: what `broker_accounts.platform` and `trades.platform` hold (the account key's first part);
 * - `label`: the name the spec shows (SPEC §3 dropdowns, the chat's 'Querying: …' breadcrumb, `default_trading_platfrom`).
 * TradeView is listed by the spec but holds no data, so it is not in this table (see TRADING_PLATFORMS in common.ts).
 */
export const PLATFORM_TABLE = [
  { query: 'oanda', stored: 'oanda', label: 'OANDA' },
  { query: 'metatrader', stored: 'metatrader', label: 'MetaTrader' },
] as const;

export type PlatformRow = (typeof PLATFORM_TABLE)[number];
export type PlatformQuery = PlatformRow['query'];
export type PlatformLabel = PlatformRow['label'];
export type PlatformStored = PlatformRow['stored'];

export const PLATFORM_QUERIES = PLATFORM_TABLE.map((p) => p.query) as [PlatformQuery, ...PlatformQuery[]];
export const PLATFORM_LABELS = PLATFORM_TABLE.map((p) => p.label) as [PlatformLabel, ...PlatformLabel[]];

export const platformByQuery = (query: PlatformQuery): PlatformRow => PLATFORM_TABLE.find((p) => p.query === query)!;
/** The row of a spec label ('OANDA', 'MetaTrader'); undefined for a label without data (TradeView). */
export const platformByLabel = (label: string): PlatformRow | undefined =>
  PLATFORM_TABLE.find((p) => p.label === label);
export const platformByStored = (stored: string): PlatformRow | undefined =>
  PLATFORM_TABLE.find((p) => p.stored === stored);

/** `?platform=`: oanda (the default, as before issue 10) or metatrader. */
export const platformParam = z
  .enum(PLATFORM_QUERIES, { error: `platform must be ${PLATFORM_QUERIES.join(' or ')}` })
  .default('oanda');
