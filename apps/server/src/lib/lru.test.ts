import { describe, expect, it } from 'vitest';
import { createLru, createTextLru } from './lru';

describe('createLru', () => {
  it('drops the least recently used entry past its entry bound', () => {
    const lru = createLru<number>({ maxEntries: 2 });
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect([lru.get('a'), lru.get('b'), lru.get('c'), lru.size]).toEqual([1, undefined, 3, 2]);
    lru.delete('a');
    expect([lru.get('a'), lru.size]).toEqual([undefined, 1]);
  });

  it('keeps text within its character bound, and never a value larger than the bound', () => {
    const lru = createTextLru({ maxEntries: 10, maxChars: 12 });
    lru.set('k1', 'xxxx');
    lru.set('k2', 'yyyy');
    lru.set('k3', 'zzzz');
    expect([lru.get('k1'), lru.get('k2'), lru.get('k3')]).toEqual([undefined, 'yyyy', 'zzzz']);
    lru.set('k4', 'a value longer than the bound');
    expect([lru.get('k4'), lru.size]).toEqual([undefined, 2]);
    lru.set('k2', 'y');
    expect(lru.get('k2')).toBe('y');
  });
});
