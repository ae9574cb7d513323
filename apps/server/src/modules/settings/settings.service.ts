import type { InfoRecord, Mode, ProvidersStatus } from '@pipsense/contract';
import type { Env } from '../../config/env';
import { type Cipher, isMasked, mask } from '../../lib/crypto';
import { badRequest } from '../../lib/errors';
import type { SettingsRepository } from './settings.repository';

export interface OandaCredentials {
  accessToken: string;
  /** Empty: every account the token can see. */
  accountId: string;
  mode: Mode;
}

const DEFAULT_AI = 'openai';
const DEFAULT_TRADING = 'OANDA';

export function providersStatus(env: Env): ProvidersStatus {
  const openaiConfigured = Boolean(env.OPENAI_API_KEY || env.OPENAI_BASE_URL);
  const vertexConfigured = Boolean(env.VERTEX_API_KEY || env.VERTEX_PROJECT);
  const openaiHost = env.OPENAI_BASE_URL ? new URL(env.OPENAI_BASE_URL).host : 'api.openai.com';
  return {
    openai: {
      configured: openaiConfigured,
      detail: openaiConfigured
        ? `Connected through ${openaiHost}: ${env.OPENAI_MODEL_TRADING} for trading, ${env.OPENAI_MODEL_ACCOUNTS} for accounts, ${env.OPENAI_MODEL_CANDLES} for candles.`
        : 'Not configured on this server (set OPENAI_API_KEY). Until then the built-in analyst answers.',
    },
    vertexai: {
      configured: vertexConfigured,
      detail: vertexConfigured
        ? `Connected: ${env.VERTEX_MODEL}${env.VERTEX_PROJECT ? ` in ${env.VERTEX_PROJECT}/${env.VERTEX_LOCATION}` : ''}.`
        : 'Not configured on this server (set VERTEX_API_KEY, or VERTEX_PROJECT with Google credentials). Until then the built-in analyst answers.',
    },
  };
}

export interface SettingsServiceDeps {
  info: SettingsRepository;
  cipher: Cipher;
  now: () => Date;
  /**
   * After a save that connected OANDA or changed its token (app.ts hands in trading's: excursions left unavailable
   * for want of a candle source are looked at again). Awaited; a failure is the hook's to report.
   */
  onOandaConnected?: (userId: string) => Promise<unknown>;
  /**
   * How many of the user's stored trades each account currency has (app.ts hands in the trade views'): the home
   * currency until one is saved is the currency of the most trades.
   */
  tradeCountsByCurrency?: (userId: string) => Promise<ReadonlyArray<{ currency: string; trades: number }>>;
}

/** The home currency of a user without trades and without a saved one. */
const FALLBACK_HOME_CURRENCY = 'USD';

/** The currency of the most trades; ties go to the alphabetically first; unknown ('') currencies do not count. */
export function currencyOfMostTrades(counts: ReadonlyArray<{ currency: string; trades: number }>): string | null {
  let best: { currency: string; trades: number } | null = null;
  for (const item of counts) {
    if (!/^[A-Z]{3}$/.test(item.currency) || item.trades <= 0) continue;
    if (best === null || item.trades > best.trades || (item.trades === best.trades && item.currency < best.currency))
      best = item;
  }
  return best?.currency ?? null;
}

/** Shown in place of a saved OANDA token that cannot be decrypted (get_info's `oandaNotice`). */
export const UNREADABLE_TOKEN_NOTICE =
  'Your saved OANDA access token can no longer be read on this server (its encryption key changed), so OANDA shows as not configured. Enter your access token again.';

export function createSettingsService({
  info,
  cipher,
  now,
  onOandaConnected,
  tradeCountsByCurrency,
}: SettingsServiceDeps) {
  /**
   * The stored token, decrypted with the user's id as associated data. One that cannot be decrypted (another key,
   * a damaged value, a value copied from another user's row, an old v1 value) reads as no token, flagged
   * `unreadable`: the user re-enters it instead of every call failing.
   */
  function unseal(userId: string, sealed: string | null | undefined): { token: string; unreadable: boolean } {
    if (!sealed) return { token: '', unreadable: false };
    try {
      return { token: cipher.decrypt(sealed, userId), unreadable: false };
    } catch {
      return { token: '', unreadable: true };
    }
  }

  async function load(userId: string) {
    const row = await info.find(userId);
    const { token, unreadable } = unseal(userId, row?.oanda_access_token);
    return {
      ai: (row?.default_ai_platform ?? DEFAULT_AI) as InfoRecord['default_ai_platfrom'],
      trading: (row?.default_trading_platform ?? DEFAULT_TRADING) as InfoRecord['default_trading_platfrom'],
      token,
      unreadable,
      accountId: row?.oanda_account_id ?? '',
      mode: (row?.oanda_mode ?? '') as InfoRecord['oanda']['mode'],
    };
  }

  async function view(userId: string): Promise<{ data: InfoRecord; oandaNotice?: string }> {
    const r = await load(userId);
    return {
      data: {
        default_ai_platfrom: r.ai,
        default_trading_platfrom: r.trading,
        oanda: { accessToken: mask(r.token), accountId: r.accountId, mode: r.mode },
      },
      ...(r.unreadable ? { oandaNotice: UNREADABLE_TOKEN_NOTICE } : {}),
    };
  }

  return {
    /** Users with a saved OANDA token, a page in user id order (settings.repository.ts), for the background sync. */
    connectedUsers: (limit: number, after?: string) => info.connectedUsers(limit, after),
    /** When the user's settings holding an OANDA token were last saved; null without a token. */
    connectedSince: (userId: string) => info.connectedSince(userId),

    /** The info record as the client sees it: the access token masked. */
    async get(userId: string): Promise<InfoRecord> {
      return (await view(userId)).data;
    },

    /** The info record and, when the saved token cannot be read, the notice that says to enter it again. */
    view,

    /**
     * Startup: re-seals every OANDA token still stored the v1 way (no associated data) as v2, bound to its user's
     * id (docs/decisions/014-secrets-at-rest.md). Safe to run on several instances at once. Returns how many it
     * re-sealed and how many could not be read with this key (left as they are: they read as not configured).
     */
    async sealLegacyTokens(): Promise<{ resealed: number; unreadable: number }> {
      let resealed = 0;
      let unreadable = 0;
      for (const row of await info.legacyTokens()) {
        if (!row.oanda_access_token) continue;
        let plain: string;
        try {
          plain = cipher.decryptLegacy(row.oanda_access_token);
        } catch {
          unreadable += 1;
          continue;
        }
        if (await info.replaceToken(row.user_id, row.oanda_access_token, cipher.encrypt(plain, row.user_id)))
          resealed += 1;
      }
      return { resealed, unreadable };
    },

    /** Saves the whole record; the masked token sent back keeps the stored one. */
    async update(userId: string, record: InfoRecord): Promise<InfoRecord> {
      const current = await load(userId);
      const sent = record.oanda.accessToken;
      const token = sent && isMasked(sent) ? current.token : sent;
      if (sent && isMasked(sent) && sent !== mask(current.token))
        throw badRequest('Access Token: paste the full token (the masked value does not match the saved one).');
      const { accountId, mode } = record.oanda;
      if (current.unreadable && !token && (accountId || mode))
        throw badRequest(UNREADABLE_TOKEN_NOTICE, 'OANDA_TOKEN_UNREADABLE');
      const anyOanda = Boolean(token || accountId || mode);
      if (anyOanda && (!token || (!accountId && !mode)))
        throw badRequest('All fields are required.', 'OANDA_INCOMPLETE');
      await info.save({
        user_id: userId,
        default_ai_platform: record.default_ai_platfrom,
        // The record's own choice (OANDA or MetaTrader); saving the OANDA configuration without one makes OANDA the
        // default (SPEC: the default becomes OANDA when the OANDA configuration is saved).
        default_trading_platform:
          anyOanda && record.default_trading_platfrom === '' ? 'OANDA' : record.default_trading_platfrom,
        oanda_access_token: token ? cipher.encrypt(token, userId) : null,
        oanda_account_id: accountId,
        // An account without a mode is a demo (practice) account until said otherwise.
        oanda_mode: anyOanda ? mode || 'demo' : '',
        updated_at: now().toISOString(),
      });
      if (token && token !== current.token) await onOandaConnected?.(userId);
      return (await view(userId)).data;
    },

    /** The decrypted OANDA credentials for server-side calls, or undefined when not configured. */
    async oandaCredentials(userId: string): Promise<OandaCredentials | undefined> {
      const r = await load(userId);
      if (!r.token) return undefined;
      return { accessToken: r.token, accountId: r.accountId, mode: r.mode || 'demo' };
    },

    async defaultAiPlatform(userId: string): Promise<InfoRecord['default_ai_platfrom']> {
      return (await load(userId)).ai;
    },

    /** The trader's saved IANA time zone (Profile), or null when none is saved yet. */
    async timeZone(userId: string): Promise<string | null> {
      return (await info.find(userId))?.time_zone ?? null;
    },

    /**
     * Saves the trader's time zone, in the form Intl names it ('utc' → 'UTC'), so that one zone is one Overview
     * snapshot. The contract checked it is an IANA zone.
     */
    async updateTimeZone(userId: string, timeZone: string): Promise<string> {
      const zone = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
      await info.saveTimeZone(userId, zone, {
        user_id: userId,
        default_ai_platform: DEFAULT_AI,
        default_trading_platform: DEFAULT_TRADING,
        oanda_access_token: null,
        oanda_account_id: '',
        oanda_mode: '',
        updated_at: now().toISOString(),
      });
      return zone;
    },

    /**
     * The trader's home currency (docs/decisions/024-currencies-never-mixed.md): the saved one, else the currency of
     * the most trades (`isDefault`), else USD.
     */
    async homeCurrency(userId: string): Promise<{ currency: string; isDefault: boolean }> {
      const saved = (await info.find(userId))?.home_currency;
      if (saved) return { currency: saved, isDefault: false };
      const counts = tradeCountsByCurrency ? await tradeCountsByCurrency(userId) : [];
      return { currency: currencyOfMostTrades(counts) ?? FALLBACK_HOME_CURRENCY, isDefault: true };
    },

    /** Saves the home currency; the contract checked it is an ISO 4217 code. */
    async updateHomeCurrency(userId: string, currency: string): Promise<string> {
      await info.saveHomeCurrency(userId, currency, {
        user_id: userId,
        default_ai_platform: DEFAULT_AI,
        default_trading_platform: DEFAULT_TRADING,
        oanda_access_token: null,
        oanda_account_id: '',
        oanda_mode: '',
        updated_at: now().toISOString(),
      });
      return currency;
    },

    /** The user's default trading platform: the label the chat's trading and accounts topics answer from. */
    async defaultTradingPlatform(userId: string): Promise<InfoRecord['default_trading_platfrom']> {
      return (await load(userId)).trading;
    },

    /**
     * After a MetaTrader import: makes MetaTrader the default trading platform when the user has no OANDA token
     * configured (so the chat answers from the imported data) and it is not the default already. Returns whether
     * the setting changed; a user with OANDA configured keeps their choice.
     */
    async adoptTradingPlatformIfUnset(userId: string, label: 'MetaTrader'): Promise<boolean> {
      const row = await info.find(userId);
      if (row?.oanda_access_token) return false;
      if (row?.default_trading_platform === label) return false;
      await info.save({
        user_id: userId,
        default_ai_platform: row?.default_ai_platform ?? DEFAULT_AI,
        default_trading_platform: label,
        oanda_access_token: null,
        oanda_account_id: row?.oanda_account_id ?? '',
        oanda_mode: row?.oanda_mode ?? '',
        updated_at: now().toISOString(),
      });
      return true;
    },
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;
