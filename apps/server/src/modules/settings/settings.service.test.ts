import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { InfoRecord } from '@pipsense/contract';
import type { Selectable } from 'kysely';
import type { UserInfoTable } from '../../db/schema';
import { createCipher } from '../../lib/crypto';
import { createSettingsService } from './settings.service';
import type { SettingsRepository } from './settings.repository';

/* The default trading platform (docs/decisions/012-metatrader-import.md): kept as the record says, OANDA when OANDA is
 * saved without one, and MetaTrader adopted after an import only for a user without OANDA. */

function service() {
  const rows = new Map<string, Selectable<UserInfoTable>>();
  const info: SettingsRepository = {
    find: (userId: string) => Promise.resolve(rows.get(userId)),
    save: (row) => {
      const before = rows.get(row.user_id);
      rows.set(row.user_id, {
        ...row,
        oanda_access_token: row.oanda_access_token ?? null,
        time_zone: row.time_zone ?? before?.time_zone ?? null,
        home_currency: row.home_currency ?? before?.home_currency ?? null,
      });
      return Promise.resolve();
    },
    connectedUsers: () => Promise.resolve([]),
    connectedSince: () => Promise.resolve(null),
    legacyTokens: () => Promise.resolve([]),
    replaceToken: () => Promise.resolve(false),
    saveTimeZone: (userId, timeZone, defaults) => {
      const before = rows.get(userId);
      rows.set(userId, { oanda_access_token: null, home_currency: null, ...(before ?? defaults), time_zone: timeZone });
      return Promise.resolve();
    },
    saveHomeCurrency: (userId, currency, defaults) => {
      const before = rows.get(userId);
      rows.set(userId, { oanda_access_token: null, time_zone: null, ...(before ?? defaults), home_currency: currency });
      return Promise.resolve();
    },
  };
  return createSettingsService({ info, cipher: createCipher(randomBytes(32)), now: () => new Date(0) });
}

const OANDA = {
  accessToken: 'abcd1234efgh5678-0123456789abcdef',
  accountId: '101-004-1234567-001',
  mode: 'demo' as const,
};
const record = (platform: InfoRecord['default_trading_platfrom'], oanda: InfoRecord['oanda'] = OANDA): InfoRecord => ({
  default_ai_platfrom: 'openai',
  default_trading_platfrom: platform,
  oanda,
});
const NO_OANDA = { accessToken: '', accountId: '', mode: '' as const };

describe('the default trading platform', () => {
  it('keeps the platform the record names, also MetaTrader beside an OANDA configuration', async () => {
    const s = service();
    await s.update('u', record('MetaTrader'));
    expect(await s.defaultTradingPlatform('u')).toBe('MetaTrader');
    await s.update('u', record('OANDA'));
    expect(await s.defaultTradingPlatform('u')).toBe('OANDA');
  });

  it('becomes OANDA when the OANDA configuration is saved without a platform', async () => {
    const s = service();
    await s.update('u', record('', NO_OANDA));
    expect(await s.defaultTradingPlatform('u')).toBe('');
    await s.update('u', record(''));
    expect(await s.defaultTradingPlatform('u')).toBe('OANDA');
  });

  it('adopts MetaTrader after an import only without an OANDA token, once', async () => {
    const s = service();
    // A new user (no record yet): adopted, and the rest of the record keeps its defaults.
    expect(await s.adoptTradingPlatformIfUnset('new', 'MetaTrader')).toBe(true);
    expect(await s.get('new')).toEqual({
      default_ai_platfrom: 'openai',
      default_trading_platfrom: 'MetaTrader',
      oanda: { accessToken: '', accountId: '', mode: '' },
    });
    expect(await s.adoptTradingPlatformIfUnset('new', 'MetaTrader')).toBe(false);

    await s.update('oanda', record('OANDA'));
    expect(await s.adoptTradingPlatformIfUnset('oanda', 'MetaTrader')).toBe(false);
    expect(await s.defaultTradingPlatform('oanda')).toBe('OANDA');
    expect((await s.oandaCredentials('oanda'))?.accessToken).toBe(OANDA.accessToken);

    await s.update('ai', { ...record('', NO_OANDA), default_ai_platfrom: 'vertexai' });
    expect(await s.adoptTradingPlatformIfUnset('ai', 'MetaTrader')).toBe(true);
    expect(await s.get('ai')).toMatchObject({
      default_ai_platfrom: 'vertexai',
      default_trading_platfrom: 'MetaTrader',
    });
  });
});
