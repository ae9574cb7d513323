import type { DailyCloses } from '../../domain/currency-totals';
import type { CandleStore } from './candle-store';

const DAY_MS = 86_400_000;
/** One read of a pair's daily candles reaches back this far: about five years, within one OANDA request. */
const REACH_DAYS = 5 * 366;

interface DailySeries {
  /** Each complete candle's end (its start + one day), epoch ms, oldest first. */
  ends: number[];
  closes: string[];
}

/**
 * The daily closes the currency rule converts money with (decision 024), read from this store: the mid close of the
 * last complete daily candle that ended by the end of the UTC day asked for (a weekend day takes Friday's). Each pair
 * is read once per use, five years at a time, at screen priority (a trader is waiting for the figures). A pair OANDA
 * does not list, a user without an OANDA connection, or a read that fails leaves the rate unknown (null): the figures
 * are then listed per currency, never guessed.
 */
export function dailyClosesFor(
  store: Pick<CandleStore, 'readForUser'>,
  userId: string,
  now: () => Date,
  log?: (err: unknown, context: Record<string, unknown>) => void,
): DailyCloses {
  const series = new Map<string, Promise<DailySeries | null>>();
  async function load(instrument: string): Promise<DailySeries | null> {
    const to = now().getTime();
    try {
      const candles = await store.readForUser(userId, {
        instrument,
        granularity: 'D',
        price: 'M',
        from: new Date(to - REACH_DAYS * DAY_MS).toISOString(),
        to: new Date(to).toISOString(),
        priority: 'interactive',
      });
      if (!candles) return null;
      const complete = candles.filter((c) => c.complete).sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
      return { ends: complete.map((c) => Date.parse(c.time) + DAY_MS), closes: complete.map((c) => c.c) };
    } catch (err) {
      log?.(err, { userId, instrument, step: 'daily closes for currency conversion' });
      return null;
    }
  }
  return {
    async close(instrument, day) {
      let read = series.get(instrument);
      if (!read) series.set(instrument, (read = load(instrument)));
      const s = await read;
      if (!s) return null;
      const dayEnd = Date.parse(`${day}T00:00:00Z`) + DAY_MS;
      // The last candle ended by the day's end (binary search over the ends, oldest first).
      let lo = 0;
      let hi = s.ends.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (s.ends[mid]! <= dayEnd) lo = mid + 1;
        else hi = mid;
      }
      return lo === 0 ? null : s.closes[lo - 1]!;
    },
  };
}
