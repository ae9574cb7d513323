// The candle request budget of two instances: shared through Redis when it is configured, each its own otherwise.
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { CandleBudgetSpent, createCandleBudget } from './candle-budget';
import { memoryWindowCounter, redisWindowCounter, type WindowCounter } from './window-counter';

const redisUrl = process.env.PIPSENSE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const reachable = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(redisUrl);
  const socket = net.connect({ host: hostname, port: Number(port || 6379), timeout: 500 });
  socket.on('connect', () => (socket.destroy(), resolve(true)));
  socket.on('error', () => resolve(false));
  socket.on('timeout', () => (socket.destroy(), resolve(false)));
});

const TOKEN = 'one OANDA token used on two instances';
const counters: WindowCounter[] = [];
afterEach(async () => {
  for (const c of counters.splice(0)) await c.close();
});

/** Two instances' budgets (batch work's share: 3 a minute) over the counters given. */
function twoInstances(a: WindowCounter, b: WindowCounter) {
  counters.push(a, b);
  const budget = (counter: WindowCounter) => createCandleBudget({ counter, perMinute: 10, batchPerMinute: 3 });
  return [budget(a), budget(b)] as const;
}

/** How many of `n` batch requests the budget lets through now (the others refused, not waiting). */
async function batchTaken(budget: ReturnType<typeof createCandleBudget>, n: number): Promise<number> {
  let taken = 0;
  for (let i = 0; i < n; i += 1)
    try {
      await budget.run(TOKEN, 'batch', async () => undefined, { wait: false });
      taken += 1;
    } catch (error) {
      if (!(error instanceof CandleBudgetSpent)) throw error;
    }
  return taken;
}

describe.skipIf(!reachable)('the candle budget with Redis', () => {
  it('is one budget for the token across instances', async () => {
    const prefix = `pipsense-candles-test-${randomUUID()}-`;
    const [a, b] = twoInstances(redisWindowCounter(redisUrl, { prefix }), redisWindowCounter(redisUrl, { prefix }));
    expect(await batchTaken(a, 2)).toBe(2);
    // The other instance finds 2 of the 3 places taken.
    expect(await batchTaken(b, 5)).toBe(1);
    expect(await batchTaken(a, 1)).toBe(0);
    // A screen's requests still go: batch work's share is not the token's whole budget.
    await expect(b.run(TOKEN, 'interactive', async () => 'drawn')).resolves.toBe('drawn');
  });

  it('tells every instance that a screen is waiting', async () => {
    const prefix = `pipsense-candles-test-${randomUUID()}-`;
    const a = redisWindowCounter(redisUrl, { prefix });
    const b = redisWindowCounter(redisUrl, { prefix });
    counters.push(a, b);
    expect(await b.marked('token')).toBe(false);
    await a.mark('token', 5_000);
    expect(await b.marked('token')).toBe(true);
  });
});

describe('the candle budget without Redis', () => {
  it('is each instance its own', async () => {
    const now = () => new Date('2025-10-06T12:00:00Z');
    const [a, b] = twoInstances(memoryWindowCounter(now), memoryWindowCounter(now));
    expect(await batchTaken(a, 5)).toBe(3);
    expect(await batchTaken(b, 5)).toBe(3);
  });
});
