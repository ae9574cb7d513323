import { describe, expect, it } from 'vitest';
import { noDailyRates, ratesFromCloses } from '../../domain/currency-totals';
import { FIXTURE_ACCOUNTS, FIXTURE_NOW, FIXTURE_TRADES } from '../../test/hand-checked-trades';
import { computeMetrics } from './engine';
import { overviewInCurrencies } from './currency-overview';

describe('the Overview of one currency', () => {
  it('is the engine’s, figure for figure, whatever the home currency', async () => {
    const options = { now: FIXTURE_NOW, timeZone: 'UTC' };
    const before = computeMetrics(FIXTURE_TRADES, FIXTURE_ACCOUNTS, { ...options, byTag: [] });
    for (const home of ['USD', 'EUR', 'JPY']) {
      const view = await overviewInCurrencies({
        trades: FIXTURE_TRADES,
        accounts: FIXTURE_ACCOUNTS,
        options,
        home,
        rates: noDailyRates,
        byTagOf: () => [],
      });
      expect(view.metrics).toEqual(before);
      expect(view.currency.mode).toBe('single');
      expect(view.money.netPL).toEqual({
        mode: 'single',
        currency: FIXTURE_ACCOUNTS[0]!.currency,
        amount: before.facts.performance!.netPL.toFixed(2),
      });
    }
  });
});

describe('a listed Overview', () => {
  const jpy = { ...FIXTURE_ACCOUNTS[1]!, currency: 'JPY' };
  const options = { now: FIXTURE_NOW, timeZone: 'UTC' };
  const view = (rates = noDailyRates) =>
    overviewInCurrencies({
      trades: FIXTURE_TRADES.filter((t) => t.accountId !== jpy.accountId),
      accounts: [FIXTURE_ACCOUNTS[0]!, jpy],
      options,
      home: 'USD',
      rates,
      byTagOf: () => [],
    });

  it('names the rate it waits for: of the last complete day whenever asked, for what is open now', async () => {
    const listed = await view();
    expect(listed.currency.mode).toBe('listed');
    // Only the JPY account's balance needs a rate: its day moves on with the clock.
    expect(listed.missingRate).toEqual({ currency: 'JPY', day: null });
  });

  it('names none once converted', async () => {
    const rates = ratesFromCloses({ close: (pair) => Promise.resolve(pair === 'USD_JPY' ? '150' : null) });
    const converted = await view(rates);
    expect(converted.currency.mode).toBe('converted');
    expect(converted.missingRate).toBeNull();
  });
});
