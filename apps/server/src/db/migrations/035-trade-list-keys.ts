import type { Kysely } from 'kysely';

/*
 * The trade list's journal and playbook filters (tags, notes, reviews) read the matching trades' keys from the
 * journal's or the playbooks' tables, then look each trade up by its key (trade-views/selection-sql.ts): two tags
 * on 100,000 trades are 19,286 lookups in bench/list.bench.ts. By the primary key each lookup read the whole row
 * (about 1 kB) for the few columns the list filters and sorts on. This index holds the key and those columns, so
 * SQLite answers the lookup, the filter by instrument, side and open time, and the sort by open time, P/L or
 * instrument from the index alone (EXPLAIN QUERY PLAN: `USING COVERING INDEX`): a fifth to a half less time for
 * those pages (bench/README.md, "Results: `list`, with the playbook filters"). P/L is kept as stored (the text): the
 * list's `CAST(realized_pl AS NUMERIC)` is computed from it, where an index on the expression itself was not read
 * as covering. PostgreSQL gets the same index: an index-only lookup by key for the same filters when it plans them
 * as a nested loop. It is one more index for every trade a sync writes (docs/decisions/018-trade-write-path.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('trades_user_key_list_idx')
    .on('trades')
    .columns([
      'user_id',
      'account_key',
      'trade_id',
      'open_time',
      'trade_num',
      'instrument',
      'initial_units',
      'realized_pl',
    ])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('trades_user_key_list_idx').execute();
}
