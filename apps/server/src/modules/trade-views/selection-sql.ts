import { PostgresAdapter, sql, type Expression, type JoinBuilder, type Kysely, type SqlBool } from 'kysely';
import { platformByQuery } from '@pipsense/contract';
import { accountKeysNamed } from '../trading';
import type { TradeViewsTables } from './tables';
import { readsNotes, readsReviews, type TimeBounds, type TradeSelection } from './selection';

/**
 * Stored times are OANDA's fixed-width nanosecond form (`…:SS.nnnnnnnnnZ`); bounds are written the same way so
 * that text comparison is time comparison (`.000Z` would sort after `.000000000Z`).
 */
export function storedTimeBound(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`not a time: ${iso}`);
  return `${new Date(ms).toISOString().slice(0, 23)}000000Z`;
}

/** The keys of the user's accounts an API `accountId` names (trading's rule), read once for the in-memory matcher. */
export async function accountKeysOf(
  db: Kysely<TradeViewsTables>,
  userId: string,
  accountId: string,
): Promise<Set<string>> {
  return new Set((await accountKeysNamed(db, userId, accountId).execute()).map((r) => r.account_key));
}

/** Decimals are TEXT. CAST(… AS NUMERIC) is exact on PostgreSQL and a number on SQLite (integer or double, which
 * orders decimals of up to 15 significant digits exactly), so one expression serves both engines. */
export const realizedPlValue = sql`CAST(${sql.ref('trades.realized_pl')} AS NUMERIC)`;
const unrealizedPlValue = sql`COALESCE(CAST(${sql.ref('trades.unrealized_pl')} AS NUMERIC), 0)`;

/** `%`, `_` and the escape itself match literally in a LIKE pattern. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** How the notes are joined (as `n`) to a trade's row. */
const noteOfTrade = (join: JoinBuilder<TradeViewsTables & { n: TradeViewsTables['trade_notes'] }, 'trades' | 'n'>) =>
  join
    .onRef('n.user_id', '=', 'trades.user_id')
    .onRef('n.account_key', '=', 'trades.account_key')
    .onRef('n.trade_id', '=', 'trades.trade_id');

/** The user's trades with the trader's note beside each (`n`, null without one). */
const withNoteJoin = (db: Kysely<TradeViewsTables>, userId: string) =>
  db.selectFrom('trades').leftJoin('trade_notes as n', noteOfTrade).where('trades.user_id', '=', userId);
type SelectedTrades = ReturnType<typeof withNoteJoin>;

/**
 * The user's trades the selection picks, as a Kysely query on `trades` (the caller selects and orders). The notes
 * are joined (as `n`) only when the selection reads them or `withNotes` asks: a list of a user's whole history
 * keeps the plans of the trades indexes alone (bench/list.bench.ts).
 */
export function selectTrades(
  db: Kysely<TradeViewsTables>,
  userId: string,
  s: TradeSelection,
  withNotes = readsNotes(s),
): SelectedTrades {
  // Without the join the query has no `n`: typed as the joined one, which only adds a nullable table the
  // where-clauses below touch only when the join is there. A filter that needs a note (its text, or one written)
  // joins only the trades that have one: SQLite then starts from the notes and looks each trade up by its key
  // (migration 035's index) instead of reading every trade in the range for its note (bench/README.md, "Results:
  // `list`, with the playbook filters").
  const noted = Boolean(s.noteText) || s.hasNote === true;
  let query = noted
    ? (db
        .selectFrom('trades')
        .innerJoin('trade_notes as n', noteOfTrade)
        .where('trades.user_id', '=', userId) as unknown as SelectedTrades)
    : withNotes
      ? withNoteJoin(db, userId)
      : (db.selectFrom('trades').where('trades.user_id', '=', userId) as unknown as SelectedTrades);
  if (s.platform) query = query.where('trades.platform', '=', platformByQuery(s.platform).stored);
  if (s.mode) query = query.where('trades.mode', '=', s.mode);
  if (s.account) query = query.where('trades.account_key', 'in', accountKeysNamed(db, userId, s.account));
  if (s.time) query = withinTime(query, s.time, s.state);
  if (s.state === 'closed' || s.outcome?.of === 'realized') query = query.where('trades.state', '=', 'CLOSED');
  if (s.state === 'open') query = query.where('trades.state', '!=', 'CLOSED');
  if (s.instrument) query = query.where('trades.instrument', '=', s.instrument);
  if (s.side === 'short') query = query.where('trades.initial_units', 'like', '-%');
  if (s.side === 'long') query = query.where('trades.initial_units', 'not like', '-%');
  if (s.outcome?.of === 'realized') {
    const op = s.outcome.is === 'win' ? '>' : s.outcome.is === 'loss' ? '<' : '=';
    query = query.where(sql<SqlBool>`${realizedPlValue} ${sql.raw(op)} 0`);
  }
  // Comparing the two parts instead of adding them keeps the sign exact on SQLite's doubles too.
  if (s.outcome?.of === 'total')
    query = query.where(
      sql<SqlBool>`${realizedPlValue} ${sql.raw(s.outcome.is === 'winners' ? '>' : '<')} -${unrealizedPlValue}`,
    );
  if (s.tags && s.tags.length > 0) {
    // The tagged trades first (trade_tags_user_tag_idx), then each looked up by its key: a tag narrows far more
    // than a user's whole history does.
    const tagged = db
      .selectFrom('trade_tags')
      .select(['account_key', 'trade_id'])
      .where('user_id', '=', userId)
      .where('tag_id', 'in', [...s.tags]);
    query = query.where((eb) => eb.refTuple('trades.account_key', 'trades.trade_id'), 'in', tagged as never);
  }
  if (s.noteText)
    query = query.where(sql<SqlBool>`lower(${sql.ref('n.note')}) like ${likePattern(s.noteText)} escape '\\'`);
  if (s.hasNote === true) query = query.where(sql<SqlBool>`${sql.ref('n.note')} <> ''`);
  if (s.hasNote === false) query = query.where(sql<SqlBool>`COALESCE(${sql.ref('n.note')}, '') = ''`);
  if (s.stopLoss !== undefined) query = query.where('trades.stop_loss_price', s.stopLoss ? 'is not' : 'is', null);
  if (s.takeProfit !== undefined) query = query.where('trades.take_profit_price', s.takeProfit ? 'is not' : 'is', null);
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (s.ruleBreak) query = withTradeKeys(query, s.ruleBreak.keys, s.ruleBreak.broke, postgres);
  if (s.pattern) query = withTradeKeys(query, s.pattern.keys, true, postgres);
  if (readsReviews(s)) {
    // The assigned trades first (migration 034's indexes hold their keys), then each by its key, as
    // the tag filter does.
    let reviewed = db.selectFrom('trade_reviews').select(['account_key', 'trade_id']).where('user_id', '=', userId);
    if (s.playbookId !== undefined) reviewed = reviewed.where('playbook_id', '=', s.playbookId);
    if (s.playbookReview === 'followed') reviewed = reviewed.where('followed_all', '=', 1);
    if (s.playbookReview === 'broke') reviewed = reviewed.where('followed_all', '=', 0);
    if (s.playbookReview === 'unreviewed') reviewed = reviewed.where('reviewed', '=', 0);
    query = query.where((eb) => eb.refTuple('trades.account_key', 'trades.trade_id'), 'in', reviewed as never);
  }
  return query;
}

/**
 * The trades whose key is among `keys` (or, `inside: false`, is not): per account, its trade ids as one array
 * parameter, so that a pattern flagging tens of thousands of trades binds two parameters an account, within SQLite's
 * and PostgreSQL's limits on parameters. SQLite reads the array with `json_each`, PostgreSQL as a `text[]` with
 * `= ANY`; both look each id up in the trades' key index. No key at all: no trade is inside.
 */
function withTradeKeys(query: SelectedTrades, keys: ReadonlySet<string>, inside: boolean, postgres: boolean) {
  const byAccount = new Map<string, string[]>();
  for (const key of keys) {
    const cut = key.lastIndexOf(' ');
    const account = key.slice(0, cut);
    let ids = byAccount.get(account);
    if (!ids) byAccount.set(account, (ids = []));
    ids.push(key.slice(cut + 1));
  }
  if (byAccount.size === 0) return inside ? query.where(sql<SqlBool>`1 = 0`) : query;
  return query.where((eb) => {
    const idIn = (ids: string[]) =>
      postgres
        ? sql<SqlBool>`${sql.ref('trades.trade_id')} = any(${ids}::text[])`
        : eb(
            'trades.trade_id',
            'in',
            eb.selectFrom(sql<{ value: string }>`json_each(${JSON.stringify(ids)})`.as('ids')).select('ids.value'),
          );
    const any = eb.or(
      [...byAccount].map(([account, ids]) => eb.and([eb('trades.account_key', '=', account), idIn(ids)])),
    );
    return inside ? any : eb.not(any);
  });
}

function withinTime(query: SelectedTrades, time: TimeBounds, state: TradeSelection['state']): SelectedTrades {
  const from = time.from ? storedTimeBound(time.from) : null;
  // Both ends: `to` is inclusive to the millisecond (stored times carry nanoseconds).
  const to = time.to
    ? storedTimeBound(time.ends === 'both' ? new Date(Date.parse(time.to) + 1).toISOString() : time.to)
    : null;
  if (from === null && to === null) return query;
  return query.where((eb) => {
    const within = (column: 'trades.open_time' | 'trades.close_time') => {
      const bounds: Expression<SqlBool>[] = [];
      if (from) bounds.push(eb(column, '>=', from));
      if (to) bounds.push(eb(column, '<', to));
      return eb.and(bounds);
    };
    if (time.basis === 'open') return within('trades.open_time');
    // Comparing the columns themselves (not a CASE) lets an index serve one state: (user_id, open_time, …) the open
    // trades, (user_id, state, close_time, …) the closed ones (docs/decisions/018-trade-write-path.md).
    if (state === 'open') return within('trades.open_time');
    if (state === 'closed') return within('trades.close_time');
    return eb.or([
      eb.and([eb('trades.state', '=', 'CLOSED'), within('trades.close_time')]),
      eb.and([eb('trades.state', '!=', 'CLOSED'), within('trades.open_time')]),
    ]);
  });
}
