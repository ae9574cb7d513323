import { describe, expect, it } from 'vitest';
import { noDailyRates } from '../../domain/currency-totals';
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
