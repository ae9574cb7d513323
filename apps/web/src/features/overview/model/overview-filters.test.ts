import { describe, expect, it } from 'vitest';
import { metricsParams, NO_FILTERS, rangeBounds, rangeProblem, readFilters, writeFilters } from './overview-filters';

// A Thursday afternoon in the browser's zone: the presets count from local midnights.
const NOW = new Date(2025, 9, 16, 15, 30);
const local = (y: number, m: number, d: number) => new Date(y, m, d).toISOString();

describe('overview filters', () => {
  it('reads the URL, ignoring what is not a filter value', () => {
    expect(
      readFilters(new URLSearchParams('range=this-month&account=101-1&instrument=EUR_USD&tag=a&tag=b&tag=a')),
    ).toEqual({
      ...NO_FILTERS,
      range: 'this-month',
      accountId: '101-1',
      instrument: 'EUR_USD',
      tags: ['a', 'b'],
    });
    expect(readFilters(new URLSearchParams('range=forever&from=2025-13-40'))).toEqual(NO_FILTERS);
    expect(readFilters(new URLSearchParams('range=this-week&from=2025-10-01'))).toMatchObject({
      range: 'custom',
      from: '2025-10-01',
      to: '',
    });
  });

  it('writes only what is set, and keeps other parameters', () => {
    const written = writeFilters(
      { ...NO_FILTERS, range: 'custom', from: '2025-10-01', to: '2025-10-31', tags: ['a', 'b'] },
      new URLSearchParams('other=1&range=all'),
    );
    expect(written.toString()).toBe('other=1&from=2025-10-01&to=2025-10-31&tag=a&tag=b');
    expect(writeFilters(NO_FILTERS).toString()).toBe('');
    expect(writeFilters({ ...NO_FILTERS, range: 'year-to-date' }).toString()).toBe('range=year-to-date');
  });

  it('turns presets into local-midnight starts', () => {
    expect(rangeBounds({ ...NO_FILTERS, range: 'this-week' }, NOW)).toEqual({ from: local(2025, 9, 13) });
    expect(rangeBounds({ ...NO_FILTERS, range: 'this-month' }, NOW)).toEqual({ from: local(2025, 9, 1) });
    expect(rangeBounds({ ...NO_FILTERS, range: 'last-30-days' }, NOW)).toEqual({ from: local(2025, 8, 17) });
    expect(rangeBounds({ ...NO_FILTERS, range: 'year-to-date' }, NOW)).toEqual({ from: local(2025, 0, 1) });
    expect(rangeBounds(NO_FILTERS, NOW)).toEqual({});
    // A Sunday still belongs to the week that began on Monday.
    expect(rangeBounds({ ...NO_FILTERS, range: 'this-week' }, new Date(2025, 9, 19, 8))).toEqual({
      from: local(2025, 9, 13),
    });
  });

  it('sends a custom range as whole local days, and the other filters as the API names them', () => {
    expect(
      metricsParams(
        {
          range: 'custom',
          from: '2025-10-01',
          to: '2025-10-31',
          accountId: '101-1',
          instrument: 'EUR_USD',
          tags: ['a', 'b'],
          ruleBreak: 'true',
          playbookId: 'pb-1',
          playbookReview: 'followed',
        },
        NOW,
      ),
    ).toEqual([
      ['from', local(2025, 9, 1)],
      ['to', new Date(2025, 9, 31, 23, 59, 59, 999).toISOString()],
      ['accountId', '101-1'],
      ['instrument', 'EUR_USD'],
      ['tag', 'a'],
      ['tag', 'b'],
      ['ruleBreak', 'true'],
      ['playbookId', 'pb-1'],
      ['playbookReview', 'followed'],
    ]);
  });

  it('catches an inverted custom range', () => {
    expect(rangeProblem({ ...NO_FILTERS, range: 'custom', from: '2025-10-31', to: '2025-10-01' })).toBe(
      'The start date must not be after the end date.',
    );
    expect(rangeProblem({ ...NO_FILTERS, range: 'custom', from: '2025-10-01', to: '2025-10-01' })).toBeNull();
  });
});
