import { describe, expect, it } from 'vitest';
import { accountSummaryResponse, tradeResponse, tradesResponse } from '../../integrations/oanda/wire-schemas';
import { readFixture } from '../../test/oanda-fixture-server';
import type { WireTrade } from '../../integrations/oanda/wire-schemas';
import { accountContent, BrokerDataError, toAccountItem, tradeRecord } from './broker-data';
import { sameTradeContent } from './trade-content';
import { oandaAccount } from './account-key';

const trade = (name: string) => tradeResponse.parse(readFixture(name)).trade;

describe('tradeRecord', () => {
  it('keeps an open trade with all its dependent orders', () => {
    const record = tradeRecord(trade('trade.5285.json'), 'demo');
    const wire = readFixture<{ trade: WireTrade }>('trade.5285.json').trade;
    expect(record).toMatchObject({
      trade_id: '5285',
      trade_num: 5285,
      mode: 'demo',
      instrument: wire.instrument,
      price: wire.price,
      initial_units: wire.initialUnits,
      current_units: wire.currentUnits,
      unrealized_pl: wire.unrealizedPL,
      financing: wire.financing,
      state: 'OPEN',
      close_time: null,
      stop_loss_price: wire.stopLossOrder?.price,
      take_profit_price: wire.takeProfitOrder?.price,
      trailing_stop_distance: wire.trailingStopLossOrder?.distance,
    });
  });

  it('keeps a closed trade: close time and price, no unrealized P/L, the levels it had', () => {
    const wire = readFixture<{ trade: WireTrade }>('trade.5253.json').trade;
    const record = tradeRecord(trade('trade.5253.json'), 'live');
    expect(record).toMatchObject({
      state: 'CLOSED',
      mode: 'live',
      unrealized_pl: null,
      close_time: wire.closeTime,
      average_close_price: wire.averageClosePrice,
      realized_pl: wire.realizedPL,
      stop_loss_price: wire.stopLossOrder?.price,
    });
  });

  it('maps every recorded trade without loss', () => {
    const { trades } = tradesResponse.parse(readFixture('trades.state-ALL.json'));
    for (const wire of trades) {
      const record = tradeRecord(wire, 'demo');
      expect(record.price).toBe(wire.price);
      expect(record.realized_pl).toBe(wire.realizedPL);
      expect(record.open_time).toBe(wire.openTime);
    }
  });

  it('fills documented zero defaults and refuses a trade it cannot show', () => {
    const minimal = tradeRecord(
      { id: '00042', instrument: 'EUR_USD', state: 'CLOSED', openTime: '2025-01-01T00:00:00Z', initialUnits: '100' },
      'demo',
    );
    expect(minimal).toMatchObject({
      trade_id: '42',
      current_units: '0',
      realized_pl: '0',
      financing: '0',
      price: null,
      open_time: '2025-01-01T00:00:00.000000000Z',
    });
    expect(() =>
      tradeRecord({ id: '7', state: 'OPEN', openTime: '2025-01-01T00:00:00Z', initialUnits: '1' }, 'demo'),
    ).toThrow(BrokerDataError);
    expect(() =>
      tradeRecord({ id: '7', instrument: 'EUR_USD', state: 'OPEN', openTime: 'soon', initialUnits: '1' }, 'demo'),
    ).toThrow(/openTime/);
  });

  it('keeps the levels a closed trade had at its close, not those cancelled earlier', () => {
    const base = { id: '9', instrument: 'EUR_USD', openTime: '2025-01-01T00:00:00Z', initialUnits: '1' };
    const closed = { ...base, state: 'CLOSED', closeTime: '2025-01-02T00:00:00.000000000Z' };
    const cancelledAtClose = { price: '1.2', state: 'CANCELLED', cancelledTime: '2025-01-02T00:00:00.000000000Z' };
    const cancelledBefore = { price: '1.3', state: 'CANCELLED', cancelledTime: '2025-01-01T12:00:00.000000000Z' };
    expect(
      tradeRecord({ ...closed, takeProfitOrder: cancelledAtClose, stopLossOrder: cancelledBefore }, 'demo'),
    ).toMatchObject({
      take_profit_price: '1.2',
      stop_loss_price: null,
    });
    expect(tradeRecord({ ...base, state: 'OPEN', stopLossOrder: cancelledAtClose }, 'demo').stop_loss_price).toBeNull();
    expect(
      tradeRecord({ ...base, state: 'OPEN', stopLossOrder: { price: '1.1', state: 'PENDING' } }, 'demo')
        .stop_loss_price,
    ).toBe('1.1');
  });

  it('tells a changed trade from an identical one', () => {
    const a = tradeRecord(trade('trade.5285.json'), 'demo');
    expect(sameTradeContent(a, { ...a })).toBe(true);
    expect(sameTradeContent(a, { ...a, financing: '-0.0001' })).toBe(false);
    expect(sameTradeContent(a, { ...a, stop_loss_price: null })).toBe(false);
  });
});

describe('account summary', () => {
  it('keeps the summary decimals exactly and reads OANDA\'s "0" time as none', () => {
    const body = accountSummaryResponse.parse(readFixture('account.101-004-27183640-002.summary.json'));
    const content = accountContent(body.account, body.lastTransactionID, 'demo');
    expect(content).toMatchObject({
      alias: 'EUR hedge book',
      currency: 'EUR',
      balance: '5000.0000',
      nav: '5000.0000',
      margin_rate: '0.0333',
      hedging_enabled: 0,
      open_trade_count: 0,
      last_transaction_id: '3',
    });
    const item = toAccountItem({
      ...content,
      id: 'x',
      user_id: 'u',
      ...oandaAccount('demo', body.account.id),
      synced_at: 's',
      trades_through_transaction_id: null,
      transactions_through_id: null,
      trades_high_id: null,
      trades_synced_at: null,
      broker: null,
      leverage: null,
      utc_offset: null,
      broker_time: null,
      version: 2,
      created_at: 'c',
      updated_at: 'u',
    });
    expect(item).toMatchObject({
      platform: 'oanda',
      login: body.account.id,
      server: 'fxpractice',
      oandaAccountId: body.account.id,
      broker: null,
      brokerTime: null,
      serverUtcOffset: null,
      NAV: '5000.0000',
      hedgingEnabled: false,
      openedAt: '2025-03-04T09:15:44.061823117Z',
      version: 2,
    });
  });
});
