import { describe, expect, it } from 'vitest';
import {
  atPrecisionOf,
  contractSizesWith,
  serverTimeToUtc,
  tradeIds,
  tradeInputs,
  type PlannedTrade,
} from './import-plan';

describe('the import plan', () => {
  it('turns broker server time into UTC at the offset, across a day boundary', () => {
    expect(serverTimeToUtc('2024-03-01T01:30:00', '+02:00')).toBe('2024-02-29T23:30:00.000000000Z');
    expect(serverTimeToUtc('2024-03-01T22:00:00', '-05:00')).toBe('2024-03-02T03:00:00.000000000Z');
    expect(serverTimeToUtc('2024-03-01T10:00:00', '+00:00')).toBe('2024-03-01T10:00:00.000000000Z');
  });

  it('adds the open time to an id only where one id covers several trades (netting reversal)', () => {
    expect(
      tradeIds([
        { ticket: '7', openTime: '2024-01-01T10:00:00.000000000Z' },
        { ticket: '8', openTime: '2024-01-01T11:00:00.000000000Z' },
        { ticket: '7', openTime: '2024-01-01T12:00:00.000000000Z' },
      ]),
    ).toEqual(['7@2024-01-01T10:00:00.000000000Z', '8', '7@2024-01-01T12:00:00.000000000Z']);
  });

  it("gives units as lots × contract size, negative for a sell, with the trader's corrections first", () => {
    const trade = (symbol: string, instrument: string, side: 'buy' | 'sell', lots: string): PlannedTrade => ({
      row: 1,
      ticket: symbol,
      symbol,
      instrument,
      side,
      lots,
      openTime: 'o',
      closeTime: 'c',
      price: '1',
      averageClosePrice: '1',
      stopLossPrice: null,
      takeProfitPrice: null,
      commission: '0',
      swap: '0',
      realizedPL: '0',
    });
    const sizes = contractSizesWith(new Map([['US30.CASH', '10']]));
    const units = tradeInputs(
      [
        trade('EURUSD.m', 'EUR_USD', 'buy', '0.07'),
        trade('xauusd.', 'XAU_USD', 'sell', '1.15'),
        trade('US30.cash', 'US30.cash', 'sell', '2.5'),
      ],
      sizes,
    ).map((t) => t.units);
    expect(units).toEqual(['7000', '-115', '-25']);
  });

  it('shows a report total at the computed precision only when nothing is lost', () => {
    expect(atPrecisionOf('-208.150000', '-208.15')).toBe('-208.15');
    expect(atPrecisionOf('-208.155000', '-208.15')).toBe('-208.155000');
    expect(atPrecisionOf('331.82', '331.82')).toBe('331.82');
    expect(atPrecisionOf(null, '1')).toBeNull();
  });
});
