import { describe, expect, it } from 'vitest';
import {
  balanceOperationRecords,
  balanceOperationType,
  importedTradeRecords,
  type ImportedBalanceOperationInput,
} from './metatrader-store';

const T1 = '2024-01-01T10:00:00.000000000Z';
const T2 = '2024-01-01T11:00:00.000000000Z';
const T3 = '2024-01-01T12:00:00.000000000Z';
/** The server's wall clock of a UTC time at +02:00. */
const srv = (utc: string) => new Date(Date.parse(utc) + 2 * 3_600_000).toISOString().slice(0, 19);

describe('importedTradeRecords', () => {
  it('names each record by importedTradeIds (domain/imported-trade-ids.ts) and keeps the numeric ticket for ordering', async () => {
    const trade = (ticket: string, openTime: string) => ({
      ticket,
      symbol: 'EURUSD',
      instrument: 'EUR_USD',
      units: '1000',
      lots: '0.01',
      price: '1.1',
      averageClosePrice: '1.2',
      stopLossPrice: null,
      takeProfitPrice: null,
      openTime,
      closeTime: T3,
      serverOpenTime: srv(openTime),
      realizedPL: '1.00',
      commission: '-0.10',
      swap: '0',
    });
    const records = await importedTradeRecords([trade('7', T1), trade('7', T2)], new Map(), 'demo');
    expect(records.map((r) => [r.trade_id, r.trade_num, r.financing])).toEqual([
      [`7@${T1}`, 7, '-0.10'],
      [`7@${T2}`, 7, '-0.10'],
    ]);
  });
});

describe('balance operations', () => {
  const op = (o: Partial<ImportedBalanceOperationInput>): ImportedBalanceOperationInput => ({
    ticket: null,
    time: '2024-03-01T06:00:00Z',
    serverTime: '2024-03-01T08:00:00',
    type: 'balance',
    amount: '100.00',
    comment: null,
    ...o,
  });

  it('classifies MetaTrader balance rows by sign and keeps the named types', () => {
    expect(
      [
        ['balance', '10000.00'],
        ['Balance', '-0.01'],
        ['credit', '-50'],
        ['bonus', '5'],
        ['correction', '-1'],
        ['Deposit', '3'],
        ['interest', '0.4'],
      ].map(([type, amount]) => balanceOperationType(type!, amount!)),
    ).toEqual(['deposit', 'withdrawal', 'credit', 'bonus', 'correction', 'deposit', 'other']);
  });

  it('names an operation by its ticket, else by type, server time, amount and occurrence', () => {
    const records = balanceOperationRecords(
      [
        op({ ticket: ' 5001 ', amount: '-500.00' }),
        op({ type: 'Bonus', amount: '50.000000' }),
        op({ type: 'bonus', amount: '50.00' }),
        op({ type: 'credit', amount: '50.00' }),
      ],
      'USD',
    );
    expect(records.map((r) => [r.operation_id, r.type, r.time])).toEqual([
      ['5001', 'withdrawal', '2024-03-01T06:00:00.000000000Z'],
      ['bonus@2024-03-01T08:00:00@50', 'bonus', '2024-03-01T06:00:00.000000000Z'],
      ['bonus@2024-03-01T08:00:00@50#2', 'bonus', '2024-03-01T06:00:00.000000000Z'],
      ['credit@2024-03-01T08:00:00@50', 'credit', '2024-03-01T06:00:00.000000000Z'],
    ]);
    expect(records[0]).toMatchObject({
      amount: '-500.00',
      currency: 'USD',
      printed_type: 'balance',
      platform: 'metatrader',
    });
  });
});
