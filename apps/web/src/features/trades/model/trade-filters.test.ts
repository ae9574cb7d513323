import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  EMPTY_VIEW,
  invertedRange,
  nextSort,
  viewFromParams,
  viewToParams,
  viewToQuery,
} from './trade-filters';

describe('trade list view in the URL', () => {
  it('keeps the playbook filters in the URL and sends them as playbookId and playbookReview', () => {
    const view = { ...EMPTY_VIEW, playbookId: 'pb-1', playbookReview: 'broke' as const };
    const params = viewToParams(view);
    expect(params.toString()).toBe('playbookId=pb-1&playbookReview=broke');
    expect(viewFromParams(params)).toEqual(view);
    expect(viewFromParams(new URLSearchParams('playbookReview=maybe')).playbookReview).toBe('');
    expect(viewToQuery(view)).toMatchObject({ playbookId: 'pb-1', playbookReview: 'broke' });
    expect(activeFilterCount(view)).toBe(2);
  });

  it('reads a behaviour pattern from the URL (the Patterns screen links so) and sends it as pattern', () => {
    const view = viewFromParams(new URLSearchParams('pattern=revenge_trading&from=2026-11-01'));
    expect(view).toEqual({ ...EMPTY_VIEW, pattern: 'revenge_trading', from: '2026-11-01' });
    expect(viewToParams(view).get('pattern')).toBe('revenge_trading');
    expect(viewToQuery(view)).toMatchObject({ pattern: 'revenge_trading' });
    expect(activeFilterCount(view)).toBe(2);
    expect(viewFromParams(new URLSearchParams('pattern=gambling')).pattern).toBe('');
  });

  it('round-trips a view through the URL, keeping only what differs from the default', () => {
    const view = {
      ...EMPTY_VIEW,
      from: '2025-10-01',
      instrument: 'GBP_USD',
      tags: ['a', 'b'],
      hasNote: 'true' as const,
      sort: 'realizedPL' as const,
      order: 'asc' as const,
    };
    const params = viewToParams(view);
    expect(params.toString()).toBe(
      'from=2025-10-01&instrument=GBP_USD&tag=a&tag=b&hasNote=true&sort=realizedPL&order=asc',
    );
    expect(viewFromParams(params)).toEqual(view);
    expect(viewToParams(EMPTY_VIEW).toString()).toBe('');
  });

  it('ignores values the list does not know, so a hand-edited link still opens', () => {
    const view = viewFromParams(
      new URLSearchParams('side=up&outcome=maybe&sort=size&order=sideways&from=2025-13-45&hasNote=yes&tag=&state=OPEN'),
    );
    expect(view).toEqual({ ...EMPTY_VIEW, state: 'OPEN' });
  });

  it('names instruments as OANDA does and sorts a new column largest first', () => {
    expect(viewFromParams(new URLSearchParams('instrument=eur/usd')).instrument).toBe('EUR_USD');
    expect(viewFromParams(new URLSearchParams('sort=closeTime')).order).toBe('desc');
    expect(nextSort({ sort: 'openTime', order: 'desc' }, 'realizedPL')).toEqual({ sort: 'realizedPL', order: 'desc' });
    expect(nextSort({ sort: 'realizedPL', order: 'desc' }, 'realizedPL')).toEqual({ sort: 'realizedPL', order: 'asc' });
    expect(nextSort({ sort: 'openTime', order: 'desc' }, 'instrument')).toEqual({ sort: 'instrument', order: 'asc' });
  });

  it("asks the server for the trader's whole local days", () => {
    const query = viewToQuery({ ...EMPTY_VIEW, from: '2025-10-01', to: '2025-10-31', q: 'fomo', tags: ['t1'] });
    expect(query).toEqual({
      sort: 'openTime',
      order: 'desc',
      from: new Date(2025, 9, 1, 0, 0, 0, 0).toISOString(),
      to: new Date(2025, 9, 31, 23, 59, 59, 999).toISOString(),
      q: 'fomo',
      tag: ['t1'],
    });
  });

  it('counts the filters in use and spots an inverted range', () => {
    expect(activeFilterCount(EMPTY_VIEW)).toBe(0);
    expect(activeFilterCount({ ...EMPTY_VIEW, sort: 'instrument', side: 'long', tags: ['a', 'b'] })).toBe(2);
    expect(invertedRange({ from: '2025-10-02', to: '2025-10-01' })).toBe(true);
    expect(invertedRange({ from: '2025-10-01', to: '2025-10-01' })).toBe(false);
    expect(invertedRange({ from: '2025-10-02', to: '' })).toBe(false);
  });
});
