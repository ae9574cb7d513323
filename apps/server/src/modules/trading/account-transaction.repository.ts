import type { Kysely } from 'kysely';
import { dataVersionBump } from '../../db/data-versions';
import { chunks } from '../../lib/batches';
import {
  DEPENDENT_ORDER_TYPES,
  firstStopsOf,
  OANDA_CASH_FLOW_TYPES,
  STOP_LOSS_ORDER_TYPES,
  type AccountTransactionRecord,
  type TradeReductionRecord,
} from './account-transactions';
import type { FirstStop } from './broker-data';
import type { TradingDb } from './tables';

/** Rows per insert: 500 × 14 columns stays well inside both engines' parameter limits. */
const BATCH = 500;
/** Samples closer together than this are one sync's (recordSample). */
const SAMPLE_SPACING_MS = 60_000;

/** Ids per `in (…)` list. */
const IDS = 500;

export interface CashFlowRow {
  account_key: string;
  time: string;
  type: string;
  /** OANDA's fundingReason (a transfer's); an imported balance operation's type as the report printed it. */
  reason: string | null;
  amount: string;
  currency: string | null;
  comment: string | null;
  /** OANDA's cash flows: 'oanda'; imported balance operations: 'metatrader'. */
  source: 'oanda' | 'metatrader';
}

export interface CashFlowFilter {
  accountKeys?: readonly string[] | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export interface EquitySampleRow {
  account_key: string;
  time: string;
  nav: string | null;
  balance: string | null;
  unrealized_pl: string | null;
}

/**
 * The transaction store and equity samples of OANDA accounts (tables account_transactions and equity_samples,
 * migration 024; docs/decisions/022-transaction-store.md), and the cash flows of every platform read from it and
 * from the imported balance operations.
 */
export function createAccountTransactionRepository(db: Kysely<TradingDb>) {
  const scoped = (userId: string, key: string) =>
    db.selectFrom('account_transactions').where('user_id', '=', userId).where('account_key', '=', key);

  return {
    /**
     * Stores one idrange answer (its kept transactions and the trades its fills reduced or closed) and moves the
     * account's checkpoint to its last id, in one transaction: a sync cut off anywhere has stored whole answers
     * only, and resumes after the last one. Rows already stored stay as they are (a transaction never changes, and
     * an answer read again, as after migration 033, adds only what is missing); the data version moves when a cash
     * flow or a partial close arrived (both move the balance).
     */
    async writeRange(
      userId: string,
      key: string,
      records: readonly AccountTransactionRecord[],
      through: string,
      now: string,
      reductions: readonly TradeReductionRecord[] = [],
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const batch of chunks(records, BATCH))
          await trx
            .insertInto('account_transactions')
            .values(batch.map((r) => ({ ...r, user_id: userId, account_key: key })))
            .onConflict((oc) => oc.columns(['user_id', 'account_key', 'transaction_num']).doNothing())
            .execute();
        for (const batch of chunks(reductions, BATCH))
          await trx
            .insertInto('trade_reductions')
            .values(batch.map((r) => ({ ...r, user_id: userId, account_key: key })))
            .onConflict((oc) => oc.columns(['user_id', 'account_key', 'transaction_num', 'trade_id']).doNothing())
            .execute();
        // Only forwards: ids are digit strings, compared as numbers by their length first (integrations/oanda/ids.ts).
        await trx
          .updateTable('broker_accounts')
          .set({ transactions_through_id: through })
          .where('user_id', '=', userId)
          .where('account_key', '=', key)
          .where((eb) =>
            eb.or([
              eb('transactions_through_id', 'is', null),
              eb(eb.fn('length', ['transactions_through_id']), '<', through.length),
              eb.and([
                eb(eb.fn('length', ['transactions_through_id']), '=', through.length),
                eb('transactions_through_id', '<', through),
              ]),
            ]),
          )
          .execute();
        if (records.some((r) => r.amount !== null) || reductions.some((r) => r.kind === 'reduce'))
          await dataVersionBump(trx, userId, now).execute();
      });
    },

    /** The trade of each stored dependent order among `orderIds` (an ORDER_CANCEL's order). */
    async dependentOrders(
      userId: string,
      key: string,
      orderIds: readonly string[],
    ): Promise<Map<string, string | null>> {
      const found = new Map<string, string | null>();
      for (const part of chunks([...new Set(orderIds)], IDS)) {
        const rows = await scoped(userId, key)
          .select(['transaction_num', 'trade_id'])
          .where('type', 'in', DEPENDENT_ORDER_TYPES)
          .where('transaction_num', 'in', part.map(Number))
          .execute();
        for (const row of rows) found.set(String(row.transaction_num), row.trade_id);
      }
      return found;
    },

    /** The first stored stop-loss order of each trade: of the trades given, or of every trade of the account. */
    async firstStops(userId: string, key: string, tradeIds?: readonly string[]): Promise<Map<string, FirstStop>> {
      const query = () =>
        scoped(userId, key)
          .select(['transaction_num', 'trade_id', 'price', 'distance'])
          .where('type', 'in', STOP_LOSS_ORDER_TYPES);
      if (tradeIds === undefined) return firstStopsOf(await query().execute());
      const rows = [];
      for (const part of chunks([...new Set(tradeIds)], IDS))
        rows.push(...(await query().where('trade_id', 'in', part).execute()));
      return firstStopsOf(rows);
    },

    /**
     * Every stored stop-loss order (not trailing stops) of the user's accounts with a price, by account and in the
     * order placed: the coach's "stop moved away" (docs/coach.md, Patterns).
     */
    stopOrders(userId: string) {
      return db
        .selectFrom('account_transactions')
        .select(['account_key', 'trade_id', 'price'])
        .where('user_id', '=', userId)
        .where('type', 'in', STOP_LOSS_ORDER_TYPES)
        .where('trade_id', 'is not', null)
        .where('price', 'is not', null)
        .orderBy('account_key')
        .orderBy('transaction_num')
        .execute();
    },

    /**
     * The stored stop-loss, trailing-stop and take-profit orders of one trade and their cancellations (`order_id`:
     * the order cancelled), oldest first (the trade's replay).
     */
    ofTrade(userId: string, key: string, tradeId: string) {
      return scoped(userId, key)
        .select(['transaction_num', 'type', 'time', 'trade_id', 'order_id', 'price', 'distance'])
        .where('trade_id', '=', tradeId)
        .where('type', 'in', [...DEPENDENT_ORDER_TYPES, 'ORDER_CANCEL'])
        .orderBy('transaction_num')
        .execute();
    },

    /** The fills that reduced or closed one trade, oldest first (the trade's replay). */
    fillsOfTrade(userId: string, key: string, tradeId: string) {
      return db
        .selectFrom('trade_reductions')
        .select(['transaction_num', 'kind', 'time', 'units', 'price'])
        .where('user_id', '=', userId)
        .where('account_key', '=', key)
        .where('trade_id', '=', tradeId)
        .orderBy('transaction_num')
        .execute();
    },

    /**
     * The partial closes of an account's trades, oldest first, each with its trade's close time (null while the
     * trade is open): what the balance books at the time of each (docs/money.md, What a trade books).
     */
    accountPartialCloses(userId: string, key: string) {
      return db
        .selectFrom('trade_reductions as r')
        .leftJoin('trades as t', (j) =>
          j
            .onRef('t.user_id', '=', 'r.user_id')
            .onRef('t.account_key', '=', 'r.account_key')
            .onRef('t.trade_id', '=', 'r.trade_id'),
        )
        .select(['r.trade_id', 'r.time', 'r.units', 'r.realized_pl', 'r.financing', 't.state', 't.close_time'])
        .where('r.user_id', '=', userId)
        .where('r.account_key', '=', key)
        .where('r.kind', '=', 'reduce')
        .orderBy('r.time')
        .orderBy('r.transaction_num')
        .execute();
    },

    /** Every stored fill that reduced or closed a trade of an account, oldest first (tests). */
    allReductions(userId: string, key: string) {
      return db
        .selectFrom('trade_reductions')
        .select(['transaction_num', 'trade_id', 'kind', 'time', 'units', 'price', 'realized_pl', 'financing'])
        .where('user_id', '=', userId)
        .where('account_key', '=', key)
        .orderBy('transaction_num')
        .orderBy('trade_id')
        .execute();
    },

    /** Every stored transaction of an account, oldest first (tests and the replay of a trade's orders). */
    all(userId: string, key: string) {
      return scoped(userId, key).selectAll().orderBy('transaction_num').execute();
    },

    /**
     * The cash flows of the user's accounts (all of them, or those of `accountKeys`) within [from, to], oldest
     * first: OANDA's stored cash-flow transactions with their account's currency, and the imported balance
     * operations.
     */
    async cashFlows(userId: string, filter: CashFlowFilter = {}): Promise<CashFlowRow[]> {
      if (filter.accountKeys && filter.accountKeys.length === 0) return [];
      let oanda = db
        .selectFrom('account_transactions as t')
        .innerJoin('broker_accounts as a', (j) =>
          j.onRef('a.user_id', '=', 't.user_id').onRef('a.account_key', '=', 't.account_key'),
        )
        .select(['t.account_key', 't.time', 't.type', 't.reason', 't.amount', 'a.currency', 't.comment'])
        .where('t.user_id', '=', userId)
        .where('t.type', 'in', OANDA_CASH_FLOW_TYPES)
        .where('t.amount', 'is not', null);
      let imported = db
        .selectFrom('balance_operations')
        .select(['account_key', 'time', 'type', 'printed_type', 'amount', 'currency', 'comment'])
        .where('user_id', '=', userId);
      if (filter.accountKeys) {
        oanda = oanda.where('t.account_key', 'in', filter.accountKeys);
        imported = imported.where('account_key', 'in', filter.accountKeys);
      }
      if (filter.from) {
        oanda = oanda.where('t.time', '>=', filter.from);
        imported = imported.where('time', '>=', filter.from);
      }
      if (filter.to) {
        oanda = oanda.where('t.time', '<=', filter.to);
        imported = imported.where('time', '<=', filter.to);
      }
      const rows: CashFlowRow[] = [
        ...(await oanda.execute()).map((r) => ({ ...r, amount: r.amount!, source: 'oanda' as const })),
        ...(await imported.execute()).map(({ printed_type, ...r }) => ({
          ...r,
          reason: printed_type,
          source: 'metatrader' as const,
        })),
      ];
      return rows.sort((a, b) =>
        a.time < b.time
          ? -1
          : a.time > b.time
            ? 1
            : a.account_key < b.account_key
              ? -1
              : a.account_key > b.account_key
                ? 1
                : 0,
      );
    },

    /**
     * Records an account's NAV, balance and unrealized P/L at `time`: one row per sync, so a sample taken less than
     * SAMPLE_SPACING_MS before (the account sync just before a trade sync, in one background run) is replaced.
     */
    async recordSample(userId: string, sample: EquitySampleRow): Promise<void> {
      const since = new Date(Date.parse(sample.time) - SAMPLE_SPACING_MS).toISOString();
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('equity_samples')
          .where('user_id', '=', userId)
          .where('account_key', '=', sample.account_key)
          .where('time', '>', since)
          .execute();
        await trx
          .insertInto('equity_samples')
          .values({ user_id: userId, ...sample })
          .onConflict((oc) =>
            oc.columns(['user_id', 'account_key', 'time']).doUpdateSet({
              nav: sample.nav,
              balance: sample.balance,
              unrealized_pl: sample.unrealized_pl,
            }),
          )
          .execute();
      });
    },

    /** An account's samples within [from, to], oldest first. */
    samples(userId: string, key: string, from?: string, to?: string): Promise<EquitySampleRow[]> {
      let query = db
        .selectFrom('equity_samples')
        .select(['account_key', 'time', 'nav', 'balance', 'unrealized_pl'])
        .where('user_id', '=', userId)
        .where('account_key', '=', key);
      if (from) query = query.where('time', '>=', from);
      if (to) query = query.where('time', '<=', to);
      return query.orderBy('time').execute();
    },
  };
}

export type AccountTransactionRepository = ReturnType<typeof createAccountTransactionRepository>;
