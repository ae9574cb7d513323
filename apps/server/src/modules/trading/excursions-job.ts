import type { Kysely } from 'kysely';
import { bumpDataVersion } from '../../db/data-versions';
import { OandaError } from '../../integrations/oanda/oanda-error';
import type { OandaCredentials } from '../settings';
import { CandleBudgetSpent, type CandleStore } from '../candles';
import { candlePlanFor, excursionsFromStoredCandles } from './excursions';
import type { TradingDb } from './tables';

/*
 * MAE/MFE in the background (docs/decisions/010-initial-stop-and-excursions.md): closed trades whose excursions
 * are not known are given them from OANDA candles read through the candle store (modules/candles) at batch
 * priority: candles stored already are not asked for again, and the requests are taken from the token's shared
 * budget only while no screen needs them (docs/decisions/023-candle-store.md). Never inside a sync. In process (a
 * timer started with the app, stopped on close); a job queue can drive it instead by calling `runOnce`, the rest
 * stays.
 */

/** What the app starts and stops; a job queue can drive `runOnce` instead of the timer. */
export interface BackgroundJob<Report = unknown> {
  start(): void;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
  runOnce(): Promise<Report>;
}

export interface ExcursionJobOptions {
  db: Kysely<TradingDb>;
  /** The candle store; its budget keeps batch work to its share of each token's requests (`batchPerMinute`). */
  candles: Pick<CandleStore, 'read'>;
  credentials: (userId: string) => Promise<OandaCredentials | undefined>;
  now: () => Date;
  /** Trades of one user looked at per run (default 30, the budget's batch share of a minute). */
  requestsPerMinute?: number;
  /** Users looked at per run (default 200); each gets at most `requestsPerMinute` trades per run. */
  batch?: number;
  /** Time between runs (default 20 s). */
  intervalMs?: number;
  /** First wait after a failure (default 5 min), doubled per failure in a row, at most `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  log?: (err: unknown, context: Record<string, unknown>) => void;
}

export interface ExcursionRunReport {
  ready: number;
  unavailable: number;
  failed: number;
  /** Trades left for a later run because their token's budget was spent. */
  deferred: number;
}

type Outcome =
  | { status: 'ready'; maePrice: string; mfePrice: string }
  | { status: 'unavailable' }
  | { status: 'failed'; error: unknown };

/**
 * Whether OANDA can have candles for the trade's instrument: OANDA's own trades always; an imported MetaTrader trade
 * when its instrument is an OANDA instrument name (XXX_YYY, as the import maps a forex pair or metal), not a
 * broker's symbol such as 'US30'. Those are 'unavailable' without a request.
 */
export const hasOandaCandles = (row: { platform: string; instrument: string }): boolean =>
  row.platform === 'oanda' || /^[A-Z0-9]{2,10}_[A-Z0-9]{2,10}$/.test(row.instrument);

/** Trades updated per statement when excursions are queued again (well under either dialect's parameter limit). */
const REQUEUE_BATCH = 500;

/**
 * The user connected OANDA, or saved another token (docs/decisions/012-metatrader-import.md, Excursions): their
 * trades whose excursions were settled without a candle source are looked at again. Those are the `unavailable`
 * trades OANDA can have candles for (`hasOandaCandles`: a broker symbol such as US30 stays unavailable, no request)
 * and the `failed` ones (their backoff may have grown on a token that did not work). Which of the unavailable ones
 * were so for want of a connection rather than for want of candles is not stored: both are asked once more, at most
 * one candle request each within the token's budget, on a connection change only. Resolves to how many were queued.
 */
export async function requeueExcursions(db: Kysely<TradingDb>, userId: string, now: Date): Promise<number> {
  const settled = await db
    .selectFrom('trades')
    .select(['account_key', 'trade_id', 'platform', 'instrument'])
    .where('user_id', '=', userId)
    .where('excursion_status', 'in', ['unavailable', 'failed'])
    .execute();
  const again = settled.filter(hasOandaCandles);
  if (again.length === 0) return 0;
  const at = now.toISOString();
  await db.transaction().execute(async (trx) => {
    for (let from = 0; from < again.length; from += REQUEUE_BATCH) {
      const byAccount = new Map<string, string[]>();
      for (const row of again.slice(from, from + REQUEUE_BATCH))
        byAccount.set(row.account_key, [...(byAccount.get(row.account_key) ?? []), row.trade_id]);
      for (const [accountKey, tradeIds] of byAccount)
        await trx
          .updateTable('trades')
          .set({ excursion_status: null, excursion_at: null, excursion_attempts: 0, mae_price: null, mfe_price: null })
          .where('user_id', '=', userId)
          .where('account_key', '=', accountKey)
          .where('trade_id', 'in', tradeIds)
          .execute();
    }
    // The trade list shows them pending again.
    await bumpDataVersion(trx, userId, at, 'list');
  });
  return again.length;
}

/** Upstream answers that will not change on a retry: the instrument or range has no candles. */
const PERMANENT = new Set(['bad_request', 'not_found']);

export function createExcursionJob(options: ExcursionJobOptions): BackgroundJob<ExcursionRunReport> {
  const { db, now } = options;
  const batch = options.batch ?? 200;
  const retryMs = options.retryMs ?? 5 * 60_000;
  const maxRetryMs = options.maxRetryMs ?? 6 * 3_600_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<ExcursionRunReport> | undefined;

  const waitAfter = (attempts: number) => Math.min(maxRetryMs, retryMs * 2 ** Math.max(0, attempts - 1));

  const perMinute = options.requestsPerMinute ?? 30;

  /** Closed trades whose excursions are to be looked at: never looked at, or failed and waited long enough. */
  function pendingQuery() {
    const oldestFailure = new Date(now().getTime() - retryMs).toISOString();
    return db
      .selectFrom('trades')
      .where('state', '=', 'CLOSED')
      .where('close_time', 'is not', null)
      .where((eb) =>
        eb.or([
          eb('excursion_status', 'is', null),
          eb.and([eb('excursion_status', '=', 'failed'), eb('excursion_at', '<=', oldestFailure)]),
        ]),
      );
  }

  /**
   * Per user with pending trades (up to `batch` users), at most a minute's budget of them, newest close first: a
   * user with 10,000 trades takes its share each run and never crowds the others out.
   */
  async function pending() {
    const at = now().getTime();
    const users = await pendingQuery().select('user_id').distinct().orderBy('user_id').limit(batch).execute();
    const out = [];
    for (const { user_id } of users) {
      const rows = await pendingQuery()
        .select([
          'user_id',
          'account_key',
          'trade_id',
          'instrument',
          'initial_units',
          'open_time',
          'close_time',
          'excursion_status',
          'excursion_at',
          'excursion_attempts',
          'average_close_price',
          'platform',
        ])
        .where('user_id', '=', user_id)
        .orderBy('close_time', 'desc')
        .limit(perMinute)
        .execute();
      // Failed ones wait longer after each failure in a row.
      const due = rows.filter(
        (r) =>
          r.excursion_status === null ||
          (r.excursion_at !== null && Date.parse(r.excursion_at) + waitAfter(Number(r.excursion_attempts)) <= at),
      );
      if (due.length > 0) out.push({ userId: user_id, trades: due });
    }
    return out;
  }

  async function save(
    row: { user_id: string; account_key: string; trade_id: string; excursion_attempts: number },
    outcome: Outcome,
  ) {
    const failed = outcome.status === 'failed';
    const at = now().toISOString();
    // With the user's list version: the trade list shows the excursions (the Overview does not).
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('trades')
        .set({
          excursion_status: outcome.status,
          mae_price: outcome.status === 'ready' ? outcome.maePrice : null,
          mfe_price: outcome.status === 'ready' ? outcome.mfePrice : null,
          excursion_at: at,
          excursion_attempts: failed ? Number(row.excursion_attempts) + 1 : 0,
        })
        .where('user_id', '=', row.user_id)
        .where('account_key', '=', row.account_key)
        .where('trade_id', '=', row.trade_id)
        .execute();
      await bumpDataVersion(trx, row.user_id, at, 'list');
    });
  }

  async function runOnce(): Promise<ExcursionRunReport> {
    const report: ExcursionRunReport = { ready: 0, unavailable: 0, failed: 0, deferred: 0 };
    for (const { userId, trades } of await pending()) {
      const credentials = await options.credentials(userId);
      if (!credentials) {
        // No candle source for this user: shown as not available until OANDA is connected (requeueExcursions).
        for (const row of trades) await save(row, { status: 'unavailable' });
        report.unavailable += trades.length;
        continue;
      }
      for (const [index, row] of trades.entries()) {
        if (!hasOandaCandles(row)) {
          await save(row, { status: 'unavailable' });
          report.unavailable += 1;
          continue;
        }
        const plan = candlePlanFor({ ...row, close_time: row.close_time! });
        let outcome: Outcome;
        try {
          const candles = await options.candles.read({
            credentials,
            instrument: plan.instrument,
            granularity: plan.params.granularity,
            price: plan.params.price,
            from: plan.params.from,
            to: plan.params.to,
            priority: 'batch',
            wait: false,
          });
          const prices = excursionsFromStoredCandles(plan, candles);
          outcome = prices ? { status: 'ready', ...prices } : { status: 'unavailable' };
        } catch (error) {
          // The token's budget is spent for now: this trade and the user's others wait for a later run.
          if (error instanceof CandleBudgetSpent) {
            report.deferred += trades.length - index;
            break;
          }
          outcome =
            error instanceof OandaError && PERMANENT.has(error.kind)
              ? { status: 'unavailable' }
              : { status: 'failed', error };
          if (outcome.status === 'failed')
            options.log?.(error, { userId, tradeId: row.trade_id, accountKey: row.account_key });
        }
        await save(row, outcome);
        report[outcome.status] += 1;
      }
    }
    return report;
  }

  const tick = () => {
    if (running) return;
    running = runOnce()
      .catch((error: unknown) => {
        options.log?.(error, { job: 'excursions' });
        return { ready: 0, unavailable: 0, failed: 0, deferred: 0 };
      })
      .finally(() => {
        running = undefined;
      });
  };

  return {
    start() {
      if (timer) return;
      timer = setInterval(tick, options.intervalMs ?? 20_000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
    runOnce,
  };
}
