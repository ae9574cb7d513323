import type {
  Envelope,
  HomeCurrencyResponse,
  MeResponse,
  TimeZoneResponse,
  UpdatePasswordResponse,
} from '@pipsense/contract';
import { config } from '../../../config/env';
import { authRequest } from '../../../lib/api';
import { existsLookups } from '../../../lib/exists-lookups';

const account = `${config.backend}/api/v1/account`;

/** The profile screen's lookups go with the token. */
export const { usernameExists: checkUsernameExists, emailExists: checkEmailExists } = existsLookups(authRequest);

export const updateUsernameEmail = (new_username: string, new_email: string) =>
  authRequest<MeResponse>('POST', `${account}/update_username_email`, { new_username, new_email });
/**
 * The current password is required (docs/decisions/016-password-change-needs-current.md); the answer carries a fresh
 * token (older sessions end).
 */
export const updatePassword = (current_password: string, new_password: string) =>
  authRequest<UpdatePasswordResponse>('POST', `${account}/update_password`, { current_password, new_password });
/** Deletes the account and all of its data (the password required). */
export const deleteAccount = (password: string) =>
  authRequest<Envelope>('POST', `${account}/delete_account`, { password });

/** GET/POST account/get_time_zone, update_time_zone: the zone the Overview is computed in. */
export const getTimeZone = (signal?: AbortSignal) =>
  authRequest<TimeZoneResponse>('GET', `${account}/get_time_zone`, undefined, signal).then((b) => b.data.timeZone);
export const updateTimeZone = (timeZone: string) =>
  authRequest<TimeZoneResponse>('POST', `${account}/update_time_zone`, { timeZone }).then((b) => b.data.timeZone);

/**
 * GET/POST account/get_home_currency, update_home_currency: the currency money of several currencies is converted
 * into (docs/decisions/024-currencies-never-mixed.md); `isDefault` until the trader picks one.
 */
export const getHomeCurrency = (signal?: AbortSignal) =>
  authRequest<HomeCurrencyResponse>('GET', `${account}/get_home_currency`, undefined, signal).then((b) => b.data);
export const updateHomeCurrency = (currency: string) =>
  authRequest<HomeCurrencyResponse>('POST', `${account}/update_home_currency`, { currency }).then((b) => b.data);
