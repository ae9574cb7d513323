// The candle request budget's priorities, on a clock and sleeps moved by hand.
import { describe, expect, it } from 'vitest';
import { CandleBudgetSpent, createCandleBudget, type CandlePriority } from './candle-budget';
import { memoryWindowCounter } from './window-counter';

const TOKEN = 'token-of-one-oanda-login';

/** A budget whose windows end only when the test says so: `elapse` moves the clock and wakes the sleepers. */
function handClock(options: { perMinute: number; reserve?: number; batchPerMinute?: number; inFlight?: number }) {
  let at = Date.parse('2025-10-06T12:00:00Z');
  const sleepers: Array<{ until: number; wake: () => void }> = [];
  const now = () => new Date(at);
  const budget = createCandleBudget({
    counter: memoryWindowCounter(now),
    ...options,
    sleep: (ms) => new Promise<void>((wake) => sleepers.push({ until: at + ms, wake })),
  });
  const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 5));
  return {
    budget,
    settle,
    async elapse(ms: number) {
      at += ms;
      for (const s of sleepers.splice(0))
        if (s.until <= at) s.wake();
        else sleepers.push(s);
      await settle();
    },
  };
}

/** Requests that each end when released, recording the order OANDA would have seen them in. */
function requests(budget: ReturnType<typeof createCandleBudget>) {
  const order: string[] = [];
  const open = new Map<string, () => void>();
  const start = (name: string, priority: CandlePriority, wait = true) =>
    budget.run(
      TOKEN,
      priority,
      () =>
        new Promise<string>((resolve) => {
          order.push(name);
          open.set(name, () => resolve(name));
        }),
      { wait },
    );
  const release = (name: string) => {
    open.get(name)?.();
    open.delete(name);
  };
  return { order, start, release, running: () => [...open.keys()] };
}

describe('the candle request budget', () => {
  it("lets a screen's requests go before a rebuild's that waited longer", async () => {
    const clock = handClock({ perMinute: 3, reserve: 1, inFlight: 1 });
    const r = requests(clock.budget);
    const rebuild = ['r1', 'r2', 'r3', 'r4'].map((name) => r.start(name, 'rebuild'));
    await clock.settle();
    const screen = ['i1', 'i2'].map((name) => r.start(name, 'interactive'));
    await clock.settle();
    expect(clock.budget.load(TOKEN)).toEqual({ running: 1, waiting: { interactive: 2, rebuild: 3, batch: 0 } });
    // One connection: each ends before the next starts; whenever one ends, the screen's go first.
    for (const name of ['r1', 'i1', 'i2']) {
      expect(r.running()).toEqual([name]);
      r.release(name);
      await clock.settle();
    }
    // The window's 3 places are taken (a rebuild may take 2 of them): the rest waits for the next window.
    expect(r.running()).toEqual([]);
    await clock.elapse(60_000);
    for (const name of ['r2', 'r3']) {
      expect(r.running()).toEqual([name]);
      r.release(name);
      await clock.settle();
    }
    expect(r.running()).toEqual([]);
    await clock.elapse(60_000);
    r.release('r4');
    await Promise.all([...rebuild, ...screen]);
    expect(r.order).toEqual(['r1', 'i1', 'i2', 'r2', 'r3', 'r4']);
  });

  it('keeps the last places of a window for a screen: one arriving while a rebuild waits goes at once', async () => {
    const clock = handClock({ perMinute: 4, reserve: 2, inFlight: 10 });
    const r = requests(clock.budget);
    for (const name of ['r1', 'r2', 'r3']) void r.start(name, 'rebuild');
    await clock.settle();
    // The rebuild has its 2 places; its third waits for the next window.
    expect(r.order).toEqual(['r1', 'r2']);
    void r.start('i1', 'interactive');
    void r.start('i2', 'interactive');
    await clock.settle();
    expect(r.order).toEqual(['r1', 'r2', 'i1', 'i2']);
    await clock.elapse(60_000);
    expect(r.order).toEqual(['r1', 'r2', 'i1', 'i2', 'r3']);
  });

  it('holds batch work to its share and refuses it at once rather than waiting', async () => {
    const clock = handClock({ perMinute: 10, batchPerMinute: 2, inFlight: 4 });
    const r = requests(clock.budget);
    const b1 = r.start('b1', 'batch', false);
    const b2 = r.start('b2', 'batch', false);
    await clock.settle();
    await expect(r.start('b3', 'batch', false)).rejects.toBeInstanceOf(CandleBudgetSpent);
    r.release('b1');
    r.release('b2');
    await Promise.all([b1, b2]);
    // A screen's requests count against batch work's share too: batch runs while the token is otherwise quiet.
    await clock.elapse(60_000);
    const screens = ['i1', 'i2'].map((name) => r.start(name, 'interactive'));
    await clock.settle();
    await expect(r.start('b4', 'batch', false)).rejects.toBeInstanceOf(CandleBudgetSpent);
    for (const name of ['i1', 'i2']) r.release(name);
    await Promise.all(screens);
    expect(r.order).toEqual(['b1', 'b2', 'i1', 'i2']);
  });

  it('holds background work back while a screen waits for a place', async () => {
    const clock = handClock({ perMinute: 2, reserve: 1, inFlight: 4 });
    const r = requests(clock.budget);
    for (const name of ['i1', 'i2', 'i3']) void r.start(name, 'interactive');
    await clock.settle();
    expect(r.order).toEqual(['i1', 'i2']);
    // i3 waits for the next window and marks the token: the rebuild queued behind it does not jump ahead.
    void r.start('r1', 'rebuild');
    await clock.settle();
    await clock.elapse(60_000);
    expect(r.order).toEqual(['i1', 'i2', 'i3']);
  });
});
