import type { Kysely } from 'kysely';

/*
 * The trading journal. Journal rows belong to the user and name a trade by its trade key
 * (account_key + trade_id, decision record 007) without a foreign key to `trades`: a full re-sync or an
 * OANDA configuration change may delete and re-insert trade rows, and a note must survive that. They go
 * with the user (cascade on users) and nowhere else.
 *
 * `trades` gains the risk columns: the first stop-loss price attached to the trade (from OANDA's transactions:
 * the stop-loss on fill, or the first stop-loss order created for the trade), and the price excursions over the
 * trade's life from candles, written in the background after the trade closed (`excursion_status`: null = not
 * looked at yet, 'ready', 'unavailable' = no candle source or no candles, 'failed' = retried later).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('journal_tags')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    /** Lower-cased, trimmed name: unique per user and kind. */
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('journal_tags_user_kind_name_key', ['user_id', 'kind', 'name_key'])
    .execute();

  await db.schema
    .createTable('trade_notes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_key', 'text', (c) => c.notNull())
    .addColumn('trade_id', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('rating', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('trade_notes_pkey', ['user_id', 'account_key', 'trade_id'])
    .execute();

  await db.schema
    .createTable('trade_tags')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_key', 'text', (c) => c.notNull())
    .addColumn('trade_id', 'text', (c) => c.notNull())
    .addColumn('tag_id', 'text', (c) => c.notNull().references('journal_tags.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('trade_tags_pkey', ['user_id', 'account_key', 'trade_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('trade_tags_tag_idx').on('trade_tags').columns(['tag_id']).execute();

  await db.schema
    .createTable('journal_days')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** YYYY-MM-DD, a calendar day in the trader's zone. */
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('mood', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('journal_days_pkey', ['user_id', 'day'])
    .execute();

  await db.schema.alterTable('trades').addColumn('initial_stop_loss_price', 'text').execute();
  await db.schema.alterTable('trades').addColumn('mae_price', 'text').execute();
  await db.schema.alterTable('trades').addColumn('mfe_price', 'text').execute();
  await db.schema.alterTable('trades').addColumn('excursion_status', 'text').execute();
  await db.schema.alterTable('trades').addColumn('excursion_at', 'text').execute();

  // Listing by close time and by instrument, and finding closed trades whose excursions are not known yet.
  await db.schema.createIndex('trades_user_close_time_idx').on('trades').columns(['user_id', 'close_time']).execute();
  await db.schema
    .createIndex('trades_user_instrument_idx')
    .on('trades')
    .columns(['user_id', 'instrument', 'open_time'])
    .execute();
  await db.schema
    .createIndex('trades_excursion_pending_idx')
    .on('trades')
    .columns(['excursion_status', 'close_time'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('trades_excursion_pending_idx').execute();
  await db.schema.dropIndex('trades_user_instrument_idx').execute();
  await db.schema.dropIndex('trades_user_close_time_idx').execute();
  for (const column of ['excursion_at', 'excursion_status', 'mfe_price', 'mae_price', 'initial_stop_loss_price'])
    await db.schema.alterTable('trades').dropColumn(column).execute();
  await db.schema.dropTable('journal_days').execute();
  await db.schema.dropTable('trade_tags').execute();
  await db.schema.dropTable('trade_notes').execute();
  await db.schema.dropTable('journal_tags').execute();
}
