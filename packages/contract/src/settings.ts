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
