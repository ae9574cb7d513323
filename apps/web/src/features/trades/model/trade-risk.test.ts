import { describe, expect, it } from 'vitest';
import type { TradeListItem } from '@pipsense/contract';
import { trade } from '../test-fixtures';
import { formatR } from '../../../components/data/format';
import { tradeRisk } from './trade-risk';

const row = (overrides: Partial<TradeListItem>): TradeListItem => ({
  ...trade(),
  note: '',
  rating: null,
  tags: [],
  initialRisk: null,
  rMultiple: null,
  mae: null,
  mfe: null,
  excursion: null,
  ruleBreaks: [],
  playbookId: null,
  reviewed: false,
  followedAll: null,
  attachmentCount: 0,
  ...overrides,
});
const values = (item: TradeListItem) => Object.fromEntries(tradeRisk(item).map((d) => [d.label, d.value]));

describe('risk in R', () => {
  it('formats R with its sign and two decimals', () => {
    expect([1.5, -1, 0, -0.004, null].map(formatR)).toEqual(['+1.50R', '-1.00R', '0.00R', '0.00R', '-']);
  });

  it('says no initial stop where the trade never had one, and keeps the excursions in price and pips', () => {
    expect(
      values(
        row({
          excursion: 'ready',
          mae: { price: '1.17100', pips: 15.4, r: null },
          mfe: { price: '1.1745', pips: 19.6, r: null },
        }),
      ),
    ).toEqual({
      'Initial stop': 'no initial stop',
      Risk: 'no initial stop',
      'R-multiple': 'no initial stop',
      'MAE (worst)': '1.17100 · 15.4 pips · no initial stop',
      'MFE (best)': '1.17450 · 19.6 pips · no initial stop',
    });
  });

  it('says pending until the candles are read and not available where they cannot be', () => {
    const risk = { stopLossPrice: '1.17000', distance: '0.00254', pips: 25.4 };
    expect(values(row({ initialRisk: risk, rMultiple: -1, excursion: 'pending' }))).toMatchObject({
      'R-multiple': '-1.00R',
      'MAE (worst)': 'pending',
      'MFE (best)': 'pending',
    });
    expect(values(row({ initialRisk: risk, excursion: 'unavailable' }))['MAE (worst)']).toBe('not available');
    expect(values(row({ state: 'OPEN', closeTime: null }))['MFE (best)']).toBe('after the trade closes');
  });
});
