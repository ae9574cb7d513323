import { tooManyRequests } from './errors';
import { plural } from './text';

/**
 * How much costly work one user may have at once in this instance (SECURITY.md, One user starving the others):
 * `running` at a time, then up to `queued` more waiting their turn in order; beyond that a 429 `TOO_MANY_RUNNING`
 * saying what is going on and to wait for it. Nothing is shared between instances: with several, each allows this much.
 */
export interface UserConcurrencyOptions {
  running: number;
  queued: number;
  /** What one piece of work is called in the message: "candle request", "Overview computation". */
  what: string;
}

export interface UserConcurrency {
  /** Runs `work` when the user has a free place; refuses at once when the user's queue is full too. */
  run<T>(userId: string, work: () => Promise<T>): Promise<T>;
  /** Running and waiting work of a user (tests, logs). */
  load(userId: string): { running: number; waiting: number };
}

export function createUserConcurrency(options: UserConcurrencyOptions): UserConcurrency {
  const users = new Map<string, { running: number; waiting: Array<() => void> }>();

  function busy(): Error {
    const held = options.running + options.queued;
    return tooManyRequests(
      `You already have ${plural(held, options.what)} running or waiting. Wait for them to finish, then try again.`,
      'TOO_MANY_RUNNING',
    );
  }

  return {
    async run(userId, work) {
      let user = users.get(userId);
      if (!user) {
        user = { running: 0, waiting: [] };
        users.set(userId, user);
      }
      const state = user;
      if (state.running >= options.running) {
        if (state.waiting.length >= options.queued) throw busy();
        // The finishing work hands its place over directly, so the count never drops and lets a newcomer in first.
        await new Promise<void>((resolve) => state.waiting.push(resolve));
      } else state.running += 1;
      try {
        return await work();
      } finally {
        const next = state.waiting.shift();
        if (next) next();
        else {
          state.running -= 1;
          if (state.running === 0) users.delete(userId);
        }
      }
    },
    load(userId) {
      const user = users.get(userId);
      return { running: user?.running ?? 0, waiting: user?.waiting.length ?? 0 };
    },
  };
}
