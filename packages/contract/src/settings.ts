import { z } from 'zod';
import { envelope, MODES, timeZone } from './common';
import { username, email, password } from './auth';
import { PLATFORM_LABELS } from './platforms';

const AI_PLATFORMS = ['openai', 'vertexai', 'gemini'] as const;
export type AiPlatformId = (typeof AI_PLATFORMS)[number];

const oandaConfig = z.object({
  accessToken: z.string().trim().max(512, 'Access Token is too long.').default(''),
  accountId: z
    .string()
    .trim()
    .max(64)
    .regex(/^(\d{3}-\d{3}-\d+-\d{3})?$/, 'Account ID must look like 101-004-1234567-001.')
    .default(''),
  mode: z.enum([...MODES, ''], { error: 'Mode must be demo or live.' }).default(''),
});

/** The user info record; the `platfrom` spelling is part of the contract (docs/PRODUCT.md, Data shapes). */
export const infoRecord = z.object({
  default_ai_platfrom: z.enum(AI_PLATFORMS, { error: 'default_ai_platfrom must be openai, vertexai or gemini.' }),
  default_trading_platfrom: z.enum([...PLATFORM_LABELS, ''], {
    error: `default_trading_platfrom must be ${PLATFORM_LABELS.join(' or ')}.`,
  }),
  oanda: oandaConfig,
});
export type InfoRecord = z.infer<typeof infoRecord>;

/** What the server can reach: tells the AI Platform screen the truth about each provider. */
const providerStatus = z.object({ configured: z.boolean(), detail: z.string() });
const providersStatus = z.object({ openai: providerStatus, vertexai: providerStatus });
export type ProvidersStatus = z.infer<typeof providersStatus>;

export const getInfoResponse = envelope.extend({
  data: infoRecord,
  providers: providersStatus,
  /**
   * Set when a saved OANDA access token can no longer be read (the server's encryption key changed, or the stored
   * value was damaged): the record then shows no token, and this says to enter it again (SECURITY.md, Secrets at rest).
   */
  oandaNotice: z.string().optional(),
});
export type GetInfoResponse = z.infer<typeof getInfoResponse>;

export const updateUsernameEmailBody = z.object({ new_username: username, new_email: email });
/**
 * `current_password` is required (docs/decisions/016-password-change-needs-current.md departs from the base
 * payload). The answer carries a fresh token: the change ends every other session, this one included.
 */
export const updatePasswordBody = z.object({
  current_password: z
    .string({ error: 'Current Password is required.' })
    .min(1, 'Current Password is required.')
    .max(128, 'Current Password is not correct. Nothing was changed.'),
  new_password: password,
});
export const updatePasswordResponse = envelope.extend({ token: z.string() });
export type UpdatePasswordResponse = z.infer<typeof updatePasswordResponse>;

/** Deleting the account needs the password. */
export const deleteAccountBody = z.object({
  password: z.string({ error: 'Password is required.' }).min(1, 'Password is required.').max(128),
});

/**
 * The trader's time zone (Profile): the Overview's days and hours are in it, and its snapshot is computed
 * in it. `null` until saved: the web app then saves the browser's zone once, and until then the overview uses the
 * zone each request gives.
 */
const timeZoneSetting = z.object({ timeZone: z.string().nullable() });
export const updateTimeZoneBody = z.object({ timeZone });
export const timeZoneResponse = envelope.extend({ data: timeZoneSetting });
export type TimeZoneResponse = z.infer<typeof timeZoneResponse>;

/**
 * The ISO 4217 currency codes a home currency may be (the active codes, as ICU lists them; written out so that the
 * server and every browser accept the same list).
 */
export const CURRENCY_CODES: readonly string[] = (
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD ' +
  'CDF CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF ' +
  'GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK ' +
  'LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR ' +
  'PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC ' +
  'SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XCG XDR XOF XPF ' +
  'XSU YER ZAR ZMW ZWG ZWL'
).split(' ');
const currencyCodes = new Set(CURRENCY_CODES);

const HOME_CURRENCY_HINT = 'currency must be an ISO 4217 code of three capital letters, such as USD, EUR or JPY';

/** A currency code from CURRENCY_CODES ('USD'); anything else is refused with a message that says what to send. */
const currencyCode = z
  .string({ error: HOME_CURRENCY_HINT })
  .refine((value) => /^[A-Z]{3}$/.test(value), { message: HOME_CURRENCY_HINT })
  .refine((value) => !/^[A-Z]{3}$/.test(value) || currencyCodes.has(value), {
    message: `${HOME_CURRENCY_HINT}; this one is not an ISO 4217 currency`,
  });

/**
 * The home currency (Profile): money figures that span accounts of several currencies are converted into it, or
 * listed per currency (docs/decisions/024-currencies-never-mixed.md). `isDefault`: not saved yet, so it is the
 * currency of the most trades (ties: the alphabetically first; 'USD' without trades).
 */
const homeCurrencySetting = z.object({ currency: z.string(), isDefault: z.boolean() });
export const updateHomeCurrencyBody = z.object({ currency: currencyCode });
export const homeCurrencyResponse = envelope.extend({ data: homeCurrencySetting });
export type HomeCurrencyResponse = z.infer<typeof homeCurrencyResponse>;
