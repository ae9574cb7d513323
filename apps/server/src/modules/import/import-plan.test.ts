import { describe, expect, it } from 'vitest';
import { emptyReport } from './parse/fields';
import type { ParsedReport, ParsedTrade } from './parse/types';
import { atPrecisionOf, contractSizesWith, planImport, tradeInputs, type PlannedTrade } from './import-plan';

const parsed = (ticket: string, openTime: string): ParsedTrade => ({
  row: 1,
  ticket,
  symbol: 'EURUSD',
  side: 'buy',
  lots: '0.10',
  openTime,
  closeTime: openTime.replace('T10', 'T13'),
  openPrice: '1.08',
  closePrice: '1.09',
  sl: null,
  tp: null,
  commission: '0',
  taxes: '0',
  swap: '0',
  profit: '10.00',
  comment: null,
  magic: null,
});

const report = (closedTrades: ParsedTrade[]): ParsedReport => {
  const out = emptyReport('mt5-html');
  out.account = { ...out.account, number: '5123:4567', currency: 'USD', server: 'Demo-Server', mode: 'demo' };
  out.closedTrades = closedTrades;
  return out;
};

describe('the import plan', () => {
  it('reads server time at the offset and names the sample by the trading rule, ticket as printed to store', () => {
    const plan = planImport(
      report([
        parsed('7', '2024-01-01T10:00:00'),
        parsed('8', '2024-01-02T10:00:00'),
        parsed('7', '2024-01-03T10:00:00'),
      ]),
      { brokerTime: { rule: 'fixed', offset: '+02:00' }, rememberedMode: null, sizes: contractSizesWith(new Map()) },
    );
    expect(plan.preview.sample.map((t) => t.tradeId)).toEqual([
      '7@2024-01-01T08:00:00.000000000Z',
      '8',
      '7@2024-01-03T08:00:00.000000000Z',
    ]);
    expect(plan.trades.map((t) => [t.ticket, t.openTime, t.closeTime])).toEqual([
      ['7', '2024-01-01T08:00:00.000000000Z', '2024-01-01T11:00:00.000000000Z'],
      ['8', '2024-01-02T08:00:00.000000000Z', '2024-01-02T11:00:00.000000000Z'],
      ['7', '2024-01-03T08:00:00.000000000Z', '2024-01-03T11:00:00.000000000Z'],
    ]);
    // The login as printed: the trading module applies the key's colon rule.
    expect(plan.account).toMatchObject({
      server: 'Demo-Server',
      login: '5123:4567',
      brokerTime: 'fixed',
      utcOffset: '+02:00',
    });
    expect(plan.trades.map((t) => t.serverOpenTime)).toEqual([
      '2024-01-01T10:00:00',
      '2024-01-02T10:00:00',
      '2024-01-03T10:00:00',
    ]);
    expect(plan.preview).toMatchObject({
      brokerTime: 'fixed',
      serverUtcOffset: '+02:00',
      serverUtcOffsets: ['+02:00'],
    });
  });

  it('reads each trade at the offset its own date has under a named rule, and shows the offsets used', () => {
    const plan = planImport(
      // 2024-03-12: New York on summer time, Europe not yet (the weeks where the two rules differ).
      report([parsed('1', '2024-01-10T10:00:00'), parsed('2', '2024-03-12T10:00:00')]),
      { brokerTime: { rule: 'ny-close-us' }, rememberedMode: null, sizes: contractSizesWith(new Map()) },
    );
    expect(plan.trades.map((t) => t.openTime)).toEqual([
      '2024-01-10T08:00:00.000000000Z',
      '2024-03-12T07:00:00.000000000Z',
    ]);
    expect(plan.account).toMatchObject({ brokerTime: 'ny-close-us', utcOffset: null });
    expect(plan.preview).toMatchObject({
      brokerTime: 'ny-close-us',
      serverUtcOffset: null,
      serverUtcOffsets: ['+02:00', '+03:00'],
    });
    const eu = planImport(report([parsed('2', '2024-03-12T10:00:00')]), {
      brokerTime: { rule: 'ny-close-eu' },
      rememberedMode: null,
      sizes: contractSizesWith(new Map()),
    });
    expect(eu.trades[0]!.openTime).toBe('2024-03-12T08:00:00.000000000Z');
  });

  it('plans open trades without a close and balance operations in UTC at the same offset', () => {
    const input = report([parsed('7', '2024-01-01T10:00:00')]);
    input.openTrades = [
      { ...parsed('9', '2024-01-04T10:00:00'), closeTime: null, closePrice: '1.0950', profit: '-4.20' },
    ];
    input.balanceOperations = [
      {
        row: 3,
        ticket: '1001',
        time: '2024-01-01T09:00:00',
        type: 'balance',
        amount: '-250.00',
        comment: 'Withdrawal',
      },
    ];
    const plan = planImport(input, {
      brokerTime: { rule: 'fixed', offset: '+02:00' },
      rememberedMode: null,
      sizes: contractSizesWith(new Map()),
    });
    expect(plan.openTrades).toMatchObject([
      {
        ticket: '9',
        openTime: '2024-01-04T08:00:00.000000000Z',
        closeTime: null,
        averageClosePrice: null,
        realizedPL: '-4.20',
      },
    ]);
    expect(plan.balanceOperations).toEqual([
      {
        ticket: '1001',
        time: '2024-01-01T07:00:00.000000000Z',
        serverTime: '2024-01-01T09:00:00',
        type: 'balance',
        amount: '-250.00',
        comment: 'Withdrawal',
      },
    ]);
    // The preview counts them; its closed-trade figures and sample stay the closed trades'.
    expect(plan.preview).toMatchObject({ closedTrades: 1, openTrades: 1, balanceOperations: 1, netProfit: '10.00' });
    expect(plan.preview.sample.map((t) => t.tradeId)).toEqual(['7']);
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
      serverOpenTime: 's',
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
