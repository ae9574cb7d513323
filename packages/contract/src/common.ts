import { z } from 'zod';

/** Every response body carries these two fields; success is true only with HTTP 200. */
export const envelope = z.object({ success: z.boolean(), message: z.string() });
export type Envelope = z.infer<typeof envelope>;

export const errorBody = envelope.extend({
  success: z.literal(false),
  code: z.string(),
  requestId: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** What the client needs to act on the failure (e.g. MISSING_COLUMN: the file's columns and the missing fields). */
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

/** Broker numbers travel as decimal strings (OANDA v20) so that no digit is lost. */
export const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal number');

export const pageQuery = z.object({
  page: z.coerce
    .number({ error: 'page must be a whole number of 1 or more' })
    .int('page must be a whole number of 1 or more')
    .min(1, 'page must be a whole number of 1 or more')
    .default(1),
  limit: z.coerce
    .number({ error: 'limit must be a whole number from 1 to 100' })
    .int('limit must be a whole number from 1 to 100')
    .min(1, 'limit must be a whole number from 1 to 100')
    .max(100, 'limit must be a whole number from 1 to 100')
    .default(10),
});

export const PAGE_SIZE = 10;
export const TRADING_PLATFORMS = ['OANDA', 'MetaTrader', 'TradeView'] as const;
export type TradingPlatform = (typeof TRADING_PLATFORMS)[number];
export const MODES = ['demo', 'live'] as const;
export type Mode = (typeof MODES)[number];

/** The trader's IANA zone (the browser's `Intl.DateTimeFormat().resolvedOptions().timeZone`); days and hours use it. */
export const timeZone = z
  .string({ error: 'timeZone must be an IANA time zone such as Europe/London' })
  .trim()
  .min(1, 'timeZone must be an IANA time zone such as Europe/London')
  .max(64, 'timeZone must be an IANA time zone such as Europe/London')
  .refine(
    (value) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: value });
        return true;
      } catch {
        return false;
      }
    },
    { message: 'timeZone must be an IANA time zone such as Europe/London' },
  );

/** An amount of one currency: an exact decimal string with its ISO 4217 code. */
export const currencyAmount = z.object({ currency: z.string(), amount: z.string() });
export type CurrencyAmount = z.infer<typeof currencyAmount>;

/**
 * A money figure that may span accounts (docs/decisions/024-currencies-never-mixed.md): `single` (every account in one
 * currency: the amount in it), `converted` (several currencies, each amount converted into the home `currency` at
 * its close day's rate; `from` names the currencies converted) or `listed` (a rate is missing: one amount per
 * currency, never added). Amounts are decimal strings with 2 decimals, as the cards show them.
 */
/** How a view's money is shown: one currency, converted into the home currency, or listed per currency. */
export const currencyMode = z.enum(['single', 'converted', 'listed']);

export const moneyFigure = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('single'), currency: z.string(), amount: z.string() }),
  z.object({ mode: z.literal('converted'), currency: z.string(), amount: z.string(), from: z.array(z.string()) }),
  z.object({ mode: z.literal('listed'), byCurrency: z.array(currencyAmount) }),
]);
export type MoneyFigure = z.infer<typeof moneyFigure>;

/** An ISO-8601 date or time in a query, as a UTC instant. */
export const isoTime = (field: string) =>
  z
    .string({ error: `${field} must be an ISO-8601 date or time` })
    .trim()
    .refine((v) => /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v)), {
      message: `${field} must be an ISO-8601 date or time, e.g. 2025-01-31 or 2025-01-31T12:00:00Z`,
    })
    .transform((v) => new Date(v).toISOString());
