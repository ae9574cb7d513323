import type { Kysely } from 'kysely';
import {
  type AccountItem,
  type AccountSyncResult,
  type BalanceOperation,
  type BalanceOperationType,
  type BrokerTimeName,
  type CandlesResult,
  type Granularity,
  type Mode,
  type PlatformQuery,
  type TradeItem,
  type TradeSyncResult,
} from '@pipsense/contract';
import { AppError, notFound } from '../../lib/errors';
import { normaliseDateTime } from '../../integrations/oanda/datetime';
import type { OandaApi, OandaClient } from '../../integrations/oanda/oanda-client';
import type { SettingsService, OandaCredentials } from '../settings';
import { metatraderAccount, oandaAccount } from './account-key';

import { resolveAccountIds, syncAccounts } from './account-sync.service';
import { createBrokerAccountRepository, type AccountFilter } from './broker-account.repository';
import {
  balanceOperationRecords,
  importedAccountContent,
  importedTradeRecords,
  type ImportCounts,
  type ImportedAccountInput,
  type ImportedBalanceOperationInput,
  type ImportedTradeInput,
} from './metatrader-store';
import { createBalanceOperationRepository } from './balance-operation.repository';
import { dataVersionBump } from '../../db/data-versions';
import { brokerTimeOf, toAccountItem, toTradeItem, tradeRecord } from './broker-data';
import { aboutAccount, notConfigured, oandaFailure, SETTINGS } from './oanda-failure';
import { createSyncLock } from './sync-lock';
import { requeueExcursions } from './excursions-job';
import { createUserConcurrency, type UserConcurrency } from '../../lib/user-concurrency';
import { syncTrades, type TradeSyncOptions } from './trade-sync.service';
import { createTradeRepository } from './trade.repository';
import type { TradingDb } from './tables';
import type { PageRequest, Paged } from '../../lib/paging';

export interface TradingServiceDeps {
  db: Kysely<TradingDb>;
  oanda: OandaClient;
  settings: Pick<SettingsService, 'oandaCredentials'>;
  now: () => Date;
  /** Candle requests of one user at once (SECURITY.md, "One user starving the others"); default CANDLE_CONCURRENCY. */
  candleLimit?: UserConcurrency | undefined;
}

/**
 * Candle requests one user may have at once: 2 running, 6 more waiting in order (a round of the assistant's tool
 * calls, at most 8, always fits), then 429 TOO_MANY_RUNNING (docs/decisions/019-per-user-concurrency.md).
 */
export const CANDLE_CONCURRENCY = { running: 2, queued: 6, what: 'candle request' } as const;

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

/**
 * The trading module's use cases: syncs, accounts, imports, candles. Analytics and the assistant call the exported
 * methods (accounts, openTradesLive, candles, …); stored trades are read through the trade views (modules/trade-views).
 */
export function createTradingService({ db, oanda, settings, now, candleLimit }: TradingServiceDeps) {
  const candleTurns = candleLimit ?? createUserConcurrency(CANDLE_CONCURRENCY);
  const trades = createTradeRepository(db);
  const accounts = createBrokerAccountRepository(db);
  const operations = createBalanceOperationRepository(db);
  const lock = createSyncLock();

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

    /** Every stored account of the user, oldest first (of one mode, of one platform when given). */
    async accounts(userId: string, mode?: Mode, platform?: PlatformQuery): Promise<AccountItem[]> {
      return (await accounts.all(userId, { mode, platform })).map(toAccountItem);
    },

    /**
     * The account key of an imported account, named by its server and login as the report prints them
     * (account-key.ts metatraderAccount), and what its stored row remembers (mode, the server clock rule and a fixed
     * rule's UTC offset); `stored`
     * is null before its first import.
     */
    async importedAccount(
      userId: string,
      account: { server: string; login: string },
    ): Promise<{
      accountKey: string;
      stored: { mode: Mode; brokerTime: BrokerTimeName | null; utcOffset: string | null } | null;
    }> {
      const accountKey = metatraderAccount(account.server, account.login).account_key;
      const row = await accounts.find(userId, accountKey);
      const brokerTime = brokerTimeOf(row?.broker_time);
      return {
        accountKey,
        stored: row ? { mode: row.mode as Mode, brokerTime, utcOffset: row.utc_offset ?? null } : null,
      };
    },

    /**
     * Stores an import: upserts the account, its balance operations and its closed and open trades in one
     * transaction (SQLite: on the trade writer thread), naming the account (metatraderAccount), each trade
     * (metatrader-store.ts importedTradeIds) and each operation (balanceOperationRecords) here; counts by content
     * comparison, so a re-import of the same file adds and updates nothing. A trade stored closed is never made
     * open again by an older report that shows it open (docs/decisions/012-metatrader-import.md, Open trades).
     */
    async storeImport(
      userId: string,
      account: ImportedAccountInput,
      imported: ImportedTradeInput[],
      balanceOperations: readonly ImportedBalanceOperationInput[] = [],
    ): Promise<ImportCounts> {
      const identity = metatraderAccount(account.server, account.login);
      const key = identity.account_key;
      return lock.run(
        `${userId}:import:${key}`,
        'This account is being imported already. Wait for that import to finish.',
        async () => {
          const stored = await trades.openTimes(userId, key);
          const named = await importedTradeRecords(imported, stored, account.mode);
          const unclosed = new Set(stored.size === 0 ? [] : await trades.unclosedIds(userId, key));
          const records = named.filter(
            (r) => r.state === 'CLOSED' || !stored.has(r.trade_id) || unclosed.has(r.trade_id),
          );
          const at = now().toISOString();
          const statement = await accounts.importStatement(userId, identity, importedAccountContent(account), at);
          const ops = await operations.writeStatements(
            userId,
            key,
            balanceOperationRecords(balanceOperations, account.currency),
            at,
          );
          const opsChanged = ops.added + ops.updated > 0;
          const counts = await trades.write(userId, key, records, at, {
            fresh: stored.size === 0,
            alongside: [
              statement,
              ...ops.statements,
              // The account's money moved: what reads the data version (the Overview) sees a new one.
              ...(opsChanged ? [dataVersionBump(db, userId, at).compile()] : []),
            ],
          });
          return {
            accountKey: key,
            added: counts.created,
            updated: counts.updated,
            unchanged: named.length - counts.created - counts.updated,
            balanceOperations: { added: ops.added, updated: ops.updated },
          };
        },
      );
    },

    /**
     * The balance operations of one of the user's accounts, named as the API names accounts (its key or its
     * login), newest first, a page at a time; 404 when no account of the user has that key or login.
     */
    async balanceOperationPage(
      userId: string,
      accountId: string,
      { page, limit }: PageRequest,
    ): Promise<Paged<BalanceOperation>> {
      const account = await accounts.byApiId(userId, accountId);
      if (!account)
        throw notFound(
          `No account of yours has the key or login ${JSON.stringify(accountId)}. Pick one of your accounts.`,
        );
      const key = account.account_key;
      const total = await operations.count(userId, key);
      const rows = await operations.page(userId, key, (page - 1) * limit, limit);
      return {
        data: rows.map((r) => ({
          id: r.operation_id,
          time: r.time,
          serverTime: r.server_time,
          type: r.type as BalanceOperationType,
          printedType: r.printed_type,
          amount: r.amount,
          currency: r.currency,
          comment: r.comment,
        })),
        pages: pagesFor(total, limit),
        total,
      };
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
              server_open_time: null,
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

    /**
     * The user connected OANDA or saved another token (settings' hook): excursions left unavailable for want of a
     * candle source are looked at again (excursions-job.ts requeueExcursions); resolves to how many.
     */
    oandaConnected: (userId: string) => requeueExcursions(db, userId, now()),

    /** Whether a sync of that kind is running for the user right now. */
    isSyncing: (userId: string, kind: 'trades' | 'accounts') => lock.isRunning(`${userId}:${kind}`),
  };
}
export type TradingService = ReturnType<typeof createTradingService>;
