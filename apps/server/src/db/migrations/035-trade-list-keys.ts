import type { Kysely } from 'kysely';

/*
 * The trade list's journal and playbook filters (tags, notes, reviews) read the matching trades' keys from the
 * journal's or the playbooks' tables, then look each trade up by its key (trade-views/selection-sql.ts): two tags
 * on 100,000 trades are 19,286 lookups in bench/list.bench.ts. By the primary key each lookup read the whole row
 * (about 1 kB) for the few columns the list filters and sorts on. This index holds the key and those columns, so
 * SQLite answers the lookup, the filter by instrument, side and open time, and the sort by open time, P/L or
 * instrument from the index alone (EXPLAIN QUERY PLAN: `USING COVERING INDEX`): those pages' queries take 0.45 to
 * 0.70 of their CPU time before (bench/README.md, "Results: `list`, with the playbook filters"). P/L is kept as
 * stored (the text) and the list's `CAST(realized_pl AS NUMERIC)` computed from it: with the expression itself in
 * the index, SQLite still read the table. PostgreSQL gets the same index, so that a lookup by key planned as a
 * nested loop can be index-only there too. It is one more index for every trade a sync writes
 * (docs/decisions/018-trade-write-path.md): 10,000 trades inserted in 236 ms instead of 219.
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
