import type { Kysely } from 'kysely';
import type { ImportMappingsTable, ImportsTable } from '../../db/schema';
import type { ImportTables } from './tables';

/** The import module's tables: previews waiting for confirm, saved CSV mappings, contract-size corrections. */
export function createImportRepository(db: Kysely<ImportTables>) {
  return {
    async savePending(row: ImportsTable): Promise<void> {
      await db.insertInto('imports').values(row).execute();
    },

    findPending(userId: string, id: string): Promise<ImportsTable | undefined> {
      return db.selectFrom('imports').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    },

    async deletePending(userId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('imports')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Forgets previews that expired (anyone's: called on each upload). */
    async deleteExpired(now: string): Promise<void> {
      await db.deleteFrom('imports').where('expires_at', '<=', now).execute();
    },

    listMappings(userId: string): Promise<ImportMappingsTable[]> {
      return db.selectFrom('import_mappings').selectAll().where('user_id', '=', userId).orderBy('name_key').execute();
    },

    findMapping(userId: string, id: string): Promise<ImportMappingsTable | undefined> {
      return db
        .selectFrom('import_mappings')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** Saves by name: a mapping of the same name (any case) is replaced, keeping its id. */
    async saveMapping(row: ImportMappingsTable): Promise<ImportMappingsTable> {
      return db.transaction().execute(async (tx) => {
        const existing = await tx
          .selectFrom('import_mappings')
          .select(['id', 'created_at'])
          .where('user_id', '=', row.user_id)
          .where('name_key', '=', row.name_key)
          .executeTakeFirst();
        if (existing) {
          const saved = { ...row, id: existing.id, created_at: existing.created_at };
          await tx
            .updateTable('import_mappings')
            .set({ name: row.name, mapping: row.mapping, updated_at: row.updated_at })
            .where('id', '=', existing.id)
            .execute();
          return saved;
        }
        await tx.insertInto('import_mappings').values(row).execute();
        return row;
      });
    },

    async deleteMapping(userId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('import_mappings')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** The user's units-per-lot corrections, by upper-cased symbol. */
    async contractSizes(userId: string): Promise<Map<string, string>> {
      const rows = await db
        .selectFrom('contract_sizes')
        .select(['symbol_key', 'size'])
        .where('user_id', '=', userId)
        .execute();
      return new Map(rows.map((r) => [r.symbol_key, r.size]));
    },

    async saveContractSizes(userId: string, sizes: ReadonlyMap<string, string>, now: string): Promise<void> {
      if (sizes.size === 0) return;
      await db
        .insertInto('contract_sizes')
        .values([...sizes].map(([symbol_key, size]) => ({ user_id: userId, symbol_key, size, updated_at: now })))
        .onConflict((oc) =>
          oc.columns(['user_id', 'symbol_key']).doUpdateSet((eb) => ({
            size: eb.ref('excluded.size'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    },
  };
}
