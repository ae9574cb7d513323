import type { Kysely } from 'kysely';
import { chunks } from '../../lib/batches';
import type { CandlesTables } from './tables';

/** One series of candles: an OANDA environment's instrument at one granularity and price component. */
export interface SeriesKey {
  environment: 'practice' | 'live';
  instrument: string;
  granularity: string;
  price: 'M' | 'B' | 'A';
}

export interface CandleRow {
  time: string;
  o: string;
  h: string;
  l: string;
  c: string;
  volume: number;
  covered_from: string;
  covered_to: string;
}

/** Rows per insert: 13 values each, well under SQLite's and PostgreSQL's parameter limits. */
const ROWS_PER_INSERT = 400;

const COLUMNS = ['time', 'o', 'h', 'l', 'c', 'volume', 'covered_from', 'covered_to'] as const;

/** The candles table's queries (times in the stored form, domain/datetime.ts: text order is time order). */
export function createCandleRepository(db: Kysely<CandlesTables>) {
  const series = (key: SeriesKey) =>
    db
      .selectFrom('candles')
      .select(COLUMNS)
      .where('environment', '=', key.environment)
      .where('instrument', '=', key.instrument)
      .where('granularity', '=', key.granularity)
      .where('price', '=', key.price);

  return {
    /**
     * The stored rows starting in [from, to), with the last one before `from` and the first one from `to` on (their
     * covered spans may reach into the range), in time order.
     */
    async around(key: SeriesKey, from: string, to: string): Promise<CandleRow[]> {
      const [before, inside, after] = await Promise.all([
        series(key).where('time', '<', from).orderBy('time', 'desc').limit(1).execute(),
        series(key).where('time', '>=', from).where('time', '<', to).orderBy('time').execute(),
        series(key).where('time', '>=', to).orderBy('time').limit(1).execute(),
      ]);
      return [...before, ...inside, ...after];
    },

    /** The newest stored rows up to `to` (exclusive), newest first. */
    newest(key: SeriesKey, to: string, limit: number): Promise<CandleRow[]> {
      return series(key).where('time', '<', to).orderBy('time', 'desc').limit(limit).execute();
    },

    /** The stored rows at these times. */
    async at(key: SeriesKey, times: readonly string[]): Promise<CandleRow[]> {
      const out: CandleRow[] = [];
      for (const part of chunks(times, 500))
        if (part.length > 0) out.push(...(await series(key).where('time', 'in', part).execute()));
      return out;
    },

    /**
     * Stores complete candles; a row already there keeps its prices (a complete candle does not change) and takes
     * the covered span given (the caller merged it with the stored one).
     */
    async upsert(key: SeriesKey, rows: readonly CandleRow[], fetchedAt: string): Promise<void> {
      for (const part of chunks(rows, ROWS_PER_INSERT))
        await db
          .insertInto('candles')
          .values(part.map((row) => ({ ...key, ...row, fetched_at: fetchedAt })))
          .onConflict((oc) =>
            oc.columns(['environment', 'instrument', 'granularity', 'price', 'time']).doUpdateSet((eb) => ({
              covered_from: eb.ref('excluded.covered_from'),
              covered_to: eb.ref('excluded.covered_to'),
            })),
          )
          .execute();
    },
  };
}
