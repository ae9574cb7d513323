import type { Kysely } from 'kysely';
import {
  type AccountItem,
  type AccountSyncResult,
  type BalanceOperation,
  type BalanceOperationType,
  type BrokerTimeName,
  type CashFlowItem,
  type CandlesResult,
  type Granularity,
  type Mode,
  platformByQuery,
  type PlatformQuery,
  type Replay,
  type ReplayGranularity,
  REPLAY_LIMITS,
  type TradeItem,
  type TradeSyncResult,
} from '@pipsense/contract';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { plural } from '../../lib/text';
import { OandaError } from '../../integrations/oanda/oanda-error';
import { lastCompleteDay, utcDay, type DailyRates } from '../../domain/currency-totals';
import { utcDateTime } from '../../domain/datetime';
import type { OandaApi, OandaClient } from '../../integrations/oanda/oanda-client';
import type { SettingsService, OandaCredentials } from '../settings';
import type { Candle, CandleStore, PriceComponent } from '../candles';
import { apiAccountId, isAccountNamed, metatraderAccount, oandaAccount } from './account-key';

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
import { createAccountTransactionRepository } from './account-transaction.repository';
import { metatraderCashFlowKind, oandaCashFlowKind, type CashFlowKind } from './account-transactions';
import { dataVersionBump } from '../../db/data-versions';
import { brokerTimeOf, toAccountItem, toTradeItem, tradeRecord } from './broker-data';
import { aboutAccount, notConfigured, oandaFailure, SETTINGS } from './oanda-failure';
import { createSyncLock } from './sync-lock';
import { hasOandaCandles, requeueExcursions } from './excursions-job';
import {
  candleStart,
  defaultGranularity,
  GRANULARITY_SECONDS,
  pipValueOf,
  quoteOf,
  replayOf,
  tradeCandleCount,
} from './replay';
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
  /**
   * The one owner of candles (modules/candles): the trade chart and the assistant read through it. app.ts always
   * hands it in; a test of other use cases may leave it out.
   */
  candles?: Pick<CandleStore, 'read' | 'latest'> | undefined;
  /** Candle requests of one user at once (SECURITY.md, "One user starving the others"); default CANDLE_CONCURRENCY. */
  candleLimit?: UserConcurrency | undefined;
  /**
   * After a sync wrote an account's trades (each OANDA account, manual or background) and after an import: app.ts
   * runs the rules module's alert check there (docs/rules.md, Alerts). It logs its own failures; the sync or import
   * stands either way.
   */
  accountWritten?: ((userId: string, accountKey: string) => Promise<unknown>) | undefined;
  /**
   * The daily rates of the currency rule (decision 024; app.ts: the candle store's daily closes): the replay's pip
   * value of a trade quoted in another currency than the account's when the trade cannot tell it (an open one).
   * Without them that pip value stays unknown.
   */
  ratesFor?: ((userId: string) => DailyRates) | undefined;
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

const ohlc = (c: Candle) => ({ o: c.o, h: c.h, l: c.l, c: c.c });

/** A cash flow as other modules read it: amounts exact decimal strings, times in the stored UTC form. */
export interface CashFlow {
  accountKey: string;
  time: string;
  type: CashFlowKind;
  amount: string;
  currency: string | null;
  comment: string | null;
}

/** An equity sample: what OANDA reported for the account when a sync read its summary. */
export interface EquitySample {
  accountKey: string;
  time: string;
  nav: string | null;
  balance: string | null;
  unrealizedPL: string | null;
}

/** A fill that reduced a trade before its close (partialCloses). */
export interface PartialClose {
  tradeId: string;
  /** UTC, as stored. */
  time: string;
  /** Signed as OANDA gives them (a long's reduction is negative). */
  units: string;
  realizedPL: string;
  financing: string;
  /** The trade's close time; null while it is open. */
  tradeCloseTime: string | null;
}

const pagesFor = (total: number, limit: number) => Math.max(1, Math.ceil(total / limit));

/**
 * The trading module's use cases: syncs, accounts, imports, candles. Analytics and the assistant call the exported
 * methods (accounts, openTradesLive, candles, …); stored trades are read through the trade views (modules/trade-views).
 */
export function createTradingService({
  db,
  oanda,
  settings,
  now,
  candles,
  candleLimit,
  accountWritten,
  ratesFor,
}: TradingServiceDeps) {
  const candleTurns = candleLimit ?? createUserConcurrency(CANDLE_CONCURRENCY);
  const trades = createTradeRepository(db);
  const accounts = createBrokerAccountRepository(db);
  const operations = createBalanceOperationRepository(db);
  const transactions = createAccountTransactionRepository(db);
  const lock = createSyncLock();

  async function connect(userId: string): Promise<{ api: OandaApi; credentials: OandaCredentials }> {
    const credentials = await settings.oandaCredentials(userId);
    if (!credentials) throw notConfigured();
    return { api: oanda.forCredentials(credentials), credentials };
  }

  /** The follow-up of an account written (deps.accountWritten), never failing what wrote it. */
  async function written(userId: string, accountKey: string): Promise<void> {
    await accountWritten?.(userId, accountKey).catch(() => undefined);
  }

  /** Runs OANDA work, turning client failures into messages for the user. */
  async function upstream<T>(work: () => Promise<T>, sync = false): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw oandaFailure(error, { sync });
    }
  }

  /**
   * The cash flows of the user's accounts (docs/decisions/022-transaction-store.md, What a cash flow is), oldest
   * first: OANDA's transfers, financing and adjustments from the transaction store, and imported balance
   * operations; of one account (its key) and within [from, to] (stored UTC form) when given.
   */
  async function cashFlows(
    userId: string,
    filter: {
      accountKey?: string | readonly string[] | undefined;
      from?: string | undefined;
      to?: string | undefined;
    } = {},
  ): Promise<CashFlow[]> {
    const { accountKey } = filter;
    const rows = await transactions.cashFlows(userId, {
      accountKeys: accountKey === undefined ? undefined : typeof accountKey === 'string' ? [accountKey] : accountKey,
      from: filter.from,
      to: filter.to,
    });
    return rows.map((r) => ({
      accountKey: r.account_key,
      time: r.time,
      type:
        r.source === 'oanda'
          ? oandaCashFlowKind(r.type, r.reason, r.amount)
          : metatraderCashFlowKind(r.type, r.reason, r.amount),
      amount: r.amount,
      currency: r.currency,
      comment: r.comment,
    }));
  }

  return {
    /** Pulls the trade history (incremental after the first time; `full` re-reads everything). */
    async syncTrades(userId: string, options: TradeSyncOptions = {}): Promise<TradeSyncResult> {
      const { api, credentials } = await connect(userId);
      return lock.run(
        `${userId}:trades`,
        'A trade sync is already running for your account. Wait for it to finish.',
        () =>
          upstream(
            () =>
              syncTrades(
                { trades, accounts, transactions, now, accountDone: (key) => written(userId, key) },
                api,
                userId,
                credentials,
                options,
              ),
            true,
          ),
      );
    },

    /** Pulls every account's summary (or the configured account's). */
    async syncAccounts(userId: string): Promise<AccountSyncResult> {
      const { api, credentials } = await connect(userId);
      return lock.run(
        `${userId}:accounts`,
        'An account sync is already running for your account. Wait for it to finish.',
        () => upstream(() => syncAccounts({ accounts, transactions, now }, api, userId, credentials), true),
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
     * (domain/imported-trade-ids.ts) and each operation (balanceOperationRecords) here; counts by content
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
      const result = await lock.run(
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
      await written(userId, key);
      return result;
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

    cashFlows,

    /**
     * An OANDA account's partial closes (the fills that reduced a trade before its close), oldest first: time,
     * realized P/L and financing of each, with its trade's close time (null while the trade is open).
     */
    async partialCloses(userId: string, accountKey: string): Promise<PartialClose[]> {
      return (await transactions.accountPartialCloses(userId, accountKey)).map((r) => ({
        tradeId: r.trade_id,
        time: r.time,
        units: r.units,
        realizedPL: r.realized_pl ?? '0',
        financing: r.financing ?? '0',
        tradeCloseTime: r.state === 'CLOSED' ? r.close_time : null,
      }));
    },

    /**
     * The stop levels of each trade's stop-loss orders in the order placed (the transaction store's, OANDA only), by
     * `<account key> <trade id>`: the coach's "stop moved away" (docs/coach.md, Patterns).
     */
    async stopLevels(userId: string): Promise<Map<string, string[]>> {
      const levels = new Map<string, string[]>();
      for (const row of await transactions.stopOrders(userId)) {
        const key = `${row.account_key} ${row.trade_id!}`;
        const list = levels.get(key);
        if (list) list.push(row.price!);
        else levels.set(key, [row.price!]);
      }
      return levels;
    },

    /** An OANDA account's equity samples (NAV, balance, unrealized P/L at each sync) within [from, to], oldest first. */
    async equitySamples(userId: string, accountKey: string, from?: string, to?: string): Promise<EquitySample[]> {
      return (await transactions.samples(userId, accountKey, from, to)).map((r) => ({
        accountKey: r.account_key,
        time: r.time,
        nav: r.nav,
        balance: r.balance,
        unrealizedPL: r.unrealized_pl,
      }));
    },

    /**
     * The cash flows route: of the accounts `accountId` names as the API names accounts (account-key.ts, an OANDA
     * login or an account key) and of one platform when given, with each account named as the API names it; 404
     * when `accountId` names no account of the user (of that platform).
     */
    async cashFlowList(
      userId: string,
      query: { accountId?: string | undefined; platform?: PlatformQuery | undefined; from?: string; to?: string },
    ): Promise<CashFlowItem[]> {
      let keys: string[] | undefined;
      if (query.accountId !== undefined || query.platform !== undefined) {
        const named = query.accountId;
        keys = (await accounts.all(userId, { platform: query.platform }))
          .filter(
            (r) => named === undefined || isAccountNamed({ oandaAccountId: r.account_key, login: r.login }, named),
          )
          .map((r) => r.account_key);
        if (named !== undefined && keys.length === 0)
          throw notFound(
            `No ${query.platform ? `${platformByQuery(query.platform).label} ` : ''}account of yours has the key or login ${JSON.stringify(named)}. Pick one of your accounts.`,
          );
      }
      // The stored UTC form (nine fraction digits), so that text order is time order at the bounds too.
      const at = (time: string | undefined) =>
        time === undefined ? undefined : (utcDateTime(time) ?? utcDateTime(new Date(time).toISOString()));
      const flows = await cashFlows(userId, { accountKey: keys, from: at(query.from), to: at(query.to) });
      return flows.map(({ accountKey, ...flow }) => ({ accountId: apiAccountId(accountKey), ...flow }));
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
     * Candles with the user's credentials (mid prices unless `price` says otherwise), read through the candle store
     * at a screen's priority (modules/candles): the route and the assistant's tools alike, within the user's
     * CANDLE_CONCURRENCY. A range is answered from stored candles with only the missing spans fetched; a count
     * without a range asks for the newest ones.
     */
    async candles(userId: string, request: CandleRequest): Promise<CandlesResult> {
      if (!candles) throw new Error('The trading service was built without the candle store.');
      const store = candles;
      const { credentials } = await connect(userId);
      const components = [...(request.price ?? 'M')].filter((p): p is PriceComponent => 'MBA'.includes(p));
      const byComponent = await candleTurns.run(userId, () =>
        upstream(() =>
          Promise.all(
            components.map(async (price) => {
              const base = {
                credentials,
                instrument: request.instrument,
                granularity: request.granularity,
                price,
                priority: 'interactive' as const,
              };
              const list =
                request.from && request.to
                  ? await store.read({ ...base, from: request.from, to: request.to })
                  : await store.latest({ ...base, count: request.count ?? 500, from: request.from, to: request.to });
              return { price, list };
            }),
          ),
        ),
      );
      const NAMES = { M: 'mid', B: 'bid', A: 'ask' } as const;
      const byTime = new Map<string, CandlesResult['candles'][number]>();
      for (const { price, list } of byComponent)
        for (const c of list) {
          const candle = byTime.get(c.time) ?? { time: c.time, volume: c.volume, complete: c.complete };
          candle.complete = candle.complete && c.complete;
          candle[NAMES[price]] = ohlc(c);
          byTime.set(c.time, candle);
        }
      return {
        instrument: request.instrument,
        granularity: request.granularity,
        candles: [...byTime.values()].sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0)),
      };
    },

    /**
     * A trade's replay (docs/review.md, Replay): its mid candles at `granularity` (default: the finest that keeps the
     * trade within REPLAY_LIMITS.maxCandles) from `before` candles ahead of the entry to the exit (or now), read
     * through the candle store at the `interactive` priority within the user's CANDLE_CONCURRENCY, with the trade's
     * events (replay.ts). 404 for a trade that is not the user's; 409 when no candle source covers the instrument.
     */
    async replay(
      userId: string,
      params: { accountId: string; tradeId: string },
      query: { granularity?: ReplayGranularity | undefined; before: number },
    ): Promise<Replay> {
      if (!candles) throw new Error('The trading service was built without the candle store.');
      const store = candles;
      const account = await accounts.byApiId(userId, params.accountId);
      const trade = account ? await trades.find(userId, account.account_key, params.tradeId) : undefined;
      if (!account || !trade)
        throw notFound(
          `No trade of yours has the account ${JSON.stringify(params.accountId)} and the id ${JSON.stringify(params.tradeId)}.`,
        );
      const credentials = await settings.oandaCredentials(userId);
      const name = trade.symbol ?? trade.instrument;
      if (!credentials)
        throw new AppError(
          409,
          'REPLAY_NO_CANDLE_SOURCE',
          `Replay needs candles: connect an OANDA account in ${SETTINGS}; PipSense reads the prices of ${name} from OANDA.`,
        );
      if (!hasOandaCandles(trade))
        throw new AppError(
          409,
          'REPLAY_NO_CANDLES',
          `OANDA has no candles for ${name}: the symbol maps to no OANDA instrument, so this trade cannot be replayed.`,
        );
      const openMs = Date.parse(trade.open_time);
      const endMs = trade.close_time ? Date.parse(trade.close_time) : now().getTime();
      const granularity = query.granularity ?? defaultGranularity(openMs, endMs);
      const spanned = tradeCandleCount(openMs, endMs, granularity);
      if (spanned > REPLAY_LIMITS.maxCandles)
        throw badRequest(
          `granularity ${granularity} gives ${spanned} candles for this trade, more than ${REPLAY_LIMITS.maxCandles}; pick ${defaultGranularity(openMs, endMs)} or coarser.`,
        );
      const step = GRANULARITY_SECONDS[granularity] * 1000;
      const to = new Date(Math.min(candleStart(endMs, granularity) + step, now().getTime())).toISOString();
      const entryStart = candleStart(openMs, granularity);
      const read = (fromMs: number) =>
        store.read({
          credentials,
          instrument: trade.instrument,
          granularity,
          price: 'M',
          from: new Date(fromMs).toISOString(),
          to,
          priority: 'interactive',
        });
      const list = await candleTurns.run(userId, async () => {
        try {
          // `before` candles in time, a fifth more for gaps; a range over a weekend is read once more, wider.
          let got = await read(entryStart - Math.ceil(query.before * 1.2) * step);
          const ahead = got.filter((c) => c.complete && Date.parse(c.time) < entryStart).length;
          if (ahead < query.before) got = await read(entryStart - query.before * step * 2 - 3 * 86_400_000);
          return got;
        } catch (error) {
          if (error instanceof OandaError && (error.kind === 'bad_request' || error.kind === 'not_found'))
            throw new AppError(
              409,
              'REPLAY_NO_CANDLES',
              `OANDA has no candles for ${name}${error.oandaMessage ? ` (${error.oandaMessage})` : ''}.`,
            );
          throw oandaFailure(error);
        }
      });
      // A pip value the trade cannot tell (an open trade quoted in another currency): at the daily close of its
      // close day, or of the last complete day while it is open; one or two pairs, read from the kept daily candles.
      const quote = quoteOf(trade.instrument);
      const quoteRate =
        ratesFor && account.currency && quote && pipValueOf(trade, account.currency) === null
          ? await ratesFor(userId).rate(
              quote,
              account.currency,
              trade.state === 'CLOSED' && trade.close_time ? utcDay(trade.close_time) : lastCompleteDay(now()),
            )
          : null;
      const replay = replayOf({
        trade,
        granularity,
        candles: list,
        before: query.before,
        transactions: await transactions.ofTrade(userId, account.account_key, trade.trade_id),
        fills: await transactions.fillsOfTrade(userId, account.account_key, trade.trade_id),
        accountCurrency: account.currency,
        quoteRate,
      });
      if (replay.candles.length === 0)
        throw new AppError(
          409,
          'REPLAY_NO_CANDLES',
          `OANDA has no ${granularity} candles for ${name} over this trade.`,
        );
      return replay;
    },

    /**
     * The user's stored trades among `refs` (named as get_trade_history names them: accountId, tradeId), with their
     * account keys; refs that name no trade of the user are left out.
     */
    tradeKeys(userId: string, refs: ReadonlyArray<{ accountId: string; tradeId: string }>) {
      return trades.keysOf(userId, refs);
    },

    /**
     * The stored keys of trades named as the API names them (account key or login, trade id), deduplicated in the
     * order asked; a 404 naming the first missing ones when any is not among the user's trades. One login on two
     * servers is two accounts: the first key (in key order) answers for the pair.
     */
    async ownedTrades<R extends { accountId: string; tradeId: string }>(
      userId: string,
      refs: readonly R[],
    ): Promise<Array<{ ref: R; key: { accountKey: string; tradeId: string } }>> {
      const pair = (r: { accountId: string; tradeId: string }) => `${r.accountId}\n${r.tradeId}`;
      const unique = [...new Map(refs.map((r) => [pair(r), r])).values()];
      const found = new Map<string, { accountKey: string; tradeId: string }>();
      for (const hit of await trades.keysOf(userId, unique))
        if (!found.has(pair(hit))) found.set(pair(hit), { accountKey: hit.accountKey, tradeId: hit.tradeId });
      const missing = unique.filter((r) => !found.has(pair(r)));
      if (missing.length > 0) {
        const named = missing
          .slice(0, 3)
          .map((r) => `trade ${r.tradeId} of account ${r.accountId}`)
          .join(', ');
        const more = missing.length > 3 ? ` and ${plural(missing.length - 3, 'more trade')}` : '';
        throw notFound(
          `Trade not found: ${named}${more} ${missing.length === 1 ? 'is' : 'are'} not among your synced trades.`,
        );
      }
      return unique.map((ref) => ({ ref, key: found.get(pair(ref))! }));
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
