import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { bumpDataVersion } from '../db/data-versions';

/**
 * Trades, notes and tags written straight into the database for list, export and calendar tests: exact rows
 * without a broker in between. Times are OANDA's stored form (nine fractional digits).
 */
export interface SeedTrade {
  id: string;
  instrument?: string;
  units?: string;
  state?: 'OPEN' | 'CLOSED';
  open: string;
  close?: string | null;
  pl?: string;
  unrealized?: string | null;
  price?: string;
  closePrice?: string | null;
  initialStop?: string | null;
  mae?: string | null;
  mfe?: string | null;
  excursion?: string | null;
}

/** '2025-01-02T10:00:00Z' → '2025-01-02T10:00:00.000000000Z'. */
const stored = (iso: string) => `${new Date(iso).toISOString().slice(0, 19)}.000000000Z`;

export async function userIdOf(db: Kysely<Database>, username: string): Promise<string> {
  const row = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
  return row.id;
}

/** An OANDA demo account row; returns its account key. */
export async function seedAccount(db: Kysely<Database>, userId: string, login: string): Promise<string> {
  const key = `oanda:fxpractice:${login}`;
  const at = '2025-01-01T00:00:00.000Z';
  await db
    .insertInto('broker_accounts')
    .values({
      id: `${userId}-${login}`,
      user_id: userId,
      account_key: key,
      platform: 'oanda',
      server: 'fxpractice',
      login,
      mode: 'demo',
      synced_at: at,
      version: 0,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return key;
}

export async function seedTrades(db: Kysely<Database>, userId: string, key: string, trades: readonly SeedTrade[]) {
  const at = '2025-01-01T00:00:00.000Z';
  for (let i = 0; i < trades.length; i += 200)
    await db
      .insertInto('trades')
      .values(
        trades.slice(i, i + 200).map((t) => {
          const state = t.state ?? (t.close ? 'CLOSED' : 'OPEN');
          return {
            user_id: userId,
            account_key: key,
            trade_id: t.id,
            trade_num: Number(t.id),
            mode: 'demo',
            instrument: t.instrument ?? 'EUR_USD',
            price: t.price ?? '1.10000',
            initial_units: t.units ?? '1000',
            current_units: state === 'CLOSED' ? '0' : (t.units ?? '1000'),
            realized_pl: t.pl ?? '0.0000',
            unrealized_pl: t.unrealized ?? null,
            financing: '0.0000',
            state,
            open_time: stored(t.open),
            close_time: t.close ? stored(t.close) : null,
            average_close_price: t.closePrice ?? null,
            stop_loss_price: null,
            take_profit_price: null,
            trailing_stop_distance: null,
            initial_stop_loss_price: t.initialStop ?? null,
            mae_price: t.mae ?? null,
            mfe_price: t.mfe ?? null,
            excursion_status: t.excursion ?? null,
            created_at: at,
            updated_at: at,
          };
        }),
      )
      .execute();
  // As every writer of trades does: the trade list's cached pages are keyed by the user's data versions.
  await bumpDataVersion(db, userId, at);
}

export async function seedTag(db: Kysely<Database>, userId: string, kind: string, name: string): Promise<string> {
  const id = `${userId.slice(0, 8)}-${kind}-${name}`.toLowerCase();
  const at = '2025-01-01T00:00:00.000Z';
  await db
    .insertInto('journal_tags')
    .values({ id, user_id: userId, kind, name, name_key: name.toLowerCase(), created_at: at, updated_at: at })
    .execute();
  return id;
}

export async function seedNote(
  db: Kysely<Database>,
  userId: string,
  key: string,
  tradeId: string,
  journal: { note?: string; rating?: number | null; tags?: string[] },
) {
  const at = '2025-01-01T00:00:00.000Z';
  await db
    .insertInto('trade_notes')
    .values({
      user_id: userId,
      account_key: key,
      trade_id: tradeId,
      note: journal.note ?? '',
      rating: journal.rating ?? null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  for (const tag of journal.tags ?? [])
    await db
      .insertInto('trade_tags')
      .values({ user_id: userId, account_key: key, trade_id: tradeId, tag_id: tag, created_at: at })
      .execute();
  await bumpDataVersion(db, userId, at, 'list');
  if ((journal.tags ?? []).length > 0) await bumpDataVersion(db, userId, at, 'journal');
}
