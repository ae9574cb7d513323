import type { AccountItem, Granularity, Mode, PlatformQuery, TradeItem } from '@pipsense/contract';
import { AppError } from '../../../lib/errors';
import type { SettingsService } from '../../settings';
import type { TradingService } from '../../trading';
import type { JournalFactsService } from '../../journal';
import type { TradeSelection, TradeViews } from '../../trade-views';
import { compareTagsOf } from './journal';
import type { ChatData, DataOrigin } from './chat-data';
import { closedAmounts, performanceTotal, summarisePerformance } from './performance';
import { noDailyRates, prepareConversion, type DailyRates } from '../../../domain/currency-totals';
import { closedInPeriod, itemMatcher, questionSelection, tradeQueryResult } from './trade-query';

export interface TradingChatDataDeps {
  trading: Pick<TradingService, 'accounts' | 'openTradesLive' | 'syncAccounts' | 'candles'>;
  /** The stored trades, read by one selection (modules/trade-views). */
  views: Pick<TradeViews, 'queryTrades' | 'tradeFigures' | 'lastTradeWrite' | 'trades'>;
  /** `defaultTradingPlatform`: which platform's data the trading and accounts topics answer from (OANDA without). */
  settings: Pick<SettingsService, 'oandaCredentials'> & Partial<Pick<SettingsService, 'defaultTradingPlatform'>>;
  journal: Pick<JournalFactsService, 'tags' | 'tagsByTrade' | 'notesByTrade'>;
  now: () => Date;
  /** The trader's home currency and daily rates: money over several currencies (domain/currency-totals.ts). */
  currencyRule?: ((userId: string) => Promise<{ home: string; rates: DailyRates }>) | undefined;
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

/**
 * The assistant's data, read through the trading service for the signed-in user. The trading and accounts topics
 * answer from the user's default trading platform (settings): OANDA (live calls where they help, else the last
 * sync) or MetaTrader (the stored import only: there is nothing live to ask). Candles always come from OANDA.
 */
export function createTradingChatData({
  trading,
  views,
  settings,
  journal,
  now,
  currencyRule = () => Promise.resolve({ home: 'USD', rates: noDailyRates }),
}: TradingChatDataDeps): ChatData {
  async function platformOf(userId: string): Promise<PlatformQuery> {
    return (await settings.defaultTradingPlatform?.(userId)) === 'MetaTrader' ? 'metatrader' : 'oanda';
  }

  async function currenciesOf(userId: string, mode: Mode, platform: PlatformQuery): Promise<Record<string, string>> {
    const accounts = await trading.accounts(userId, mode, platform);
    return Object.fromEntries(accounts.filter((a) => a.currency).map((a) => [a.oandaAccountId, a.currency!] as const));
  }

  /** 'import': the default platform is MetaTrader, whose data is the stored import alone. */
  async function connection(userId: string, mode: Mode): Promise<'none' | 'other' | 'same' | 'import'> {
    if ((await platformOf(userId)) === 'metatrader') return 'import';
    const credentials = await settings.oandaCredentials(userId);
    if (!credentials) return 'none';
    return credentials.mode === mode ? 'same' : 'other';
  }

  const platformFor = (link: Awaited<ReturnType<typeof connection>>): PlatformQuery =>
    link === 'import' ? 'metatrader' : 'oanda';

  /** When the mode's imported accounts were last stored (an import moves their synced time). */
  async function lastImport(userId: string, mode: Mode): Promise<string | null> {
    return lastSynced(await trading.accounts(userId, mode, 'metatrader'));
  }

  /** When the history of the mode was last written: the newest trade write (OANDA) or the newest import. */
  const historyTime = (userId: string, mode: Mode, link: Awaited<ReturnType<typeof connection>>) =>
    link === 'import' ? lastImport(userId, mode) : views.lastTradeWrite(userId, { mode, platform: 'oanda' });

  const syncOrigin = (at: string | null, link: 'none' | 'other' | 'same' | 'import', failure?: string): DataOrigin => {
    if (link === 'import') return { kind: 'import', platform: 'MetaTrader', at };
    return syncOriginOf(at, link, failure);
  };
  const syncOriginOf = (at: string | null, link: 'none' | 'other' | 'same', failure?: string): DataOrigin => ({
    kind: 'sync',
    at,
    reason:
      link === 'none' ? 'not_connected' : link === 'other' ? 'other_mode' : failure ? 'oanda_failed' : 'not_asked',
    ...(failure ? { detail: failure } : {}),
  });

  return {
    async queryTrades(userId, mode, filter, { liveOpen }) {
      const link = await connection(userId, mode);
      const platform = platformFor(link);
      const [currencies, historySyncedAt] = await Promise.all([
        currenciesOf(userId, mode, platform),
        // The trading service keeps no trade-sync time per mode in its API; the newest write of a synced
        // trade is when the stored history last changed.
        historyTime(userId, mode, link),
      ]);
      const tagged = (filter.tagIds ?? []).length > 0;
      let openOrigin = syncOrigin(historySyncedAt, link);
      let live: TradeItem[] | undefined;
      // Tagged trades: the journal names them, beside the stored trades (open ones as of the last sync).
      if (liveOpen && !tagged && link === 'same' && filter.state !== 'closed') {
        try {
          const at = now().toISOString();
          // Closed trades from the history; open ones as OANDA has them now (stored open trades that
          // OANDA no longer lists were closed since the sync, and are left out until the next one).
          live = (await trading.openTradesLive(userId, mode)).map((t): TradeItem => ({
            ...t,
            createdAt: at,
            updatedAt: at,
          }));
          openOrigin = { kind: 'oanda', at };
        } catch (error) {
          openOrigin = syncOrigin(historySyncedAt, link, fallbackDetail(error));
        }
      }
      const storedState = live ? (filter.state === 'all' ? 'closed' : null) : filter.state;
      const selection: TradeSelection | null = storedState
        ? { ...questionSelection({ ...filter, state: storedState }), mode, platform }
        : null;
      const [top, figures, closedStored] = await Promise.all([
        selection ? views.queryTrades(userId, selection, filter.sort, filter.limit) : [],
        selection ? views.tradeFigures(userId, selection) : [],
        live ? views.lastTradeWrite(userId, { mode, platform, state: 'closed' }) : historySyncedAt,
      ]);
      const liveMatches = (live ?? []).filter(itemMatcher(questionSelection(filter)));
      const matched = [
        ...figures.map((f) => ({
          accountId: f.account_id,
          realizedPL: f.realized_pl,
          unrealizedPL: f.unrealized_pl,
        })),
        ...liveMatches,
      ];
      return {
        result: tradeQueryResult(matched, [...top, ...liveMatches], filter, currencies),
        openOrigin,
        historySyncedAt,
        empty: tagged ? historySyncedAt === null : closedStored === null && (live === undefined || live.length === 0),
      };
    },

    async performance(userId, mode, { period, instrument }) {
      const link = await connection(userId, mode);
      const platform = platformFor(link);
      const [currencies, historySyncedAt, figures] = await Promise.all([
        currenciesOf(userId, mode, platform),
        historyTime(userId, mode, link),
        views.tradeFigures(userId, { ...closedInPeriod(period, instrument), mode, platform }),
      ]);
      const closed = figures.map((f) => ({
        accountId: f.account_id,
        tradeId: f.trade_id,
        instrument: f.instrument,
        realizedPL: f.realized_pl,
        financing: f.financing,
        closeTime: f.close_time,
      }));
      const { home, rates } = await currencyRule(userId);
      const conversion = await prepareConversion(home, closedAmounts(closed, currencies), rates);
      return {
        result: {
          ...summarisePerformance(closed, currencies),
          total: performanceTotal(closed, currencies, conversion),
        },
        openOrigin: syncOrigin(historySyncedAt, link),
        historySyncedAt,
        empty: historySyncedAt === null,
      };
    },

    currencyRule,

    async journal(userId) {
      const [tags, tagsByTrade, notesByTrade] = await Promise.all([
        journal.tags(userId),
        journal.tagsByTrade(userId),
        journal.notesByTrade(userId),
      ]);
      return { tags, tagsByTrade, notesByTrade };
    },

    async compareTags(userId, mode, request, facts) {
      const link = await connection(userId, mode);
      const [historySyncedAt, stored] = await Promise.all([
        historyTime(userId, mode, link),
        views.trades(userId, {
          ...closedInPeriod(request.period, request.instrument),
          mode,
          platform: platformFor(link),
        }),
      ]);
      return {
        result: compareTagsOf(stored, facts, request),
        openOrigin: syncOrigin(historySyncedAt, link),
        historySyncedAt,
        empty: historySyncedAt === null,
      };
    },

    async accounts(userId, mode) {
      const link = await connection(userId, mode);
      const platform = platformFor(link);
      if (link === 'same') {
        try {
          // A summary refresh is an account sync: the Accounts screen then shows the same numbers.
          await trading.syncAccounts(userId);
          return {
            accounts: await trading.accounts(userId, mode, platform),
            origin: { kind: 'oanda', at: now().toISOString() },
          };
        } catch (error) {
          const detail = fallbackDetail(error);
          const accounts = await trading.accounts(userId, mode, platform);
          return { accounts, origin: syncOrigin(lastSynced(accounts), link, detail) };
        }
      }
      const accounts = await trading.accounts(userId, mode, platform);
      return { accounts, origin: syncOrigin(lastSynced(accounts), link) };
    },

    async accountTrades(userId, accountKey) {
      const stored = await views.trades(userId, { account: accountKey });
      return stored.map((t) => ({
        tradeId: t.tradeId,
        realizedPL: t.realizedPL,
        financing: t.financing,
        state: t.state,
      }));
    },

    candles(userId, { instrument, granularity, count }) {
      return trading.candles(userId, { instrument, granularity: granularity as Granularity, count });
    },
  };
}

const lastSynced = (accounts: AccountItem[]) => latest(accounts.map((a) => a.syncedAt));
