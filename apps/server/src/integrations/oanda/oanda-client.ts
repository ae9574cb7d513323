import { createHash } from 'node:crypto';
import type { Mode } from '@pipsense/contract';
import { compareIds, normaliseId } from './ids';
import { createTransport, type OandaLogger, type Target, type TransportOptions } from './http-transport';
import { OandaError } from './oanda-error';
import {
  accountChangesResponse,
  accountsResponse,
  accountSummaryResponse,
  candlesResponse,
  accountTransactionsResponse,
  tradeResponse,
  tradesResponse,
  type AccountChangesResponse,
  type AccountsResponse,
  type AccountSummaryResponse,
  type CandlesResponse,
  type WireAccountTransaction,
  type WireTrade,
} from './wire-schemas';

export interface OandaClientOptions extends Partial<Omit<TransportOptions, 'log'>> {
  /** Host for demo mode (OANDA's practice environment). */
  practiceUrl: string;
  /** Host for live mode. */
  liveUrl: string;
  log?: OandaLogger | undefined;
}

export interface OandaCredentials {
  accessToken: string;
  mode: Mode;
}

type TradeStateFilter = 'ALL' | 'OPEN' | 'CLOSED' | 'CLOSE_WHEN_TRADEABLE';

/** OANDA's limits: trades `count` ≤ 500, candles `count` ≤ 5000. */
const MAX_TRADES_PER_PAGE = 500;
export const MAX_CANDLES = 5000;

export interface TradePagesOptions {
  /** Defaults to ALL: OANDA's own default is OPEN, which silently hides the history. */
  state?: TradeStateFilter;
  count?: number;
  instrument?: string;
  /** Start below this id (exclusive). */
  beforeID?: string;
  /** Stop once trades at or below this id are reached; they are not returned. */
  afterID?: string;
  /** Fetch the next page while the caller works on this one (default true). */
  prefetch?: boolean;
}

export interface TradePage {
  /** Newest first, de-duplicated across pages, ids compared as numbers. */
  trades: WireTrade[];
  lastTransactionID: string | undefined;
}

/**
 * Ids per idrange request: OANDA's largest transactions page (`pageSize` 1000), so that no answer is longer than
 * a page OANDA itself would list.
 */
const IDS_PER_RANGE = 1000;

/** idrange requests asked ahead of the one the caller is working on (the fair pool queues them). */
const RANGES_AHEAD = 3;

export interface TransactionRange {
  /** Oldest first, only the types asked for. */
  transactions: WireAccountTransaction[];
  /** The range's last id: every transaction up to it has been read. */
  through: string;
}

export interface CandleParams {
  granularity: string;
  count?: number | undefined;
  price?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const DEFAULTS = {
  timeoutMs: 15_000,
  retries: 3,
  baseDelayMs: 300,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 20_000,
  connections: 2,
  compression: true,
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
} satisfies Omit<TransportOptions, 'log'>;

const enc = encodeURIComponent;

/**
 * The OANDA v20 REST client. One per server: it owns the keep-alive connection pool, shared fairly between tokens
 * (fair-pool.ts). `forCredentials` binds a user's token and mode (demo → practice host, live → live host) to the
 * v20 calls.
 */
export function createOandaClient(options: OandaClientOptions) {
  const transport = createTransport({ ...DEFAULTS, ...dropUndefined(options) });

  function forCredentials(credentials: OandaCredentials) {
    const target: Target = {
      baseUrl: credentials.mode === 'live' ? options.liveUrl : options.practiceUrl,
      token: credentials.accessToken,
      mode: credentials.mode,
      // The fair pool's queue of this token: every user of one token shares it (and OANDA's limits of the token).
      caller: createHash('sha256').update(credentials.accessToken).digest('base64url'),
    };
    const account = (accountId: string) => `/accounts/${enc(accountId)}`;

    const fetchTrades = (accountId: string, query: Record<string, string | number | undefined>) =>
      transport.get(target, { path: `${account(accountId)}/trades`, query }, tradesResponse);

    async function* tradePages(accountId: string, opts: TradePagesOptions = {}): AsyncGenerator<TradePage> {
      const count = Math.min(Math.max(Math.trunc(opts.count ?? MAX_TRADES_PER_PAGE), 1), MAX_TRADES_PER_PAGE);
      const state = opts.state ?? 'ALL';
      const prefetch = opts.prefetch !== false;
      const seen = new Set<string>();
      const request = (beforeID: string | undefined) => {
        const pending = fetchTrades(accountId, { state, count, instrument: opts.instrument, beforeID });
        // A prefetched page may be abandoned when the caller stops early; its failure is then nobody's concern.
        pending.catch(() => undefined);
        return pending;
      };
      let beforeID = opts.beforeID;
      let next = request(beforeID);
      for (;;) {
        const page = await next;
        let oldest: string | undefined;
        let reachedFloor = false;
        const fresh: WireTrade[] = [];
        for (const trade of page.trades) {
          if (oldest === undefined || compareIds(trade.id, oldest) < 0) oldest = trade.id;
          if (opts.afterID !== undefined && compareIds(trade.id, opts.afterID) <= 0) {
            reachedFloor = true;
            continue;
          }
          const key = normaliseId(trade.id);
          if (seen.has(key)) continue;
          seen.add(key);
          fresh.push(trade);
        }
        // Stop on an empty page (the Link header is no "more" flag), at the floor, or when a server that treats
        // beforeID as inclusive stops making progress.
        const done =
          oldest === undefined || reachedFloor || (beforeID !== undefined && compareIds(oldest, beforeID) >= 0);
        if (!done && oldest !== undefined) {
          beforeID = oldest;
          if (prefetch) next = request(beforeID);
        }
        if (fresh.length > 0) yield { trades: fresh, lastTransactionID: page.lastTransactionID ?? undefined };
        if (done) return;
        if (!prefetch) next = request(beforeID);
      }
    }

    async function trade(accountId: string, tradeSpecifier: string): Promise<WireTrade> {
      const body = await transport.get(
        target,
        { path: `${account(accountId)}/trades/${enc(tradeSpecifier)}` },
        tradeResponse,
      );
      return body.trade;
    }

    return {
      mode: credentials.mode,

      /** GET /v3/accounts: ids only (no alias, currency or balance; see accountSummary). */
      async listAccounts(): Promise<AccountsResponse['accounts']> {
        const body = await transport.get(target, { path: '/accounts', datetimeFormat: false }, accountsResponse);
        return body.accounts;
      },

      /** GET /v3/accounts/{id}/summary */
      accountSummary(accountId: string): Promise<AccountSummaryResponse> {
        return transport.get(target, { path: `${account(accountId)}/summary` }, accountSummaryResponse);
      },

      tradePages,

      /** Every trade of the account (state ALL unless asked otherwise), newest first, each id once. */
      async listTrades(accountId: string, opts: Omit<TradePagesOptions, 'prefetch'> = {}) {
        const trades: WireTrade[] = [];
        let lastTransactionID: string | undefined;
        for await (const page of tradePages(accountId, { ...opts, prefetch: false })) {
          trades.push(...page.trades);
          lastTransactionID ??= page.lastTransactionID;
        }
        return { trades, lastTransactionID };
      },

      /** GET /v3/accounts/{id}/openTrades (not paginated). */
      async openTrades(accountId: string) {
        const body = await transport.get(target, { path: `${account(accountId)}/openTrades` }, tradesResponse);
        return { trades: body.trades, lastTransactionID: body.lastTransactionID ?? undefined };
      },

      /** GET /v3/accounts/{id}/trades/{tradeSpecifier}: a trade id or `@clientID`. */
      trade,

      /**
       * The given trades in any state, by the `ids` filter in chunks; ids that filter did not return are asked
       * for one by one. `missing` lists the ids OANDA does not know.
       */
      async tradesByIds(
        accountId: string,
        ids: readonly string[],
      ): Promise<{ trades: WireTrade[]; missing: string[] }> {
        const wanted = [...new Set(ids.map(normaliseId))];
        const found = new Map<string, WireTrade>();
        const chunk = 100;
        for (let i = 0; i < wanted.length; i += chunk) {
          const part = wanted.slice(i, i + chunk);
          const body = await fetchTrades(accountId, { ids: part.join(','), state: 'ALL', count: MAX_TRADES_PER_PAGE });
          const asked = new Set(part);
          for (const trade of body.trades)
            if (asked.has(normaliseId(trade.id))) found.set(normaliseId(trade.id), trade);
        }
        const missing: string[] = [];
        for (const id of wanted) {
          if (found.has(id)) continue;
          try {
            found.set(id, await trade(accountId, id));
          } catch (error) {
            if (error instanceof OandaError && error.kind === 'not_found') missing.push(id);
            else throw error;
          }
        }
        return { trades: [...found.values()], missing };
      },

      /**
       * The account's transactions of `types` with ids after `afterId` (exclusive; none: from the first) through
       * `throughId`, oldest first, one idrange request per IDS_PER_RANGE ids, RANGES_AHEAD of them asked ahead.
       */
      async *transactionRanges(
        accountId: string,
        opts: { afterId?: string | null | undefined; throughId: string; types: readonly string[] },
      ): AsyncGenerator<TransactionRange> {
        const last = Number(normaliseId(opts.throughId));
        const type = opts.types.join(',');
        let from = opts.afterId ? Number(normaliseId(opts.afterId)) + 1 : 1;
        const ask = (start: number) => {
          const to = Math.min(start + IDS_PER_RANGE - 1, last);
          const page = transport.get(
            target,
            { path: `${account(accountId)}/transactions/idrange`, query: { from: start, to, type } },
            accountTransactionsResponse,
          );
          page.catch(() => undefined); // surfaced when its turn comes; an abandoned one is nobody's concern
          return { page, to };
        };
        const queue: Array<{ page: Promise<{ transactions: WireAccountTransaction[] }>; to: number }> = [];
        while (from <= last || queue.length > 0) {
          while (from <= last && queue.length <= RANGES_AHEAD) {
            const next = ask(from);
            queue.push(next);
            from = next.to + 1;
          }
          const head = queue.shift()!;
          yield { transactions: (await head.page).transactions, through: String(head.to) };
        }
      },

      /** GET /v3/accounts/{id}/changes?sinceTransactionID=… */
      accountChanges(accountId: string, sinceTransactionID: string): Promise<AccountChangesResponse> {
        return transport.get(
          target,
          { path: `${account(accountId)}/changes`, query: { sinceTransactionID } },
          accountChangesResponse,
        );
      },

      /** GET /v3/instruments/{instrument}/candles; `count` at most 5000 and not with both from and to. */
      async candles(instrument: string, params: CandleParams): Promise<CandlesResponse> {
        if (
          params.count !== undefined &&
          (!Number.isInteger(params.count) || params.count < 1 || params.count > MAX_CANDLES)
        )
          throw new OandaError(
            {
              kind: 'bad_request',
              mode: target.mode,
              request: `GET /v3/instruments/${instrument}/candles`,
              attempts: 0,
            },
            `count must be a whole number from 1 to ${MAX_CANDLES}`,
          );
        const count = params.from && params.to ? undefined : params.count;
        return transport.get(
          target,
          {
            path: `/instruments/${enc(instrument)}/candles`,
            query: { granularity: params.granularity, price: params.price, count, from: params.from, to: params.to },
          },
          candlesResponse,
        );
      },
    };
  }

  return {
    forCredentials,
    /** Closes the keep-alive connections; the app calls it on shutdown. */
    close: () => transport.close(),
  };
}

export type OandaClient = ReturnType<typeof createOandaClient>;
export type OandaApi = ReturnType<OandaClient['forCredentials']>;

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
