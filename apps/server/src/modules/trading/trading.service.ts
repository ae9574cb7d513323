import type { Kysely } from 'kysely';
import type {
  AccountItem,
  AccountSyncResult,
  CandlesResult,
  Granularity,
  Mode,
  PlatformQuery,
  TradeItem,
  TradeListItem,
  TradeSyncResult,
} from '@pipsense/contract';
import { listVersionReader } from '../../db/data-versions';
import { AppError, badRequest } from '../../lib/errors';
import { normaliseDateTime } from '../../integrations/oanda/datetime';
import type { OandaApi, OandaClient } from '../../integrations/oanda/oanda-client';
import type { SettingsService, OandaCredentials } from '../settings';
import { metatraderAccount, oandaAccount } from './account-key';

import { resolveAccountIds, syncAccounts } from './account-sync.service';
import { createBrokerAccountRepository, type AccountFilter } from './broker-account.repository';
import {
  importedAccountContent,
  importedTradeRecords,
  type ImportCounts,
  type ImportedAccountInput,
  type ImportedTradeInput,
} from './metatrader-store';
import { toAccountItem, toTradeItem, tradeRecord } from './broker-data';
import { aboutAccount, notConfigured, oandaFailure, SETTINGS } from './oanda-failure';
import { createSyncLock } from './sync-lock';
import { createUserConcurrency, type UserConcurrency } from '../../lib/user-concurrency';
import { syncTrades, type TradeSyncOptions } from './trade-sync.service';
import { createTradeRepository, type TradeFilter } from './trade.repository';
import { exportFileName, tradesCsv } from './trade-export';
import { toTradeListItem } from './trade-list-item';
import { createTradeListCache, tradeListQueryKey } from './trade-list-cache';
import {
  createTradeListRepository,
  tradeKey,
  type TradeCursor,
  type TradeListFilter,
  type TradeListRow,
} from './trade-list.repository';
import {
  createTradeQueryRepository,
  type TradeFigures,
  type TradeQuery,
  type TradeSort,
} from './trade-query.repository';
import type { TradingServiceDb } from './tables';

export interface TradingServiceDeps {
  db: Kysely<TradingServiceDb>;
  oanda: OandaClient;
  settings: Pick<SettingsService, 'oandaCredentials'>;
  now: () => Date;
  /** Candle requests of one user at once (issue 12, finding 5); default CANDLE_CONCURRENCY. */
  candleLimit?: UserConcurrency | undefined;
}

/**
 * Candle requests one user may have at once: 2 running, 6 more waiting in order (a round of the assistant's tool
 * calls, at most 8, always fits), then 429 TOO_MANY_RUNNING (docs/decisions/019-per-user-concurrency.md).
 */
export const CANDLE_CONCURRENCY = { running: 2, queued: 6, what: 'candle request' } as const;

export interface PageRequest {
  page: number;
  limit: number;
}

export interface Paged<T> {
  data: T[];
  /** At least 1, also for an empty list. */
  pages: number;
  total: number;
}

export interface CandleRequest {
  instrument: string;
  granularity: Granularity;
  count?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
  price?: string | undefined;
}

/** A trade as OANDA reports it right now (not stored, so without stored-at times). */
export type LiveTrade = Omit<TradeItem, 'createdAt' | 'updatedAt'>;

const pagesFor = (total: number, limit: number) => Math.max(1, Math.ceil(total / limit));

/** Rows a batch of the export (or a journal day) reads at a time. */
export const TRADE_BATCH = 1000;

/**
 * The trading module's use cases: syncs, lists, candles. Analytics and the assistant call the exported methods
 * (allTrades, accounts, openTradesLive, candles, …); they never touch the tables themselves.
 */
export function createTradingService({ db, oanda, settings, now, candleLimit }: TradingServiceDeps) {
  const candleTurns = candleLimit ?? createUserConcurrency(CANDLE_CONCURRENCY);
  const trades = createTradeRepository(db);
  const tradeQuery = createTradeQueryRepository(db);
  const tradeList = createTradeListRepository(db);
  const accounts = createBrokerAccountRepository(db);
  const lock = createSyncLock();
  const listCache = createTradeListCache();
  const listVersionOf = listVersionReader(db);

  async function connect(userId: string): Promise<{ api: OandaApi; credentials: OandaCredentials }> {
    const credentials = await settings.oandaCredentials(userId);
    if (!credentials) throw notConfigured();
    return { api: oanda.forCredentials(credentials), credentials };
  }

  /** Runs OANDA work, turning client failures into messages for the user. */
  async function upstream<T>(work: () => Promise<T>, sync = false): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw oandaFailure(error, { sync });
    }
  }

  /** A tag filter naming a tag the user does not have is a mistake (a deleted tag, another user's id): 400. */
  async function checkTags(userId: string, filter: TradeListFilter): Promise<void> {
    const unknown = await tradeList.unknownTags(userId, filter.tag ?? []);
    if (unknown.length > 0)
      throw badRequest(
        `tag: no tag ${unknown.map((id) => JSON.stringify(id)).join(', ')} in your journal. Pick tags from your tag list.`,
        'UNKNOWN_TAG',
      );
  }

  async function withJournal(userId: string, rows: TradeListRow[]): Promise<TradeListItem[]> {
    const tags = await tradeList.tagsOf(userId, rows);
    return rows.map((row) => toTradeListItem(row, tags.get(tradeKey(row)) ?? []));
  }

  return {
    /** Pulls the trade history (incremental after the first time; `full` re-reads everything). */
    async syncTrades(userId: string, options: TradeSyncOptions = {}): Promise<TradeSyncResult> {
      const { api, credentials } = await connect(userId);
      return lock.run(
        `${userId}:trades`,
        'A trade sync is already running for your account. Wait for it to finish.',
        () => upstream(() => syncTrades({ trades, accounts, now }, api, userId, credentials, options), true),
      );
    },

    /** Pulls every account's summary (or the configured account's). */
    async syncAccounts(userId: string): Promise<AccountSyncResult> {
      const { api, credentials } = await connect(userId);
      return lock.run(
        `${userId}:accounts`,
        'An account sync is already running for your account. Wait for it to finish.',
        () => upstream(() => syncAccounts({ accounts, now }, api, userId, credentials), true),
      );
    },

    /** One page of stored trades with their journal and risk, filtered and sorted (newest open first by default). */
    async tradePage(
      userId: string,
      { page, limit }: PageRequest,
      filter: TradeListFilter = {},
    ): Promise<Paged<TradeListItem>> {
      await checkTags(userId, filter);
      const { rows, total } = await tradeList.pageOf(userId, filter, (page - 1) * limit, limit);
      return { data: await withJournal(userId, rows), pages: pagesFor(total, limit), total };
    },

    /**
     * `tradePage` as the JSON the API sends, UTF-8 encoded (`serialise` turns a page into its text: the route's
     * response schema).
     * One read of the user's list version per call; the page itself is computed and serialised once per version
     * and request on this instance (trade-list-cache.ts), so a repeated request costs that read alone.
     */
    async tradePageJson(
      userId: string,
      request: PageRequest,
      filter: TradeListFilter,
      serialise: (page: Paged<TradeListItem>) => string,
    ): Promise<Buffer> {
      const version = await listVersionOf(userId);
      return listCache.json(userId, version, tradeListQueryKey(request.page, request.limit, filter), async () =>
        serialise(await this.tradePage(userId, request, filter)),
      );
    },

    /**
     * Every matching trade as list rows, `TRADE_BATCH` at a time, in the filter's order (keyset: each batch is one
     * query that starts after the previous batch's last row). Unknown tags are refused before the first batch.
     */
    async tradeBatches(userId: string, filter: TradeListFilter): Promise<AsyncGenerator<TradeListItem[]>> {
      await checkTags(userId, filter);
      return (async function* () {
        let cursor: TradeCursor | null = null;
        for (;;) {
          const rows = await tradeList.batch(userId, filter, cursor, TRADE_BATCH);
          if (rows.length > 0) yield await withJournal(userId, rows);
          if (rows.length < TRADE_BATCH) return;
          cursor = rows.at(-1)!;
        }
      })();
    },

    /**
     * The matching trades as CSV text chunks (trade-export.ts), read batch by batch as the consumer pulls them,
     * and the attachment's file name. Refuses unknown tags before anything is sent.
     */
    async exportTrades(userId: string, filter: TradeListFilter, timeZone: string) {
      const batches = await this.tradeBatches(userId, filter);
      return { fileName: exportFileName(now(), timeZone), chunks: tradesCsv(batches, timeZone) };
    },

    /**
     * Close time and realized P/L of the user's trades that closed in [from, to) (the P/L calendar), of every
     * platform unless one is given.
     */
    closedBetween(userId: string, from: string, to: string, platform?: PlatformQuery) {
      return tradeList.closedBetween(userId, from, to, platform);
    },

    /** Stored accounts, newest first; of one platform and mode when the filter says so. */
    async accountPage(
      userId: string,
      { page, limit }: PageRequest,
      filter: AccountFilter = {},
    ): Promise<Paged<AccountItem>> {
      const total = await accounts.count(userId, filter);
      const rows = await accounts.page(userId, filter, (page - 1) * limit, limit);
      return { data: rows.map(toAccountItem), pages: pagesFor(total, limit), total };
    },

    /** Every stored trade of the user, oldest first; narrow by platform, mode, account or state. */
    async allTrades(userId: string, filter: TradeFilter = {}): Promise<TradeItem[]> {
      return (await trades.all(userId, filter)).map(toTradeItem);
    },

    /**
     * The first `limit` stored trades of a mode that match `query`, filtered, sorted and cut in the database
     * (answers list a handful of trades; reading the whole history for them costs more than the answer).
     */
    async queryTrades(userId: string, query: TradeQuery, sort: TradeSort, limit: number): Promise<TradeItem[]> {
      return (await tradeQuery.top(userId, query, sort, limit)).map(toTradeItem);
    },

    /** The columns totals need of every stored trade that matches `query`, oldest first. */
    tradeFigures(userId: string, query: TradeQuery): Promise<TradeFigures[]> {
      return tradeQuery.figures(userId, query);
    },

    /**
     * When a stored trade of the mode (closed ones only with `state`; of one platform with `platform`) was last
     * written; null when none is stored.
     */
    lastTradeWrite(userId: string, mode: Mode, state?: 'closed', platform?: PlatformQuery): Promise<string | null> {
      return tradeQuery.latestWrite(userId, mode, state, platform);
    },

    /** Every stored account of the user, oldest first (of one mode, of one platform when given). */
    async accounts(userId: string, mode?: Mode, platform?: PlatformQuery): Promise<AccountItem[]> {
      return (await accounts.all(userId, { mode, platform })).map(toAccountItem);
    },

    /**
     * The account key of an imported account, named by its server and login as the report prints them
     * (account-key.ts metatraderAccount), and what its stored row remembers (mode, the server's UTC offset); `stored`
     * is null before its first import.
     */
    async importedAccount(
      userId: string,
      account: { server: string; login: string },
    ): Promise<{ accountKey: string; stored: { mode: Mode; utcOffset: string | null } | null }> {
      const accountKey = metatraderAccount(account.server, account.login).account_key;
      const row = await accounts.find(userId, accountKey);
      return { accountKey, stored: row ? { mode: row.mode as Mode, utcOffset: row.utc_offset ?? null } : null };
    },

    /**
     * Stores an import: upserts the account and its closed trades in one transaction (SQLite: on the trade writer
     * thread), naming the account (metatraderAccount) and each trade (metatrader-store.ts importedTradeIds) here;
     * counts by content comparison, so a re-import of the same file adds and updates nothing.
     */
    async storeImport(
      userId: string,
      account: ImportedAccountInput,
      imported: ImportedTradeInput[],
    ): Promise<ImportCounts> {
      const identity = metatraderAccount(account.server, account.login);
      const key = identity.account_key;
      return lock.run(
        `${userId}:import:${key}`,
        'This account is being imported already. Wait for that import to finish.',
        async () => {
          const stored = await trades.openTimes(userId, key);
          const records = await importedTradeRecords(imported, stored, account.mode);
          const at = now().toISOString();
          const statement = await accounts.importStatement(userId, identity, importedAccountContent(account), at);
          const counts = await trades.write(userId, key, records, at, {
            fresh: stored.size === 0,
            alongside: [statement],
          });
          return {
            accountKey: key,
            added: counts.created,
            updated: counts.updated,
            unchanged: records.length - counts.created - counts.updated,
          };
        },
      );
    },

    /**
     * Open trades straight from OANDA, for questions about "now". OANDA credentials hold one mode; asking for
     * the other one is refused with a message that says where to switch.
     */
    async openTradesLive(userId: string, mode?: Mode): Promise<LiveTrade[]> {
      const { api, credentials } = await connect(userId);
      if (mode && mode !== credentials.mode)
        throw new AppError(
          400,
          'OANDA_MODE_MISMATCH',
          `Your OANDA connection is set to ${credentials.mode} mode. Switch it to ${mode} in ${SETTINGS} to read ${mode} trades.`,
        );
      return upstream(async () => {
        const live: LiveTrade[] = [];
        for (const accountId of await resolveAccountIds(api, credentials)) {
          const { trades: open } = await aboutAccount(accountId, false, () => api.openTrades(accountId));
          for (const trade of open) {
            const record = tradeRecord(trade, credentials.mode);
            const {
              createdAt: _c,
              updatedAt: _u,
              ...item
            } = toTradeItem({
              ...record,
              user_id: userId,
              account_key: oandaAccount(credentials.mode, accountId).account_key,
              initial_stop_loss_price: null,
              mae_price: null,
              mfe_price: null,
              excursion_status: null,
              excursion_at: null,
              created_at: '',
              updated_at: '',
            });
            live.push(item);
          }
        }
        return live;
      });
    },

    /**
     * Candles from OANDA with the user's credentials (mid prices unless `price` says otherwise); the route and the
     * assistant's tools alike, within the user's CANDLE_CONCURRENCY.
     */
    async candles(userId: string, request: CandleRequest): Promise<CandlesResult> {
      const { api } = await connect(userId);
      const body = await candleTurns.run(userId, () =>
        upstream(() =>
          api.candles(request.instrument, {
            granularity: request.granularity,
            count: request.count,
            from: request.from,
            to: request.to,
            price: request.price ?? 'M',
          }),
        ),
      );
      return {
        instrument: body.instrument ?? request.instrument,
        granularity: body.granularity ?? request.granularity,
        candles: body.candles.map((c) => ({
          time: normaliseDateTime(c.time) ?? c.time,
          volume: c.volume ?? 0,
          complete: c.complete ?? false,
          ...(c.mid ? { mid: c.mid } : {}),
          ...(c.bid ? { bid: c.bid } : {}),
          ...(c.ask ? { ask: c.ask } : {}),
        })),
      };
    },

    /**
     * The user's stored trades among `refs` (named as get_trade_history names them: accountId, tradeId), with their
     * account keys; refs that name no trade of the user are left out.
     */
    tradeKeys(userId: string, refs: ReadonlyArray<{ accountId: string; tradeId: string }>) {
      return trades.keysOf(userId, refs);
    },

    /** Whether a sync of that kind is running for the user right now. */
    isSyncing: (userId: string, kind: 'trades' | 'accounts') => lock.isRunning(`${userId}:${kind}`),
  };
}
export type TradingService = ReturnType<typeof createTradingService>;
