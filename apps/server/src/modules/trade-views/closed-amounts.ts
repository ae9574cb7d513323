import { sql, type Kysely } from 'kysely';
import { instantIn } from '../../domain/calendar';
import { minorUnitsIn } from '../../domain/money';
import type { TradeViewsTables } from './tables';
import { selectTrades } from './selection-sql';

/**
 * What a balance books of an account's closed trades (modules/money, docs/money.md): each close time with the
 * trade's realized P/L and financing, oldest close first.
 */
export interface ClosedAmounts {
  /** Epoch milliseconds (a stored time's nanoseconds cut off), in order. */
  closeAt: Float64Array;
  /** Minor units of the account currency (domain/money.ts), exact. */
  realizedPL: Float64Array;
  financing: Float64Array;
}

/**
 * The account's closed trades as ONE text, `close_time realized_pl financing` per trade joined by commas, in the
 * order of the (user, state, close time, …) index. One string from the driver instead of a row (an array and three
 * strings) per trade: for 100,000 trades the rows cost about twice the SQL itself (bench/money.bench.ts). Neither a
 * stored time nor a decimal holds a space or a comma.
 */
export function closedText(db: Kysely<TradeViewsTables>, userId: string, accountKey: string) {
  const ordered = selectTrades(db, userId, { state: 'closed' })
    .where('trades.account_key', '=', accountKey)
    .select(
      sql<string>`${sql.ref('trades.close_time')} || ' ' || ${sql.ref('trades.realized_pl')} || ' ' || ${sql.ref('trades.financing')}`.as(
        'booked',
      ),
    )
    .orderBy('trades.close_time')
    .orderBy('trades.open_time')
    .orderBy('trades.trade_num')
    .orderBy('trades.account_key');
  // string_agg: PostgreSQL's, and SQLite's since 3.44. The text is checked for order as it is read (readClosed).
  return db.selectFrom(ordered.as('c')).select(sql<string | null>`string_agg(${sql.ref('c.booked')}, ',')`.as('text'));
}

/**
 * The text's trades as columns. The order is the query's, which both engines keep through the aggregate; should a
 * close time come before the one read before it (stored times of different forms, or an engine that reorders), the
 * columns are sorted by time, ties in the order read.
 */
function readClosed(text: string | null): ClosedAmounts {
  if (!text) return { closeAt: new Float64Array(0), realizedPL: new Float64Array(0), financing: new Float64Array(0) };
  let count = 1;
  for (let i = text.indexOf(','); i >= 0; i = text.indexOf(',', i + 1)) count++;
  const closeAt = new Float64Array(count);
  const realizedPL = new Float64Array(count);
  const financing = new Float64Array(count);
  let ordered = true;
  let start = 0;
  for (let k = 0; k < count; k++) {
    const timeEnd = text.indexOf(' ', start);
    const plEnd = text.indexOf(' ', timeEnd + 1);
    let end = text.indexOf(',', plEnd + 1);
    if (end < 0) end = text.length;
    if (timeEnd < 0 || plEnd < 0) throw new Error(`closed trade ${k} unreadable: ${text.slice(start, end)}`);
    const at = instantIn(text, start, timeEnd);
    if (Number.isNaN(at)) throw new Error(`closed trade ${k} has no close time: ${text.slice(start, end)}`);
    if (k > 0 && at < closeAt[k - 1]!) ordered = false;
    closeAt[k] = at;
    realizedPL[k] = minorUnitsIn(text, timeEnd + 1, plEnd);
    financing[k] = minorUnitsIn(text, plEnd + 1, end);
    start = end + 1;
  }
  if (ordered) return { closeAt, realizedPL, financing };
  const order = Array.from(closeAt.keys()).sort((a, b) => closeAt[a]! - closeAt[b]!);
  const by = (column: Float64Array) => Float64Array.from(order, (i) => column[i]!);
  return { closeAt: by(closeAt), realizedPL: by(realizedPL), financing: by(financing) };
}

/** The account's closed trades as a balance books them, oldest close first. */
export async function closedAmounts(
  db: Kysely<TradeViewsTables>,
  userId: string,
  accountKey: string,
): Promise<ClosedAmounts> {
  const row = await closedText(db, userId, accountKey).executeTakeFirst();
  return readClosed(row?.text ?? null);
}

/** The open time (as stored) of the account's first trade, open or closed; null without any. */
export async function firstOpenTime(
  db: Kysely<TradeViewsTables>,
  userId: string,
  accountKey: string,
): Promise<string | null> {
  const row = await selectTrades(db, userId, {})
    .where('trades.account_key', '=', accountKey)
    .select('trades.open_time')
    .orderBy('trades.open_time')
    .limit(1)
    .executeTakeFirst();
  return row?.open_time ?? null;
}
