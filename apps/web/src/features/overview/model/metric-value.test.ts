import { describe, expect, it } from 'vitest';
import { metricShape } from './metric-value';

describe('metricShape', () => {
  it('takes text and numbers as plain values', () => {
    expect(metricShape('EUR/USD')).toEqual({ kind: 'plain', text: 'EUR/USD' });
    expect(metricShape(0)).toEqual({ kind: 'plain', text: '0' });
    expect(metricShape(1455)).toEqual({ kind: 'plain', text: (1455).toLocaleString() });
  });

  it("treats null, blank text, '-', NaN, [] and {} as empty", () => {
    for (const value of [null, undefined, '', '   ', '-', Number.NaN, [], {}])
      expect(metricShape(value)).toEqual({ kind: 'empty' });
  });

  it('lists an array, dropping blank items, and is empty when nothing is left', () => {
    expect(metricShape(['Set a stop', '', 'Trade London'])).toEqual({
      kind: 'list',
      items: ['Set a stop', 'Trade London'],
    });
    expect(metricShape(['', '-'])).toEqual({ kind: 'empty' });
  });

  it("keeps every key of a key/value object, showing '-' for a missing value", () => {
    expect(metricShape({ 'Net P/L': '95.00 USD', 'Sharpe Ratio': '-', Note: '' })).toEqual({
      kind: 'pairs',
      pairs: [
        ['Net P/L', '95.00 USD'],
        ['Sharpe Ratio', '-'],
        ['Note', '-'],
      ],
    });
  });

  it('groups an object of objects, keeping plain entries beside the groups', () => {
    expect(
      metricShape({
        EUR_USD: { Trades: '5', 'Win Rate': '75.0%' },
        USD_JPY: {},
        Total: '7',
      }),
    ).toEqual({
      kind: 'nested',
      pairs: [['Total', '7']],
      groups: [
        {
          label: 'EUR_USD',
          pairs: [
            ['Trades', '5'],
            ['Win Rate', '75.0%'],
          ],
        },
        { label: 'USD_JPY', pairs: [] },
      ],
    });
  });
});
