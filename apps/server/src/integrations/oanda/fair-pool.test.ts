import { describe, expect, it } from 'vitest';
import { createFairPool } from './fair-pool';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('fair pool', () => {
  it("gives a freed slot to the waiting caller with the fewest in flight, in each caller's order", async () => {
    const pool = createFairPool(2);
    const started: string[] = [];
    const releases = new Map<string, () => void>();
    const take = (key: string, name: string) =>
      void pool.acquire(key).then((release) => {
        started.push(name);
        releases.set(name, release);
      });
    for (const n of [1, 2, 3, 4, 5]) take('A', `A${n}`);
    await tick();
    take('B', 'B1');
    take('B', 'B2');
    await tick();
    expect(started).toEqual(['A1', 'A2']);
    expect(pool.stats()).toEqual({ inFlight: 2, waiting: 5 });

    releases.get('A1')!();
    await tick();
    expect(started.at(-1)).toBe('B1'); // B has none in flight
    releases.get('A2')!();
    await tick();
    expect(started.at(-1)).toBe('A3'); // A has none in flight now, B one
    releases.get('A2')!(); // a second call is ignored
    expect(pool.stats()).toEqual({ inFlight: 2, waiting: 3 });
    releases.get('B1')!();
    await tick();
    expect(started.at(-1)).toBe('B2');
    for (const name of ['A3', 'B2']) releases.get(name)!();
    await tick();
    expect(started).toEqual(['A1', 'A2', 'B1', 'A3', 'B2', 'A4', 'A5']);
  });

  it('refuses a pool without slots', () => {
    expect(() => createFairPool(0)).toThrow('at least 1 slot');
  });
});
