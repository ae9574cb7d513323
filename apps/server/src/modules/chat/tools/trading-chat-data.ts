import type { AccountItem, Granularity, Mode, TradeItem } from '@pipsense/contract';
import { AppError } from '../../../lib/errors';
import type { InfoService } from '../../account/info.service';
import type { TradingService } from '../../trading/trading.service';
import type { ChatData, DataOrigin } from './chat-data';

export interface TradingChatDataDeps {
  trading: Pick<TradingService, 'allTrades' | 'accounts' | 'openTradesLive' | 'syncAccounts' | 'candles'>;
  info: Pick<InfoService, 'oandaCredentials'>;
  now: () => Date;
}

/**
 * Failures that mean the connection itself is wrong: answering from old data would hide what the trader
 * must fix, so they end the answer with OANDA's explanation. Anything else (OANDA slow or down, a sync
 * already running) falls back to the last sync, and the answer says so.
 */
const REFUSALS = new Set([
  'OANDA_AUTH',
  'OANDA_FORBIDDEN',
  'OANDA_ACCOUNT_NOT_FOUND',
  'OANDA_NOT_CONFIGURED',
  'OANDA_MODE_MISMATCH',
]);

function fallbackDetail(error: unknown): string {
  if (error instanceof AppError && !REFUSALS.has(error.code)) return error.message;
  throw error;
}

const latest = (times: Array<string | null | undefined>): string | null =>
  times.reduce<string | null>((max, t) => (t && (max === null || t > max) ? t : max), null);

/** The assistant's data, read through the trading service for the signed-in user. */
export function createTradingChatData({ trading, info, now }: TradingChatDataDeps): ChatData {
  async function connection(userId: string, mode: Mode): Promise<'none' | 'other' | 'same'> {
    const credentials = await info.oandaCredentials(userId);
    if (!credentials) return 'none';
    return credentials.mode === mode ? 'same' : 'other';
  }

  const syncOrigin = (at: string | null, link: 'none' | 'other' | 'same', failure?: string): DataOrigin => ({
    kind: 'sync',
    at,
    reason:
      link === 'none' ? 'not_connected' : link === 'other' ? 'other_mode' : failure ? 'oanda_failed' : 'not_asked',
    ...(failure ? { detail: failure } : {}),
  });

  return {
    async trades(userId, mode, { liveOpen }) {
      const [link, stored, accounts] = await Promise.all([
        connection(userId, mode),
        trading.allTrades(userId, { mode }),
        trading.accounts(userId, mode),
      ]);
      const currencies = Object.fromEntries(
        accounts.filter((a) => a.currency).map((a) => [a.oandaAccountId, a.currency!] as const),
      );
      // The trading service keeps no trade-sync time per mode in its API; the newest write of a synced
      // trade is when the stored history last changed.
      const historySyncedAt = latest(stored.map((t) => t.updatedAt));
      let openOrigin = syncOrigin(historySyncedAt, link);
      let trades: TradeItem[] = stored;

      if (liveOpen && link === 'same') {
        try {
          const at = now().toISOString();
          const live = await trading.openTradesLive(userId, mode);
          // Closed trades from the history; open ones as OANDA has them now (stored open trades that
          // OANDA no longer lists were closed since the sync, and are left out until the next one).
          trades = [
            ...stored.filter((t) => t.state === 'CLOSED'),
            ...live.map((t): TradeItem => ({ ...t, createdAt: at, updatedAt: at })),
          ];
          openOrigin = { kind: 'oanda', at };
        } catch (error) {
          openOrigin = syncOrigin(historySyncedAt, link, fallbackDetail(error));
        }
      }
      return { trades, openOrigin, historySyncedAt, currencies };
    },

    async accounts(userId, mode) {
      const link = await connection(userId, mode);
      if (link === 'same') {
        try {
          // A summary refresh is an account sync: the Accounts screen then shows the same numbers.
          await trading.syncAccounts(userId);
          return { accounts: await trading.accounts(userId, mode), origin: { kind: 'oanda', at: now().toISOString() } };
        } catch (error) {
          const detail = fallbackDetail(error);
          const accounts = await trading.accounts(userId, mode);
          return { accounts, origin: syncOrigin(lastSynced(accounts), link, detail) };
        }
      }
      const accounts = await trading.accounts(userId, mode);
      return { accounts, origin: syncOrigin(lastSynced(accounts), link) };
    },

    candles(userId, { instrument, granularity, count }) {
      return trading.candles(userId, { instrument, granularity: granularity as Granularity, count });
    },
  };
}

const lastSynced = (accounts: AccountItem[]) => latest(accounts.map((a) => a.syncedAt));
