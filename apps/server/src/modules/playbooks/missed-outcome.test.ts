import { describe, expect, it } from 'vitest';
import { missedOutcome, type OutcomeCandle } from './missed-outcome';

/** Five-minute candles from 10:00 UTC: [high, low, close] each. */
const candles = (...hlc: Array<[string, string, string]>): OutcomeCandle[] =>
  hlc.map(([h, l, c], i) => ({ time: new Date(Date.UTC(2025, 2, 3, 10, 5 * i)).toISOString(), h, l, c }));
const at = (minute: number) => new Date(Date.UTC(2025, 2, 3, 10, minute)).toISOString();

const LONG = { side: 'long' as const, time: at(0), entry: '1.1000', stop: '1.0980', target: '1.1050' };
const SHORT = { side: 'short' as const, time: at(0), entry: '1.1000', stop: '1.1020', target: '1.0950' };

describe('a missed trade’s outcome from candles', () => {
  it('a long reaching its target first: reward over risk (50 pips over 20 = 2.5 R), at that candle', () => {
    const result = missedOutcome(
      LONG,
      candles(['1.1010', '1.0990', '1.1005'], ['1.1050', '1.1001', '1.1040'], ['1.1060', '1.0970', '1.0975']),
    );
    expect(result).toEqual({ outcome: 'target', wouldBeR: 2.5, outcomeTime: at(5) });
  });

  it('a long reaching its stop first: −1 R; the low touching the stop exactly counts', () => {
    const result = missedOutcome(LONG, candles(['1.1010', '1.0990', '1.1005'], ['1.1020', '1.0980', '1.1010']));
    expect(result).toEqual({ outcome: 'stop', wouldBeR: -1, outcomeTime: at(5) });
  });

  it('one candle reaching both: the stop (a candle does not say which came first)', () => {
    expect(missedOutcome(LONG, candles(['1.1060', '1.0970', '1.1000']))).toEqual({
      outcome: 'stop',
      wouldBeR: -1,
      outcomeTime: at(0),
    });
    expect(missedOutcome(SHORT, candles(['1.1030', '1.0940', '1.1000'])).outcome).toBe('stop');
  });

  it('a short the other way round: target below (50 pips over 20 = 2.5 R), stop above', () => {
    expect(missedOutcome(SHORT, candles(['1.1010', '1.0990', '1.0995'], ['1.0999', '1.0950', '1.0960']))).toEqual({
      outcome: 'target',
      wouldBeR: 2.5,
      outcomeTime: at(5),
    });
    expect(missedOutcome(SHORT, candles(['1.1020', '1.0990', '1.1015']))).toEqual({
      outcome: 'stop',
      wouldBeR: -1,
      outcomeTime: at(0),
    });
  });

  it('neither level reached: open, at the R of the last close; without a target only the stop ends it', () => {
    // Last close 1.1010: 10 pips over 20 of risk = 0.5 R.
    expect(missedOutcome(LONG, candles(['1.1020', '1.0990', '1.1005'], ['1.1030', '1.1000', '1.1010']))).toEqual({
      outcome: 'open',
      wouldBeR: 0.5,
      outcomeTime: null,
    });
    // A short closing 1.1008 is 8 pips against it over 20: −0.4 R; a high of 1.2000 ends nothing without a target
    // for a long.
    expect(missedOutcome(SHORT, candles(['1.1010', '1.0990', '1.1008'])).wouldBeR).toBe(-0.4);
    expect(missedOutcome({ ...LONG, target: null }, candles(['1.2000', '1.0990', '1.1500']))).toEqual({
      outcome: 'open',
      wouldBeR: 25,
      outcomeTime: null,
    });
  });

  it('ignores candles that start before the setup’s time, and has no R without a candle after it', () => {
    const early = candles(['1.1060', '1.0900', '1.1000'], ['1.1010', '1.0995', '1.1004']);
    // The first candle (10:00) reaches both levels, but the setup was seen at 10:03: only the 10:05 candle counts.
    expect(missedOutcome({ ...LONG, time: at(3) }, early)).toEqual({
      outcome: 'open',
      wouldBeR: 0.2,
      outcomeTime: null,
    });
    expect(missedOutcome(LONG, [])).toEqual({ outcome: 'open', wouldBeR: null, outcomeTime: null });
  });
});
