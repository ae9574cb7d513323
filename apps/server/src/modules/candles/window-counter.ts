import { Redis } from 'ioredis';

/*
 * The counters behind the candle request budget (docs/decisions/023-candle-store.md): a fixed window per key, the
 * way the sign-in limits count (plugins/rate-limit.ts: @fastify/rate-limit's INCR then PEXPIRE on the first hit),
 * in Redis when REDIS_URL is set so that every instance counts together, in memory for one instance otherwise.
 * Unlike the sign-in limits, a refused take does not count: a background job that is refused must not use up the
 * places a screen's request would have had. So the increment takes a cap and happens only below it.
 */

interface WindowTake {
  /** Whether a place was taken (the count was below the cap). */
  taken: boolean;
  /** Places taken in the window, this one included when taken. */
  count: number;
  /** Milliseconds until the window ends (when a refused take may be tried again). */
  resetMs: number;
}

export interface WindowCounter {
  /** Takes a place in `key`'s window of `windowMs` when fewer than `cap` are taken. */
  take(key: string, cap: number, windowMs: number): Promise<WindowTake>;
  /** Marks `key` for `ms` (a screen waiting for a place: background work holds back meanwhile). */
  mark(key: string, ms: number): Promise<void>;
  /** Whether `key` is marked. */
  marked(key: string): Promise<boolean>;
  close(): Promise<void>;
}

/** One instance's counters, on the clock it is given (tests move it). */
export function memoryWindowCounter(now: () => Date): WindowCounter {
  const windows = new Map<string, { count: number; endsAt: number }>();
  const marks = new Map<string, number>();
  return {
    async take(key, cap, windowMs) {
      const at = now().getTime();
      let window = windows.get(key);
      if (!window || window.endsAt <= at) {
        window = { count: 0, endsAt: at + windowMs };
        windows.set(key, window);
      }
      const taken = window.count < cap;
      if (taken) window.count += 1;
      return { taken, count: window.count, resetMs: window.endsAt - at };
    },
    async mark(key, ms) {
      marks.set(key, now().getTime() + ms);
    },
    async marked(key) {
      const until = marks.get(key);
      if (until === undefined) return false;
      if (until > now().getTime()) return true;
      marks.delete(key);
      return false;
    },
    async close() {
      windows.clear();
      marks.clear();
    },
  };
}

/** The rate-limit store's window (INCR, PEXPIRE on the first), incremented only below the cap; one round trip. */
const TAKE_BELOW_CAP = `
  local current = tonumber(redis.call('GET', KEYS[1]) or '0')
  local cap = tonumber(ARGV[2])
  if current >= cap then
    local ttl = redis.call('PTTL', KEYS[1])
    return {0, current, ttl}
  end
  current = redis.call('INCR', KEYS[1])
  if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
  return {1, current, redis.call('PTTL', KEYS[1])}
`;

type TakeBelowCap = (key: string, windowMs: number, cap: number) => Promise<[number, number, number]>;

/**
 * Counters shared by every instance through Redis. Redis unreachable: the take is granted (fail open, as the sign-in
 * limits do) and logged, so a screen never fails for want of a counter; OANDA's own 429s are still backed off.
 */
export function redisWindowCounter(
  url: string,
  options: { prefix?: string; log?: (err: unknown) => void } = {},
): WindowCounter {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: true });
  const prefix = options.prefix ?? 'pipsense-candles-';
  redis.on('error', (err: Error) => options.log?.(err));
  redis.defineCommand('candleTake', { numberOfKeys: 1, lua: TAKE_BELOW_CAP });
  const takeBelowCap = (redis as unknown as { candleTake: TakeBelowCap }).candleTake.bind(redis);
  return {
    async take(key, cap, windowMs) {
      try {
        const [taken, count, ttl] = await takeBelowCap(prefix + key, windowMs, cap);
        return { taken: taken === 1, count, resetMs: ttl > 0 ? ttl : windowMs };
      } catch (err) {
        options.log?.(err);
        return { taken: true, count: 0, resetMs: windowMs };
      }
    },
    async mark(key, ms) {
      try {
        await redis.set(`${prefix}mark-${key}`, '1', 'PX', Math.max(1, Math.round(ms)));
      } catch (err) {
        options.log?.(err);
      }
    },
    async marked(key) {
      try {
        return (await redis.exists(`${prefix}mark-${key}`)) === 1;
      } catch (err) {
        options.log?.(err);
        return false;
      }
    },
    async close() {
      if (redis.status === 'wait' || redis.status === 'end') {
        redis.disconnect();
        return;
      }
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
