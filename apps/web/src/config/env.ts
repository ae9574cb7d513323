import type { TradingPlatform } from '@pipsense/contract';

/**
 * Base addresses of the services the web app calls (docs/PRODUCT.md, Request helpers). Each defaults to this site's
 * own origin, where the one PipSense server answers everything; each can be set apart at build time. MetaTrader
 * (imported reports) is served by the same trading service as OANDA, asked with `platform=metatrader`; TradeView has
 * no service yet, so it is unconfigured.
 */
const read = (value: string | undefined, fallback: string) => (value === undefined ? fallback : value);
const tradingService = read(import.meta.env.VITE_OANDA_URL as string | undefined, '');

export const config = {
  backend: read(import.meta.env.VITE_BACKEND_URL as string | undefined, ''),
  oanda: tradingService,
  metatrader: tradingService as string | null,
  tradeview: null as string | null,
  openai: read(import.meta.env.VITE_OPENAI_SERVICE_URL as string | undefined, ''),
  vertexai: read(import.meta.env.VITE_VERTEX_SERVICE_URL as string | undefined, ''),
  dashboardUrl: '/overview',
} as const;

/** The spec's platform labels (the dropdowns): PLATFORM_TABLE's labels and TradeView. */
export type PlatformName = TradingPlatform;

/** The trading service for a platform, or null when that platform has no service. */
export function tradingBase(platform: PlatformName): string | null {
  if (platform === 'OANDA') return config.oanda;
  if (platform === 'MetaTrader') return config.metatrader;
  return config.tradeview;
}

/** The AI service for the user's default AI platform. */
export function aiBase(platform: string): string {
  return platform === 'vertexai' ? config.vertexai : config.openai;
}
