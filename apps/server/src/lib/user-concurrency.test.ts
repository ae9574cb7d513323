import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { createUserConcurrency } from './user-concurrency';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('per-user concurrency', () => {
  it('runs N at a time, queues M in order, refuses the next with 429 TOO_MANY_RUNNING; other users are apart', async () => {
    const limit = createUserConcurrency({ running: 2, queued: 1, what: 'candle request' });
    const g = gate();
    const order: string[] = [];
    const work = (name: string) => limit.run('u1', async () => (order.push(name), await g.opened, name));
    const first = [work('a'), work('b'), work('c')];
    await tick();
    expect(order).toEqual(['a', 'b']);
    expect(limit.load('u1')).toEqual({ running: 2, waiting: 1 });

    const refused = await limit.run('u1', async () => 'd').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      status: 429,
      code: 'TOO_MANY_RUNNING',
      message: 'You already have 3 candle requests running or waiting. Wait for them to finish, then try again.',
    });
    expect(await limit.run('u2', async () => 'other user')).toBe('other user');

    g.open();
    expect(await Promise.all(first)).toEqual(['a', 'b', 'c']);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(limit.load('u1')).toEqual({ running: 0, waiting: 0 });
  });

  it('gives the place back when the work fails, to the next in line first', async () => {
    const limit = createUserConcurrency({ running: 1, queued: 1, what: 'Overview computation' });
    const g = gate();
    const failing = limit.run('u', async () => {
      await g.opened;
      throw new Error('boom');
    });
    const g2 = gate();
    const next = limit.run('u', async () => (await g2.opened, 'next'));
    await tick();
    expect(limit.load('u')).toEqual({ running: 1, waiting: 1 });
    // The place freed by the failure goes to the one waiting.
    g.open();
    await expect(failing).rejects.toThrow('boom');
    expect(limit.load('u')).toEqual({ running: 1, waiting: 0 });
    g2.open();
    expect(await next).toBe('next');
    expect(limit.load('u')).toEqual({ running: 0, waiting: 0 });
  });
});
