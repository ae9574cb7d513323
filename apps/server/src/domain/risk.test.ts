import { describe, expect, it } from 'vitest';
import { initialRiskOf, maeOf, mfeCapturePct, mfeOf, rMultipleOf, stopMovedAway, type RiskFacts } from './risk';

// Values worked out by hand (METRICS.md, "Risk in R").
const longEur: RiskFacts = {
  instrument: 'EUR_USD',
  initialUnits: '1000',
  price: '1.10000',
  averageClosePrice: '1.10300',
  initialStopLossPrice: '1.09800',
  maePrice: '1.09900',
  mfePrice: '1.10450',
};
const shortJpy: RiskFacts = {
  instrument: 'USD_JPY',
  initialUnits: '-5000',
  price: '150.000',
  averageClosePrice: '149.250',
  initialStopLossPrice: '150.500',
  maePrice: '150.200',
  mfePrice: '149.100',
};

describe('risk in R', () => {
  it('a long EUR/USD: 20 pips of risk, +1.5R, MAE 10 pips (−0.5R), MFE 45 pips (+2.25R)', () => {
    expect(initialRiskOf(longEur)).toEqual({ stopLossPrice: '1.09800', distance: '0.00200', pips: 20 });
    expect(rMultipleOf(longEur)).toBe(1.5);
    expect(maeOf(longEur)).toEqual({ price: '1.09900', pips: 10, r: -0.5 });
    expect(mfeOf(longEur)).toEqual({ price: '1.10450', pips: 45, r: 2.25 });
  });

  it('a short USD/JPY: 50 pips of risk, +1.5R, MAE 20 pips (−0.4R), MFE 90 pips (+1.8R)', () => {
    expect(initialRiskOf(shortJpy)).toEqual({ stopLossPrice: '150.500', distance: '0.500', pips: 50 });
    expect(rMultipleOf(shortJpy)).toBe(1.5);
    expect(maeOf(shortJpy)).toEqual({ price: '150.200', pips: 20, r: -0.4 });
    expect(mfeOf(shortJpy)).toEqual({ price: '149.100', pips: 90, r: 1.8 });
  });

  it('a trade stopped out at its initial stop is −1R; a short stopped out too', () => {
    expect(rMultipleOf({ ...longEur, averageClosePrice: '1.09800' })).toBe(-1);
    expect(rMultipleOf({ ...shortJpy, averageClosePrice: '150.500' })).toBe(-1);
  });

  it('a first stop on the profit side of the entry risks nothing: no initial risk, no R', () => {
    expect(initialRiskOf({ ...longEur, initialStopLossPrice: '1.10010' })).toBeNull();
    expect(rMultipleOf({ ...longEur, initialStopLossPrice: '1.10010' })).toBeNull();
    expect(initialRiskOf({ ...shortJpy, initialStopLossPrice: '149.990' })).toBeNull();
    expect(mfeOf({ ...shortJpy, initialStopLossPrice: '149.990' })).toEqual({ price: '149.100', pips: 90, r: null });
  });

  it('no initial stop, a stop at the entry price, or an open trade: no R', () => {
    expect(initialRiskOf({ ...longEur, initialStopLossPrice: null })).toBeNull();
    expect(rMultipleOf({ ...longEur, initialStopLossPrice: null })).toBeNull();
    expect(initialRiskOf({ ...longEur, initialStopLossPrice: '1.10000' })).toBeNull();
    expect(rMultipleOf({ ...longEur, averageClosePrice: null })).toBeNull();
    // Excursions are still known in price and pips, without R.
    expect(maeOf({ ...longEur, initialStopLossPrice: null })).toEqual({ price: '1.09900', pips: 10, r: null });
  });

  it('an excursion that never went that way is 0; unknown excursions are null', () => {
    expect(maeOf({ ...longEur, maePrice: '1.10000' })).toEqual({ price: '1.10000', pips: 0, r: 0 });
    expect(mfeOf({ ...longEur, mfePrice: '1.09950' })).toEqual({ price: '1.09950', pips: 0, r: 0 });
    expect(maeOf({ ...longEur, maePrice: null })).toBeNull();
  });
});

describe('mfeCapturePct', () => {
  it('is the exit’s move over the best move, in the trade’s direction', () => {
    // long from 1.1000, best 1.1050 (50 pips), out at 1.1020 (20 pips): 20 / 50 = 40 %
    expect(mfeCapturePct(1.1, 1.102, 1.105, true)).toBeCloseTo(40, 9);
    expect(mfeCapturePct(1.1, 1.102, 1.11, true)).toBeCloseTo(20, 9);
    // short from 150.00, best 149.00 (100 pips), out at 149.75 (25 pips): 25 %
    expect(mfeCapturePct(150, 149.75, 149, false)).toBeCloseTo(25, 9);
    expect(mfeCapturePct(150, 149, 145, false)).toBeCloseTo(20, 9);
    // long closed 10 pips under its entry after being 50 pips up: −10 / 50 = −20 %
    expect(mfeCapturePct(1.1, 1.099, 1.105, true)).toBeCloseTo(-20, 9);
  });
  it('has no share when the price never moved in the trade’s favour', () => {
    expect(mfeCapturePct(1.1, 1.09, 1.1, true)).toBeNull();
    expect(mfeCapturePct(1.1, 1.102, 1.1, true)).toBeNull();
  });
});

describe('stopMovedAway', () => {
  it('is a replacement farther from the entry on the losing side', () => {
    expect(stopMovedAway(1.1, true, [1.095, 1.09])).toBe(true);
    expect(stopMovedAway(1.1, true, [1.095, 1.098])).toBe(false);
    expect(stopMovedAway(1.1, true, [1.101, 1.1005])).toBe(false);
    expect(stopMovedAway(1.1, true, [1.101, 1.099])).toBe(true);
    expect(stopMovedAway(1.1, false, [1.105, 1.11])).toBe(true);
    expect(stopMovedAway(1.1, false, [1.105, 1.102])).toBe(false);
    expect(stopMovedAway(1.1, true, [1.09])).toBe(false);
  });
});
