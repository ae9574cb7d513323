import { describe, expect, it } from 'vitest';
import type { AccountItem, TradeItem } from '@pipsense/contract';
import { computeMetrics } from './compute-metrics';
import { engineAccountFromItem, engineTradeFromItem } from './from-records';

/** Shaped like a stored OANDA trade (trade 5316 of the reference fixtures, then closed). */
function item(overrides: Partial<TradeItem>): TradeItem {
  return {
    tradeId: '5316',
    accountId: '101-004-27183640-001',
    mode: 'demo',
    instrument: 'USD_JPY',
    price: '147.566',
    initialUnits: '-12000',
    currentUnits: '0',
    realizedPL: '0.1000',
    unrealizedPL: null,
    financing: '-0.0412',
    state: 'CLOSED',
    openTime: '2025-10-03T13:58:35.702058560Z',
    closeTime: '2025-10-03T14:20:01.000000000Z',
    averageClosePrice: '147.466',
    stopLossPrice: '147.966',
    takeProfitPrice: '146.866',
    trailingStopDistance: null,
    updatedAt: '2025-10-03T14:30:12Z',
    createdAt: '2025-10-03T14:30:12Z',
    platform: 'oanda',
    symbol: null,
    lots: null,
    commission: null,
    swap: null,
    ...overrides,
  };
}

describe('engineTradeFromItem', () => {
  it('parses decimal strings, times and the state', () => {
    expect(engineTradeFromItem(item({}))).toEqual({
      accountId: '101-004-27183640-001',
      tradeId: '5316',
      instrument: 'USD_JPY',
      units: -12000,
      currentUnits: 0,
      openPrice: 147.566,
      closePrice: 147.466,
      openTime: Date.parse('2025-10-03T13:58:35.702Z'),
      closeTime: Date.parse('2025-10-03T14:20:01Z'),
      state: 'CLOSED',
      realizedPL: 0.1,
      unrealizedPL: 0,
      financing: -0.0412,
      stopLossPrice: 147.966,
      takeProfitPrice: 146.866,
      trailingStopDistance: null,
      initialStop: false,
      rMultiple: null,
    });
  });

  it('takes the initial stop the sync kept and the R-multiple from domain/risk.ts', () => {
    // short from 147.566, first stop 147.966: 1R = 0.400; closed at 147.466, 0.100 in favour → 0.25R
    const trade = engineTradeFromItem(item({}), '147.966');
    expect(trade).toMatchObject({ initialStop: true, rMultiple: 0.25 });
    // open: an initial stop, no R yet
    expect(engineTradeFromItem(item({ state: 'OPEN', averageClosePrice: null }), '147.966')).toMatchObject({
      initialStop: true,
      rMultiple: null,
    });
    // a stop at the entry price is no risk: "no initial stop"
    expect(engineTradeFromItem(item({}), '147.566')).toMatchObject({ initialStop: false, rMultiple: null });
  });

  it('treats an unknown state as open and skips pips without an open price', () => {
    const trade = engineTradeFromItem(item({ state: 'SOMETHING_NEW', price: null }));
    expect(trade.state).toBe('OPEN');
    expect(trade.openPrice).toBe(0);
    expect(trade.closePrice).toBeNull();
  });

  it('keeps sums exact to the broker cent', () => {
    // 0.1 + 0.2 is 0.30000000000000004 in floating point; the engine sums ten-thousandths: 1000 + 2000
    const trades = [
      engineTradeFromItem(item({ tradeId: '1', realizedPL: '0.1000' })),
      engineTradeFromItem(item({ tradeId: '2', realizedPL: '0.2000' })),
      engineTradeFromItem(item({ tradeId: '3', realizedPL: '-0.3000' })),
    ];
    const metrics = computeMetrics(trades, [], { now: new Date('2025-10-04T00:00:00Z'), timeZone: 'UTC' });
    expect(metrics.facts.performance?.grossProfit).toBe(0.3);
    expect(metrics.facts.performance?.netPL).toBe(0);
    // pips of a short USD_JPY trade closed 0.100 lower: +10.0 each
    expect(metrics.facts.performance?.pipsWon).toBe(30);
  });
});

describe('engineAccountFromItem', () => {
  it('maps the summary and treats missing numbers as zero', () => {
    const account = {
      oandaAccountId: '101-004-27183640-002',
      currency: null,
      balance: '1000.5000',
      NAV: null,
      unrealizedPL: null,
      marginUsed: '12.3400',
      marginAvailable: null,
      positionValue: null,
      openTradeCount: 1,
      openPositionCount: null,
    } as AccountItem;
    expect(engineAccountFromItem(account)).toEqual({
      accountId: '101-004-27183640-002',
      currency: '',
      balance: 1000.5,
      nav: 0,
      unrealizedPL: 0,
      marginUsed: 12.34,
      marginAvailable: 0,
      positionValue: 0,
      openTradeCount: 1,
      openPositionCount: 0,
    });
  });
});
