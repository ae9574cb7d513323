import { describe, expect, it } from 'vitest';
import { noDailyRates, prepareConversion, ratesFromCloses } from '../../../domain/currency-totals';
import { closedAmounts, performanceTotal, summarisePerformance, type ClosedTradeFigure } from './performance';

/* The assistant's performance totals over a USD and a JPY account (docs/decisions/024-currencies-never-mixed.md). */

const currencies = { usd: 'USD', jpy: 'JPY' };
const closed: ClosedTradeFigure[] = [
  {
    accountId: 'usd',
    tradeId: '1',
    instrument: 'EUR_USD',
    realizedPL: '1200.5000',
    financing: '-0.5000',
    closeTime: '2025-03-14T15:00:00Z',
  },
  {
    accountId: 'jpy',
    tradeId: '2',
    instrument: 'USD_JPY',
    realizedPL: '-45000.0000',
    financing: '0.0000',
    closeTime: '2025-03-14T16:00:00Z',
  },
  {
    accountId: 'jpy',
    tradeId: '3',
    instrument: 'USD_JPY',
    realizedPL: '-337286.6300',
    financing: '-150.0000',
    closeTime: '2025-03-17T09:00:00Z',
  },
];
const rates = ratesFromCloses({
  close: (instrument, day) =>
    Promise.resolve(
      instrument === 'USD_JPY' ? ({ '2025-03-14': '150.000', '2025-03-17': '149.250' }[day] ?? null) : null,
    ),
});

describe('get_performance totals', () => {
  it('keeps each currency apart and lists the total without rates', async () => {
    const conversion = await prepareConversion('USD', closedAmounts(closed, currencies), noDailyRates);
    const result = summarisePerformance(closed, currencies);
    expect(result.byCurrency.map((c) => [c.currency, c.netPL])).toEqual([
      ['USD', '1200.5000'],
      ['JPY', '-382286.6300'],
    ]);
    expect(performanceTotal(closed, currencies, conversion).netPL).toEqual({
      mode: 'listed',
      byCurrency: [
        { currency: 'JPY', amount: '-382286.6300' },
        { currency: 'USD', amount: '1200.5000' },
      ],
    });
  });

  it('converts the total at each close day’s rate when every rate is known', async () => {
    const conversion = await prepareConversion('USD', closedAmounts(closed, currencies), rates);
    const total = performanceTotal(closed, currencies, conversion);
    expect(total.netPL).toMatchObject({ mode: 'converted', currency: 'USD', amount: '-1359.3769' });
    // With financing: 1,200.00 − 300.00 − 337,436.63 / 149.25 (= 2,260.88194…) = −1,360.8819.
    expect(total.netAfterFinancing).toMatchObject({ mode: 'converted', amount: '-1360.8819' });
  });
});
