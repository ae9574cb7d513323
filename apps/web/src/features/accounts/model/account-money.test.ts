import { describe, expect, it } from 'vitest';
import { account, cashFlow, point } from '../test-fixtures';
import { moneyLines } from '../../../components/charts/money-lines';
import { platformOfAccountId } from '../../../components/data/platform-scope';
import { equityState } from '../../../lib/balance-history-query';
import { accountMoneyTitle, autoResolution, cashFlowTotal } from './account-money';

describe('account money', () => {
  it("knows an account's platform by its API id", () => {
    expect(platformOfAccountId('101-004-27183640-001')).toBe('OANDA');
    expect(platformOfAccountId('metatrader:ICMarketsSC-Demo:51234567')).toBe('MetaTrader');
  });

  it('titles the page alias · id · currency, the login for an imported account', () => {
    expect(accountMoneyTitle('101-004-27183640-001', account())).toEqual(['Primary', '101-004-27183640-001', 'USD']);
    const mt = account({ platform: 'metatrader', oandaAccountId: 'metatrader:S:7', login: '7', alias: null });
    expect(accountMoneyTitle('metatrader:S:7', mt)).toEqual(['7', 'USD']);
    expect(accountMoneyTitle('metatrader:S:7', undefined)).toEqual(['7']);
  });

  it('tells a whole equity line from an unknown one and a partial one', () => {
    const history = (points: ReturnType<typeof point>[]) => ({
      currency: 'USD',
      points,
      equityComplete: points.every((p) => p.equity !== null),
    });
    expect(equityState(history([point('2025-01-01T00:00:00Z', '1')]))).toBe('complete');
    expect(equityState(history([]))).toBe('complete');
    expect(equityState(history([point('2025-01-01T00:00:00Z', '1', null)]))).toBe('unknown');
    expect(equityState(history([point('2025-01-01T00:00:00Z', '1'), point('2025-01-02T00:00:00Z', '1', null)]))).toBe(
      'partial',
    );
  });

  it('draws each booking for three months or less, a point a day beyond', () => {
    expect(autoResolution(1)).toBe('trade');
    expect(autoResolution(92)).toBe('trade');
    expect(autoResolution(93)).toBe('day');
  });

  it('sums deposits and withdrawals exactly', () => {
    const flows = [
      cashFlow({ amount: '0.1' }),
      cashFlow({ amount: '0.2' }),
      cashFlow({ type: 'withdrawal', amount: '-0.3000' }),
    ];
    expect(cashFlowTotal(flows, 'deposit')).toEqual([{ currency: 'USD', amount: '0.3' }]);
    expect(cashFlowTotal(flows, 'withdrawal')).toEqual([{ currency: 'USD', amount: '-0.3000' }]);
    expect(cashFlowTotal(flows, 'fee')).toEqual([]);
  });

  it('keeps the chart times strictly ascending when two bookings share a second', () => {
    const lines = moneyLines([point('2025-01-01T00:00:00.100Z', '1'), point('2025-01-01T00:00:00.900Z', '2', null)]);
    expect(lines.balance[1]!.time - lines.balance[0]!.time).toBe(1);
    expect(lines.equity[1]).toEqual({ time: lines.balance[1]!.time });
  });

  it('hides the segment that would bridge a gap in equity, and only that one', () => {
    const lines = moneyLines([
      point('2025-01-01T00:00:00Z', '1'),
      point('2025-01-02T00:00:00Z', '2'),
      point('2025-01-03T00:00:00Z', '3', null),
      point('2025-01-04T00:00:00Z', '4'),
      point('2025-01-05T00:00:00Z', '5', null),
    ]);
    expect(lines.equity.map((p) => [p.value, p.color])).toEqual([
      [1, undefined],
      [2, 'transparent'],
      [undefined, undefined],
      // The last known point keeps its colour (the price axis labels it): no known point follows to bridge to.
      [4, undefined],
      [undefined, undefined],
    ]);
  });
});
