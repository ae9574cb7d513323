import { describe, expect, it } from 'vitest';
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
  it('is the distance times the units in the quote currency', () => {
    expect(riskAtOpenOf(trade('EUR_USD', '100000', '1.08000', '1.07500'), 'USD')).toBe('500.00000');
    expect(riskAtOpenOf(trade('EUR_USD', '-20000', '1.08000', '1.08250'), 'USD')).toBe('50.00000');
  });

  it('is converted at the stop price when the account currency is the base', () => {
    // 100,000 × 0.500 JPY = 50,000 JPY, at 149.500 JPY a dollar: 334.4482 USD.
    expect(riskAtOpenOf(trade('USD_JPY', '100000', '150.000', '149.500'), 'USD')).toBe('334.4482');
  });

  it('is null without a stop, with a stop on the profit side, or for a cross of other currencies', () => {
    expect(riskAtOpenOf(trade('EUR_USD', '100000', '1.08000', null), 'USD')).toBeNull();
    expect(riskAtOpenOf(trade('EUR_USD', '100000', '1.08000', '1.09000'), 'USD')).toBeNull();
    expect(riskAtOpenOf(trade('EUR_GBP', '100000', '0.87000', '0.86000'), 'USD')).toBeNull();
  });
});
