import { describe, expect, it } from 'vitest';
import { pageCount, pageWindow } from './page-window';

describe('pageWindow', () => {
  it('lists every page when there are few', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 4)).toEqual([1, 2, 3, 4]);
  });

  it('keeps the first, the last and the neighbours of the current page, with gaps between', () => {
    expect(pageWindow(1, 124)).toEqual([1, 2, 'gap', 124]);
    expect(pageWindow(60, 124)).toEqual([1, 'gap', 59, 60, 61, 'gap', 124]);
    expect(pageWindow(124, 124)).toEqual([1, 'gap', 123, 124]);
  });

  it('shows a single hidden page instead of a gap', () => {
    expect(pageWindow(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageWindow(5, 9)).toEqual([1, 'gap', 4, 5, 6, 'gap', 9]);
  });

  it('clamps a page outside the range', () => {
    expect(pageWindow(9, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(0, 0)).toEqual([1]);
  });
});

describe('pageCount', () => {
  it('defaults to 1 when the server gives none (docs/PRODUCT.md, Constants)', () => {
    expect(pageCount(undefined)).toBe(1);
    expect(pageCount(null)).toBe(1);
    expect(pageCount(0)).toBe(1);
    expect(pageCount(7)).toBe(7);
  });
});
