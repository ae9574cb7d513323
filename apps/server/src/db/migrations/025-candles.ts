import type { Kysely } from 'kysely';

/*
 * The candle store (docs/decisions/023-candle-store.md): OANDA candles kept once, whatever asked for them (the trade
 * chart, MAE/MFE, the assistant, the equity rebuild). Market data, not a user's: one row serves every user of the
 * same OANDA environment, so the table has no user_id and an account's deletion leaves it.
 *
 * - environment: 'practice' or 'live' (the two hosts' prices may differ); instrument, granularity, price: the
 *   candle's component, one of M (mid), B (bid), A (ask), each its own row.
 * - time: the candle's start, UTC in the stored form of trade times (milliseconds, `Z`).
 * - o, h, l, c: OANDA's exact decimal strings; volume: the tick count. Only complete candles are stored.
 * - covered_from, covered_to: the span around this candle that a fetch has seen whole: no other candle starts in
 *   [covered_from, covered_to) but this one. Their union is what the store holds, so a gap with no candle at all
 *   (a weekend inside a fetched range) is not fetched again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('candles')
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('instrument', 'text', (c) => c.notNull())
    .addColumn('granularity', 'text', (c) => c.notNull())
    .addColumn('price', 'text', (c) => c.notNull())
    .addColumn('time', 'text', (c) => c.notNull())
    .addColumn('o', 'text', (c) => c.notNull())
    .addColumn('h', 'text', (c) => c.notNull())
    .addColumn('l', 'text', (c) => c.notNull())
    .addColumn('c', 'text', (c) => c.notNull())
    .addColumn('volume', 'integer', (c) => c.notNull())
    .addColumn('covered_from', 'text', (c) => c.notNull())
    .addColumn('covered_to', 'text', (c) => c.notNull())
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    // The primary key is the one index: every read names the series and a range of times.
    .addPrimaryKeyConstraint('candles_pk', ['environment', 'instrument', 'granularity', 'price', 'time'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('candles').execute();
}
