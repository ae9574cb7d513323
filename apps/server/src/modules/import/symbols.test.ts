import { describe, expect, it } from 'vitest';
import { contractSizeOf, instrumentOf, isCurrencyPair } from './symbols';

describe('instrumentOf', () => {
  it.each([
    ['EURUSD.m', 'EUR_USD'],
    ['eurjpy_', 'EUR_JPY'],
    ['xauusd.', 'XAU_USD'],
    ['XAUUSD.x', 'XAU_USD'],
    ['EURUSD.Z', 'EUR_USD'],
    ['eurusd', 'EUR_USD'],
    ['GBPUSDm', 'GBP_USD'],
    ['#USDJPY', 'USD_JPY'],
    ['GOLD', 'XAU_USD'],
    ['gold.m', 'XAU_USD'],
    ['SILVER', 'XAG_USD'],
    ['XAGUSD', 'XAG_USD'],
    ['USDCNH', 'USD_CNH'],
  ])('%s → %s', (symbol, instrument) => {
    expect(instrumentOf(symbol)).toBe(instrument);
  });

  it.each(['US30', 'NAS100.cash', 'ukousd', 'BTCUSD', 'GER40', 'SPX500', 'XBRUSD', 'EUR', '1EURUSD'])(
    'keeps %s as printed',
    (symbol) => {
      expect(instrumentOf(symbol)).toBe(symbol);
    },
  );

  it('knows currency codes, not look-alikes', () => {
    expect(isCurrencyPair('EUR', 'USD')).toBe(true);
    expect(isCurrencyPair('XAU', 'USD')).toBe(true);
    expect(isCurrencyPair('USD', 'XAU')).toBe(false);
    expect(isCurrencyPair('UKO', 'USD')).toBe(false);
    expect(isCurrencyPair('USD', 'USD')).toBe(false);
  });
});

describe('contractSizeOf', () => {
  it.each([
    ['EURUSD.m', { size: '100000', known: true }],
    ['eurjpy_', { size: '100000', known: true }],
    ['xauusd.', { size: '100', known: true }],
    ['GOLD', { size: '100', known: true }],
    ['XAGUSD', { size: '5000', known: true }],
    ['US30', { size: '1', known: false }],
    ['BTCUSD', { size: '1', known: false }],
    ['XPTUSD', { size: '1', known: false }],
  ])('%s', (symbol, expected) => {
    expect(contractSizeOf(symbol, instrumentOf(symbol))).toEqual(expected);
    expect(contractSizeOf(symbol)).toEqual(expected);
  });
});
