import { sql, type Kysely } from 'kysely';

/*
 * Broker time for MetaTrader imports (docs/decisions/012-metatrader-import.md, "Server time").
 *
 * - broker_accounts.broker_time: the server clock rule an imported account remembers ('ny-close-us', 'ny-close-eu',
 *   'fixed' with utc_offset). Accounts imported before this migration were read at their fixed utc_offset, so they
 *   remember 'fixed': their stored times stay as they are until the trader picks another rule.
 * - trades.server_open_time: an imported trade's open time as the server printed it (`YYYY-MM-DDTHH:mm:ss`), which a
 *   re-import matches the trade by (domain/imported-trade-ids.ts importedTradeIds), so that a corrected rule moves
 *   the stored times in place. Filled for the stored imported trades from their UTC open time at the account's
 *   remembered offset (+02:00 where it has none, the default of the time). null for OANDA's trades.
 */

/** Rows read and written per round of the fill. */
const PAGE = 2000;

/** A stored UTC time read at a fixed offset ('+02:00') as the server's wall clock. */
function wallClock(utc: string, offset: string): string {
  const sign = offset.startsWith('-') ? -1 : 1;
  const minutes = Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6));
  return new Date(Date.parse(utc) + sign * minutes * 60_000).toISOString().slice(0, 19);
}

interface Tables {
  broker_accounts: { user_id: string; account_key: string; platform: string; utc_offset: string | null };
  trades: {
    user_id: string;
    account_key: string;
    trade_id: string;
    platform: string;
    open_time: string;
    server_open_time: string | null;
  };
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('broker_accounts').addColumn('broker_time', 'text').execute();
  await db.schema.alterTable('trades').addColumn('server_open_time', 'text').execute();
  const k = db as unknown as Kysely<Tables & { broker_accounts: { broker_time: string | null } }>;
  await k.updateTable('broker_accounts').set({ broker_time: 'fixed' }).where('platform', '=', 'metatrader').execute();

  const offsets = new Map<string, string>();
  for (const a of await k
    .selectFrom('broker_accounts')
    .select(['user_id', 'account_key', 'utc_offset'])
    .where('platform', '=', 'metatrader')
    .execute())
    offsets.set(`${a.user_id}\n${a.account_key}`, a.utc_offset ?? '+02:00');
  for (;;) {
    const rows = await k
      .selectFrom('trades')
      .select(['user_id', 'account_key', 'trade_id', 'open_time'])
      .where('platform', '=', 'metatrader')
      .where('server_open_time', 'is', null)
      .limit(PAGE)
      .execute();
    if (rows.length === 0) return;
    // One statement per account in the page (PostgreSQL runs migrations in a transaction already; SQLite is quick).
    const groups = new Map<string, typeof rows>();
    for (const r of rows) {
      const group = `${r.user_id}\n${r.account_key}`;
      const list = groups.get(group);
      if (list) list.push(r);
      else groups.set(group, [r]);
    }
    for (const [group, list] of groups) {
      const offset = offsets.get(group) ?? '+02:00';
      const { user_id, account_key } = list[0]!;
      await sql`update trades set server_open_time = case trade_id ${sql.join(
        list.map((r) => sql`when ${r.trade_id} then ${wallClock(r.open_time, offset)}`),
        sql` `,
      )} end where user_id = ${user_id} and account_key = ${account_key} and trade_id in (${sql.join(
        list.map((r) => r.trade_id),
      )})`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('trades').dropColumn('server_open_time').execute();
  await db.schema.alterTable('broker_accounts').dropColumn('broker_time').execute();
}
