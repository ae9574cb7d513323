import type { CompiledQuery, Kysely, Selectable } from 'kysely';
import type { BalanceOperationsTable } from '../../db/schema';
import { chunks } from '../../lib/batches';
import {
  BALANCE_OPERATION_CONTENT,
  sameBalanceOperation,
  type BalanceOperationContent,
  type BalanceOperationRecord,
} from './metatrader-store';
import type { TradingDb } from './tables';

type BalanceOperationRow = Selectable<BalanceOperationsTable>;

/** Rows per insert: 500 × 13 columns stays well inside both engines' parameter limits. */
const BATCH = 500;

/**
 * The balance operations of imported accounts (table `balance_operations`, migration 023): written beside an
 * import's trades in its one transaction, read a page at a time by the account's list.
 */
export function createBalanceOperationRepository(db: Kysely<TradingDb>) {
  const scoped = (userId: string, key: string) =>
    db.selectFrom('balance_operations').where('user_id', '=', userId).where('account_key', '=', key);

  return {
    /**
     * The statements that store an import's operations, to run in its transaction (trade.repository.ts
     * `alongside`): new ones inserted, changed ones rewritten, identical ones left alone, compared with what the
     * account has stored now; with the counts.
     */
    async writeStatements(
      userId: string,
      key: string,
      records: readonly BalanceOperationRecord[],
      now: string,
    ): Promise<{ statements: CompiledQuery[]; added: number; updated: number }> {
      if (records.length === 0) return { statements: [], added: 0, updated: 0 };
      const stored = new Map<string, BalanceOperationContent>();
      for (const row of await scoped(userId, key)
        .select(['operation_id', ...BALANCE_OPERATION_CONTENT])
        .execute())
        stored.set(row.operation_id, row as BalanceOperationContent);
      let added = 0;
      let updated = 0;
      const writes: BalanceOperationRecord[] = [];
      for (const record of records) {
        const before = stored.get(record.operation_id);
        if (before && sameBalanceOperation(before, record)) continue;
        if (before) updated += 1;
        else added += 1;
        writes.push(record);
      }
      const statements = chunks(writes, BATCH).map((batch) =>
        db
          .insertInto('balance_operations')
          .values(batch.map((r) => ({ ...r, user_id: userId, account_key: key, created_at: now, updated_at: now })))
          .onConflict((oc) =>
            oc.columns(['user_id', 'account_key', 'operation_id']).doUpdateSet((eb) => ({
              ...Object.fromEntries(BALANCE_OPERATION_CONTENT.map((c) => [c, eb.ref(`excluded.${c}`)])),
              updated_at: now,
            })),
          )
          .compile(),
      );
      return { statements, added, updated };
    },

    async count(userId: string, key: string): Promise<number> {
      const row = await scoped(userId, key)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** One page, newest first (a tie in time by id, so the pages never overlap). */
    page(userId: string, key: string, offset: number, limit: number): Promise<BalanceOperationRow[]> {
      return scoped(userId, key)
        .selectAll()
        .orderBy('time', 'desc')
        .orderBy('operation_id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },
  };
}
