/**
 * The connections to one OANDA host, shared fairly (SECURITY.md, One user starving the others). Each caller (an OANDA
 * token: one trader, or several PipSense accounts using the same token) has its own FIFO queue; a freed connection goes
 * to the waiting caller with the fewest requests in flight, and among those to the one served longest ago. One trader's
 * full sync or burst of candle requests therefore never makes another trader wait behind all of it: the other's request
 * takes the next free connection. Alone, a caller may use every connection.
 *
 * At most `slots` requests are in flight at once, so the HTTP agent (with as many connections) never queues on its
 * own in first-come order behind this.
 */
export interface FairPool {
  /** Waits for a connection of `key`'s turn; call the returned function once the request is over (body read). */
  acquire(key: string): Promise<() => void>;
  /** Requests in flight and waiting, for tests and logs. */
  stats(): { inFlight: number; waiting: number };
}

/** A first-in, first-out queue whose take is O(1) (Array#shift moves every element: a full sync queues hundreds). */
class Fifo<T> {
  private items: Array<T | undefined> = [];
  private head = 0;
  get length(): number {
    return this.items.length - this.head;
  }
  push(item: T): void {
    this.items.push(item);
  }
  take(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head += 1;
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

interface Caller {
  inFlight: number;
  waiting: Fifo<() => void>;
}

export function createFairPool(slots: number): FairPool {
  if (!Number.isInteger(slots) || slots < 1) throw new Error(`a fair pool needs at least 1 slot (got ${slots})`);
  let inFlight = 0;
  let waiting = 0;
  // Insertion order is the order of service: a caller served moves to the end.
  const callers = new Map<string, Caller>();

  function release(key: string, caller: Caller): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      inFlight -= 1;
      caller.inFlight -= 1;
      if (caller.inFlight === 0 && caller.waiting.length === 0) callers.delete(key);
      dispatch();
    };
  }

  function dispatch(): void {
    while (inFlight < slots && waiting > 0) {
      let next: [string, Caller] | undefined;
      for (const entry of callers) {
        if (entry[1].waiting.length === 0) continue;
        if (!next || entry[1].inFlight < next[1].inFlight) next = entry;
      }
      if (!next) return;
      const [key, caller] = next;
      const start = caller.waiting.take()!;
      waiting -= 1;
      inFlight += 1;
      caller.inFlight += 1;
      callers.delete(key);
      callers.set(key, caller);
      start();
    }
  }

  return {
    acquire(key) {
      let caller = callers.get(key);
      if (!caller) {
        caller = { inFlight: 0, waiting: new Fifo() };
        callers.set(key, caller);
      }
      const owner = caller;
      return new Promise<() => void>((resolve) => {
        owner.waiting.push(() => resolve(release(key, owner)));
        waiting += 1;
        dispatch();
      });
    },
    stats: () => ({ inFlight, waiting }),
  };
}
