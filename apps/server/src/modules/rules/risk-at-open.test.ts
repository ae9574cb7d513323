import { describe, expect, it } from 'vitest';
import type { DailyRates } from '../../domain/currency-totals';
import { riskAtOpenOf } from './rules.service';

/** riskAtOpen (docs/rules.md, API): units × |entry − initial stop| in the account currency. */
const trade = (instrument: string, initialUnits: string, price: string, stop: string | null) => ({
  tradeId: '1',
  instrument,
  price,
  initialUnits,
  realizedPL: '0',
  financing: '0',
  openTime: '2026-11-02T08:00:00Z',
  closeTime: null,
  averageClosePrice: null,
  initialStopLossPrice: stop,
});

describe('riskAtOpenOf', () => {
  it('is the distance times the units in the quote currency', async () => {
    expect(await riskAtOpenOf(trade('EUR_USD', '100000', '1.08000', '1.07500'), 'USD')).toBe('500.00000');
    expect(await riskAtOpenOf(trade('EUR_USD', '-20000', '1.08000', '1.08250'), 'USD')).toBe('50.00000');
  });

  it('is converted at the stop price when the account currency is the base', async () => {
    // 100,000 × 0.500 JPY = 50,000 JPY, at 149.500 JPY a dollar: 334.4482 USD.
    expect(await riskAtOpenOf(trade('USD_JPY', '100000', '150.000', '149.500'), 'USD')).toBe('334.4482');
  });

  it('is null without a stop, with a stop on the profit side, or for a cross of other currencies', async () => {
    expect(await riskAtOpenOf(trade('EUR_USD', '100000', '1.08000', null), 'USD')).toBeNull();
    expect(await riskAtOpenOf(trade('EUR_USD', '100000', '1.08000', '1.09000'), 'USD')).toBeNull();
    expect(await riskAtOpenOf(trade('EUR_GBP', '100000', '0.87000', '0.86000'), 'USD')).toBeNull();
  });

  it('is converted at the daily rate of the open day for a cross, and not judged without one', async () => {
    const asked: string[] = [];
    const rates: DailyRates = {
      rate: (from, to, day) => {
        asked.push(`${from}>${to} ${day}`);
        return Promise.resolve(from === 'GBP' && to === 'USD' ? '1.2653' : null);
      },
    };
    // 100,000 × 0.01000 GBP = 1,000 GBP, at 1.2653 USD a pound on 11-02: 1,265.30 USD.
    expect(await riskAtOpenOf(trade('EUR_GBP', '100000', '0.87000', '0.86000'), 'USD', rates)).toBe('1265.3000');
    expect(asked).toEqual(['GBP>USD 2026-11-02']);
    expect(await riskAtOpenOf(trade('EUR_GBP', '100000', '0.87000', '0.86000'), 'CHF', rates)).toBeNull();
  });
});
