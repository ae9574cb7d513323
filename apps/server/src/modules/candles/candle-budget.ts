import { createHash } from 'node:crypto';
import { AppError } from '../../lib/errors';
import type { WindowCounter } from './window-counter';

/*
 * The budget of candle requests per OANDA token (docs/decisions/023-candle-store.md). Every user of one token shares
 * it, as they share OANDA's limits of that token. Three priorities, in this order:
 *
 * - interactive: a screen the trader is looking at (the trade chart, the assistant's candle tool);
 * - rebuild: the background equity rebuild;
 * - batch: work nobody waits for (MAE/MFE).
 *
 * A window of `perMinute` places per token (window-counter.ts: shared by every instance through Redis when it is
 * configured, per instance otherwise). Background work stops short of the window's end: the last `reserve` places
 * are a screen's only, and batch work takes at most `batchPerMinute` of the window's places (counting everyone's),
 * so it runs only while the token is otherwise quiet. Within an instance, a token's requests wait in one queue and
 * the highest priority goes first whenever a place or one of its `inFlight` connections frees; a screen that finds
 * the window spent marks the token, and background work on every instance holds back until the mark runs out.
 */

export type CandlePriority = 'interactive' | 'rebuild' | 'batch';

const RANK: Record<CandlePriority, number> = { interactive: 0, rebuild: 1, batch: 2 };

export interface CandleBudgetOptions {
  counter: WindowCounter;
  /** Candle requests per token per window, every priority together (default 300: 5 a second). */
  perMinute?: number;
  /** Places of each window that only a screen may take (default a quarter of `perMinute`, at least 1). */
  reserve?: number;
  /** Places of each window batch work may take, counting everyone's requests (default 30). */
  batchPerMinute?: number;
  /** One token's candle requests at OANDA at once from this instance (default 2: the pool's connections per host). */
  inFlight?: number;
  /** The window's length (default a minute). */
  windowMs?: number;
  /** Waits for a window to end; tests hand in theirs to move time by hand. */
  sleep?: (ms: number) => Promise<void>;
}

/** A background request found the budget spent and does not wait: the work is left for a later run. */
export class CandleBudgetSpent extends AppError {
  constructor(readonly priority: CandlePriority) {
    super(503, 'CANDLE_BUDGET_SPENT', 'The candle requests of this OANDA connection are used up for now.');
  }
}

interface Waiter {
  priority: CandlePriority;
  seq: number;
  wait: boolean;
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface TokenState {
  running: number;
  queue: Waiter[];
  pumping: boolean;
  /** Wakes a pump asleep on a spent window when a request of higher priority than its head arrives. */
  wake?: (() => void) | undefined;
  sleepingFor?: CandlePriority | undefined;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** The key of a token in the counters: its hash, never the token (the fair pool names its queues so too). */
const tokenKey = (accessToken: string) => createHash('sha256').update(accessToken).digest('base64url');

export function createCandleBudget(options: CandleBudgetOptions) {
  const { counter } = options;
  const perMinute = Math.max(1, options.perMinute ?? 300);
  const reserve = Math.min(perMinute - 1, Math.max(1, options.reserve ?? Math.floor(perMinute / 4)));
  const backgroundCap = Math.max(1, perMinute - reserve);
  const batchCap = Math.max(1, Math.min(options.batchPerMinute ?? 30, backgroundCap));
  const inFlight = Math.max(1, options.inFlight ?? 2);
  const windowMs = options.windowMs ?? 60_000;
  const sleep = options.sleep ?? realSleep;
  const tokens = new Map<string, TokenState>();
  let seq = 0;

  const capOf = (priority: CandlePriority) =>
    priority === 'interactive' ? perMinute : priority === 'rebuild' ? backgroundCap : batchCap;

  const stateOf = (key: string) => {
    let state = tokens.get(key);
    if (!state) {
      state = { running: 0, queue: [], pumping: false };
      tokens.set(key, state);
    }
    return state;
  };

  const headOf = (queue: Waiter[]) =>
    queue.reduce<Waiter | undefined>(
      (best, w) =>
        !best || RANK[w.priority] < RANK[best.priority] || (w.priority === best.priority && w.seq < best.seq)
          ? w
          : best,
      undefined,
    );

  const drop = (state: TokenState, waiter: Waiter) => state.queue.splice(state.queue.indexOf(waiter), 1);

  async function pump(key: string, state: TokenState): Promise<void> {
    if (state.pumping) return;
    state.pumping = true;
    try {
      while (state.running < inFlight && state.queue.length > 0) {
        const head = headOf(state.queue)!;
        let resetMs = 0;
        let taken = false;
        // A screen waiting on some instance: background work holds back until its mark runs out.
        const heldBack = head.priority !== 'interactive' && (await counter.marked(key));
        if (heldBack) resetMs = Math.min(1000, windowMs);
        else {
          const take = await counter.take(key, capOf(head.priority), windowMs);
          taken = take.taken;
          resetMs = take.resetMs;
        }
        if (taken) {
          drop(state, head);
          state.running += 1;
          head.resolve();
          continue;
        }
        if (!head.wait) {
          drop(state, head);
          head.reject(new CandleBudgetSpent(head.priority));
          continue;
        }
        if (head.priority === 'interactive' && !heldBack) await counter.mark(key, resetMs);
        await new Promise<void>((resolve) => {
          state.wake = resolve;
          state.sleepingFor = head.priority;
          void sleep(Math.max(1, resetMs)).then(resolve);
        });
        state.wake = undefined;
        state.sleepingFor = undefined;
      }
    } finally {
      state.pumping = false;
    }
  }

  function enter(key: string, priority: CandlePriority, wait: boolean): Promise<void> {
    const state = stateOf(key);
    // A request that does not wait is refused at once while work of a higher priority waits for a place.
    if (!wait && state.queue.some((w) => w.wait && RANK[w.priority] < RANK[priority]))
      return Promise.reject(new CandleBudgetSpent(priority));
    return new Promise<void>((resolve, reject) => {
      state.queue.push({ priority, seq: (seq += 1), wait, resolve, reject });
      if (state.wake && state.sleepingFor && RANK[priority] < RANK[state.sleepingFor]) state.wake();
      void pump(key, state);
    });
  }

  function leave(key: string) {
    const state = stateOf(key);
    state.running -= 1;
    if (state.running === 0 && state.queue.length === 0 && !state.pumping) tokens.delete(key);
    else void pump(key, state);
  }

  return {
    /**
     * Runs one OANDA request of the token within the budget, at its priority. `wait: false` (batch work): rejects
     * with CandleBudgetSpent when the window has no place for it, instead of waiting for the next one.
     */
    async run<T>(
      accessToken: string,
      priority: CandlePriority,
      work: () => Promise<T>,
      { wait = true }: { wait?: boolean } = {},
    ): Promise<T> {
      const key = tokenKey(accessToken);
      await enter(key, priority, wait);
      try {
        return await work();
      } finally {
        leave(key);
      }
    },

    /** This instance's requests of a token: at OANDA now, and waiting by priority. */
    load(accessToken: string) {
      const state = tokens.get(tokenKey(accessToken));
      const waiting = { interactive: 0, rebuild: 0, batch: 0 };
      for (const w of state?.queue ?? []) waiting[w.priority] += 1;
      return { running: state?.running ?? 0, waiting };
    },

    limits: { perMinute, reserve, backgroundCap, batchCap, inFlight, windowMs },
  };
}

export type CandleBudget = ReturnType<typeof createCandleBudget>;
