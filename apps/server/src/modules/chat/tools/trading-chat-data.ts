import type { AccountItem, Granularity, Mode, TradeItem } from '@pipsense/contract';
import { AppError } from '../../../lib/errors';
import type { SettingsService } from '../../settings/settings.service';
import type { TradeQuery, TradingService } from '../../trading/trading.service';
import type { JournalFactsService } from '../../journal/journal-facts.service';
import { compareTagsOf, hasAnyTag } from './journal';
import type { ChatData, DataOrigin } from './chat-data';
import { summarisePerformance } from './performance';
import type { ResolvedPeriod } from './periods';
import { matchesTrade, normaliseInstrument, tradeQueryResult, type TradeFilter } from './trade-query';

export interface TradingChatDataDeps {
  trading: Pick<
    TradingService,
    | 'queryTrades'
    | 'tradeFigures'
    | 'lastTradeWrite'
    | 'accounts'
    | 'openTradesLive'
    | 'syncAccounts'
    | 'candles'
    | 'allTrades'
  >;
  info: Pick<SettingsService, 'oandaCredentials'>;
  journal: Pick<JournalFactsService, 'tags' | 'tagsByTrade' | 'notesByTrade' | 'initialStops'>;
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

const timeBounds = (period: ResolvedPeriod) => ({
  from: period.from?.toISOString() ?? null,
  to: period.to?.toISOString() ?? null,
});

/** The stored part of a trade question, asked of the database (sort and limit go with it). */
const storedQuery = (mode: Mode, filter: TradeFilter): TradeQuery => ({
  ...timeBounds(filter.period),
  mode,
  state: filter.state,
  instrument: filter.instrument ? normaliseInstrument(filter.instrument) : undefined,
  outcome: filter.outcome,
  stopLoss: filter.stopLoss,
  takeProfit: filter.takeProfit,
});

/** The assistant's data, read through the trading service for the signed-in user. */
export function createTradingChatData({ trading, info, journal, now }: TradingChatDataDeps): ChatData {
  async function currenciesOf(userId: string, mode: Mode): Promise<Record<string, string>> {
    const accounts = await trading.accounts(userId, mode);
    return Object.fromEntries(accounts.filter((a) => a.currency).map((a) => [a.oandaAccountId, a.currency!] as const));
  }

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
    async queryTrades(userId, mode, filter, { liveOpen }) {
      const tagIds = filter.tagIds ?? [];
      if (tagIds.length > 0) {
        // Tagged trades: the journal names them, so the stored history is read and filtered here (open ones as
        // of the last sync).
        const [link, currencies, historySyncedAt, stored, facts] = await Promise.all([
          connection(userId, mode),
          currenciesOf(userId, mode),
          trading.lastTradeWrite(userId, mode),
          trading.allTrades(userId, { mode }),
          this.journal(userId),
        ]);
        const matched = stored.filter((t) => hasAnyTag(facts, t, tagIds) && matchesTrade(t, filter));
        return {
          result: tradeQueryResult(matched, matched, filter, currencies),
          openOrigin: syncOrigin(historySyncedAt, link),
          historySyncedAt,
          empty: historySyncedAt === null,
        };
      }
      const [link, currencies, historySyncedAt] = await Promise.all([
        connection(userId, mode),
        currenciesOf(userId, mode),
        // The trading service keeps no trade-sync time per mode in its API; the newest write of a synced
        // trade is when the stored history last changed.
        trading.lastTradeWrite(userId, mode),
      ]);
      let openOrigin = syncOrigin(historySyncedAt, link);
      let live: TradeItem[] | undefined;
      if (liveOpen && link === 'same' && filter.state !== 'closed') {
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
      const query = storedState ? storedQuery(mode, { ...filter, state: storedState }) : null;
      const [top, figures, closedStored] = await Promise.all([
        query ? trading.queryTrades(userId, query, filter.sort, filter.limit) : [],
        query ? trading.tradeFigures(userId, query) : [],
        live ? trading.lastTradeWrite(userId, mode, 'closed') : historySyncedAt,
      ]);
      const liveMatches = (live ?? []).filter((t) => matchesTrade(t, filter));
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
        empty: closedStored === null && (live === undefined || live.length === 0),
      };
    },

    async performance(userId, mode, { period, instrument }) {
      const [link, currencies, historySyncedAt, figures] = await Promise.all([
        connection(userId, mode),
        currenciesOf(userId, mode),
        trading.lastTradeWrite(userId, mode),
        trading.tradeFigures(userId, {
          ...timeBounds(period),
          mode,
          state: 'closed',
          instrument: instrument ? normaliseInstrument(instrument) : undefined,
        }),
      ]);
      const closed = figures.map((f) => ({
        accountId: f.account_id,
        tradeId: f.trade_id,
        instrument: f.instrument,
        realizedPL: f.realized_pl,
        financing: f.financing,
        closeTime: f.close_time,
      }));
      return {
        result: summarisePerformance(closed, currencies),
        openOrigin: syncOrigin(historySyncedAt, link),
        historySyncedAt,
        empty: historySyncedAt === null,
      };
    },

    async journal(userId) {
      const [tags, tagsByTrade, notesByTrade, initialStops] = await Promise.all([
        journal.tags(userId),
        journal.tagsByTrade(userId),
        journal.notesByTrade(userId),
        journal.initialStops(userId),
      ]);
      return { tags, tagsByTrade, notesByTrade, initialStops };
    },

    async compareTags(userId, mode, request, facts) {
      const [link, historySyncedAt, stored] = await Promise.all([
        connection(userId, mode),
        trading.lastTradeWrite(userId, mode),
        trading.allTrades(userId, { mode, state: 'CLOSED' }),
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
