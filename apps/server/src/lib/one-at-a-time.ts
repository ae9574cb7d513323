import { conflict } from './errors';

/**
 * One piece of work per key (a user and a kind of work) at a time in this process; a second one is refused at once
 * with 409 and `code` instead of queueing behind a long first one. Syncs and imports use it (SECURITY.md, One user
 * starving the others).
 */
export function createOneAtATime(code: string) {
  const running = new Set<string>();
  return {
    async run<T>(key: string, busyMessage: string, work: () => Promise<T>): Promise<T> {
      if (running.has(key)) throw conflict(busyMessage, code);
      running.add(key);
      try {
        return await work();
      } finally {
        running.delete(key);
      }
    },
    isRunning: (key: string) => running.has(key),
  };
}
