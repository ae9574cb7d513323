import { CompiledQuery, sql, type Kysely, type Selectable } from 'kysely';
import type { TradesTable } from '../../db/schema';
import { sqliteHandleOf } from '../../db/client';
import { bumpDataVersion, dataVersionBump } from '../../db/data-versions';
import { chunks } from '../../lib/batches';
import type { TradeRecord } from './trade-content';
import { accountKeysNamed, apiAccountId } from './account-key';
import type { StoredOpenTime } from '../../domain/imported-trade-ids';
import { createSqliteTradeWriter } from './sqlite-trade-writer';
import { planUpsert, STORED_COLUMNS, upsertSql, type StoredTrade, type WriteCounts } from './trade-upsert';
import type { TradingDb } from './tables';

export type { WriteCounts } from './trade-upsert';

export type TradeRow = Selectable<TradesTable>;

/**
 * Rows per statement on PostgreSQL: 500 trades × 21 columns stays well inside its parameter limit. (SQLite writes
 * through sqlite-trade-writer.ts.)
 */
const BATCH = 500;

/** Rows per read of an account's stored trade ids (openTimes). */
const OPEN_TIMES_PAGE = 5000;

export function createTradeRepository(db: Kysely<TradingDb>) {
  // PostgreSQL numbers its parameters ($1), SQLite does not (?): ask the dialect's own compiler which it is.
  const numbered = db.selectFrom('trades').select('trade_id').where('trade_id', '=', '').compile().sql.includes('$1');
  const statements = new Map<number, string>();
  const upsert = (rows: number) => {
    let text = statements.get(rows);
    if (!text) statements.set(rows, (text = upsertSql(rows, numbered)));
    return text;
  };
  // SQLite made by createDb: the bulk upsert runs on a writer thread with statements prepared once.
  const sqlite = numbered ? undefined : sqliteHandleOf(db);
  const sqliteWriter = sqlite ? createSqliteTradeWriter(db, sqlite) : undefined;

  /** A compiled statement as the writer thread takes it (plain data, cloned into its message). */
  const asMessage = (q: CompiledQuery) => ({ sql: q.sql, parameters: [...q.parameters] });

  const repository = {
    /**
     * Stores one page of an account's trades in one transaction (on SQLite in the writer thread, whose connection
     * the app's queries see once this resolves): inserts the new ones, rewrites the ones whose
     * content changed, leaves identical ones alone (so a re-run writes nothing and reports nothing).
     * `key`: the account key (account-key.ts), as every method here but the filters takes it.
     * `fresh`: the account had no stored trades when the sync began, so there is nothing to compare with.
     * `alongside`: statements run first in the same transaction (an import's account row). When the write created or
     * changed a row, the data version moves in the same transaction.
     */
    async write(
      userId: string,
      key: string,
      records: readonly TradeRecord[],
      now: string,
      options: { fresh?: boolean; alongside?: readonly CompiledQuery[] } = {},
    ): Promise<WriteCounts> {
      const alongside = options.alongside ?? [];
      if (records.length === 0 && alongside.length === 0) return { created: 0, updated: 0 };
      // One row per id: PostgreSQL refuses an upsert that touches the same row twice in one statement.
      const unique = [...new Map(records.map((r) => [r.trade_id, r])).values()];
      if (sqliteWriter)
        return sqliteWriter.write({
          userId,
          accountKey: key,
          now,
          fresh: options.fresh === true,
          records: unique,
          statements: alongside.map(asMessage),
          whenChanged: asMessage(dataVersionBump(db, userId, now).compile()),
        });
      return db.transaction().execute(async (trx) => {
        for (const statement of alongside) await trx.executeQuery(statement);
        const counts: WriteCounts = { created: 0, updated: 0 };
        for (const batch of chunks(unique, BATCH)) {
          const stored = new Map<string, StoredTrade>();
          if (!options.fresh) {
            const existing = await trx
              .selectFrom('trades')
              .select(['trade_id', ...STORED_COLUMNS])
              .where('user_id', '=', userId)
              .where('account_key', '=', key)
              .where(
                'trade_id',
                'in',
                batch.map((r) => r.trade_id),
              )
              .execute();
            for (const row of existing) stored.set(row.trade_id, row);
          }
          const { params, rows, counts: batchCounts } = planUpsert(stored, batch, { userId, accountKey: key, now });
          counts.created += batchCounts.created;
          counts.updated += batchCounts.updated;
          if (rows > 0) await trx.executeQuery(CompiledQuery.raw(upsert(rows), params));
        }
        if (counts.created + counts.updated > 0) await dataVersionBump(trx, userId, now).execute();
        return counts;
      });
    },

    /**
     * The open times (UTC, and as the server printed them) of each of the account's stored trades, by trade id: an
     * import names its trades by them.
     */
    async openTimes(userId: string, key: string): Promise<Map<string, StoredOpenTime>> {
      // A page at a time (by trade id, the key's order): on SQLite each read holds the event loop while it runs.
      const out = new Map<string, StoredOpenTime>();
      let after: string | null = null;
      for (;;) {
        let query = db
          .selectFrom('trades')
          .select(['trade_id', 'open_time', 'server_open_time'])
          .where('user_id', '=', userId)
          .where('account_key', '=', key)
          .orderBy('trade_id')
          .limit(OPEN_TIMES_PAGE);
        if (after !== null) query = query.where('trade_id', '>', after);
        const rows = await query.execute();
        for (const r of rows)
          out.set(r.trade_id, { openTime: r.open_time, serverOpenTime: r.server_open_time ?? null });
        if (rows.length < OPEN_TIMES_PAGE) return out;
        after = rows.at(-1)!.trade_id;
        await new Promise((resolve) => setImmediate(resolve));
      }
    },

    /**
     * Sets the first stop-loss of trades already stored without one (`stops`: trade id → price), in one transaction
     * that moves the data version when it changed a row. A stop already stored is kept (trade-upsert.ts).
     */
    async fillInitialStops(
      userId: string,
      key: string,
      stops: ReadonlyMap<string, string>,
      now: string,
    ): Promise<void> {
      if (stops.size === 0) return;
      if (sqliteWriter) {
        await sqliteWriter.write({
          userId,
          accountKey: key,
          now,
          fresh: false,
          records: [],
          stops: [...stops],
          whenChanged: asMessage(dataVersionBump(db, userId, now).compile()),
        });
        return;
      }
      await db.transaction().execute(async (trx) => {
        let filled = 0;
        for (const batch of chunks([...stops], BATCH)) {
          const result = await sql`update trades as t set initial_stop_loss_price = s.price, updated_at = ${now}
            from unnest(${batch.map(([id]) => id)}::text[], ${batch.map(([, price]) => price)}::text[]) as s(trade_id, price)
            where t.user_id = ${userId} and t.account_key = ${key} and t.trade_id = s.trade_id
              and t.initial_stop_loss_price is null`.execute(trx);
          filled += Number(result.numAffectedRows ?? 0);
        }
        if (filled > 0) await dataVersionBump(trx, userId, now).execute();
      });
    },

    /** Whether any trade of the account is stored. */
    async hasAny(userId: string, key: string): Promise<boolean> {
      const row = await db
        .selectFrom('trades')
        .select('trade_id')
        .where('user_id', '=', userId)
        .where('account_key', '=', key)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Ids of the account's trades whose numeric id is at or below `maxNum` (all of them without a bound). */
    async idsUpTo(userId: string, key: string, maxNum: number | undefined): Promise<string[]> {
      let query = db
        .selectFrom('trades')
        .select('trade_id')
        .where('user_id', '=', userId)
        .where('account_key', '=', key);
      if (maxNum !== undefined) query = query.where('trade_num', '<=', maxNum);
      return (await query.execute()).map((r) => r.trade_id);
    },

    /** How many of the account's trades have a numeric id at or below `maxNum` (all of them without a bound). */
    async countUpTo(userId: string, key: string, maxNum: number | undefined): Promise<number> {
      let query = db
        .selectFrom('trades')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .where('account_key', '=', key);
      if (maxNum !== undefined) query = query.where('trade_num', '<=', maxNum);
      return Number((await query.executeTakeFirst())?.n ?? 0);
    },

    /** Ids of the account's trades not yet CLOSED: the ones whose numbers still move. */
    async unclosedIds(userId: string, key: string): Promise<string[]> {
      const rows = await db
        .selectFrom('trades')
        .select('trade_id')
        .where('user_id', '=', userId)
        .where('account_key', '=', key)
        .where('state', '!=', 'CLOSED')
        .execute();
      return rows.map((r) => r.trade_id);
    },

    async remove(userId: string, key: string, tradeIds: readonly string[]): Promise<number> {
      if (tradeIds.length === 0) return 0;
      return db.transaction().execute(async (trx) => {
        let removed = 0;
        for (const batch of chunks(tradeIds, BATCH)) {
          const result = await trx
            .deleteFrom('trades')
            .where('user_id', '=', userId)
            .where('account_key', '=', key)
            .where('trade_id', 'in', batch)
            .executeTakeFirst();
          removed += Number(result.numDeletedRows);
        }
        return removed;
      });
    },

    /** How many trades the user has stored. */
    async count(userId: string): Promise<number> {
      const row = await db
        .selectFrom('trades')
        .where('user_id', '=', userId)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    async countForAccounts(userId: string, keys: readonly string[]): Promise<number> {
      if (keys.length === 0) return 0;
      const row = await db
        .selectFrom('trades')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .where('account_key', 'in', keys)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** Every stored trade of the user, oldest first (the order every history is read in). */
    all(userId: string): Promise<TradeRow[]> {
      return db
        .selectFrom('trades')
        .where('user_id', '=', userId)
        .selectAll()
        .orderBy('open_time', 'asc')
        .orderBy('trade_num', 'asc')
        .orderBy('account_key', 'asc')
        .execute();
    },

    /**
     * The stored trades among `refs`, named as the API names them (the broker's account id and the trade id), with
     * their account keys. A ref that names no trade of the user is not in the answer.
     */
    async keysOf(
      userId: string,
      refs: ReadonlyArray<{ accountId: string; tradeId: string }>,
    ): Promise<Array<{ accountId: string; tradeId: string; accountKey: string }>> {
      const wanted = new Set(refs.map((r) => `${r.accountId}\n${r.tradeId}`));
      const found: Array<{ accountId: string; tradeId: string; accountKey: string }> = [];
      for (const batch of chunks(refs, BATCH)) {
        const named = [...new Set(batch.map((r) => r.accountId))];
        const rows = await db
          .selectFrom('trades')
          .select(['trades.account_key', 'trades.trade_id'])
          .where('trades.user_id', '=', userId)
          .where('trades.account_key', 'in', accountKeysNamed(db, userId, named))
          .where('trades.trade_id', 'in', [...new Set(batch.map((r) => r.tradeId))])
          .orderBy('trades.account_key')
          .execute();
        for (const row of rows) {
          // Named as the API names it: OANDA's login, a MetaTrader account's key (account-key.ts apiAccountId).
          const accountId = apiAccountId(row.account_key);
          if (wanted.has(`${accountId}\n${row.trade_id}`))
            found.push({ accountId, tradeId: row.trade_id, accountKey: row.account_key });
        }
      }
      return found;
    },

    /** One trade by its key: account key and trade id. */
    find(userId: string, key: string, tradeId: string): Promise<TradeRow | undefined> {
      return db
        .selectFrom('trades')
        .selectAll()
        .where('user_id', '=', userId)
        .where('account_key', '=', key)
        .where('trade_id', '=', tradeId)
        .executeTakeFirst();
    },
  };
  return {
    ...repository,
    // The Overview's data version (db/data-versions.ts) moves only when a write or a removal changed stored rows:
    // a write moves it in its own transaction (so a sync's page never waits for the writer thread's lock).
    async remove(userId: string, key: string, tradeIds: readonly string[]): Promise<number> {
      const removed = await repository.remove(userId, key, tradeIds);
      if (removed > 0) await bumpDataVersion(db, userId, new Date().toISOString());
      return removed;
    },
  };
}
export type TradeRepository = ReturnType<typeof createTradeRepository>;
