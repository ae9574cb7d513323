import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { accountTransactionsResponse } from '../../integrations/oanda/wire-schemas';
import { metatraderCashFlowKind, oandaCashFlowKind, tradeReductionsOf } from './account-transactions';

/* Which cash flow each stored OANDA transaction and imported balance operation is (decision 022, What a cash flow is). */

describe('OANDA cash flows', () => {
  it('are transfers by sign, financing, and adjustments; no funding reason is a fee', () => {
    expect(oandaCashFlowKind('TRANSFER_FUNDS', 'CLIENT_FUNDING', '2500.5000')).toBe('deposit');
    expect(oandaCashFlowKind('TRANSFER_FUNDS', 'CLIENT_FUNDING', '-1000.0000')).toBe('withdrawal');
    for (const reason of ['ACCOUNT_TRANSFER', 'DIVISION_MIGRATION', 'SITE_MIGRATION', null])
      expect(oandaCashFlowKind('TRANSFER_FUNDS', reason, '-25.0000'), String(reason)).toBe('withdrawal');
    expect(oandaCashFlowKind('TRANSFER_FUNDS', 'ADJUSTMENT', '-25.0000')).toBe('adjustment');
    expect(oandaCashFlowKind('DAILY_FINANCING', null, '-7.1671')).toBe('financing');
    expect(oandaCashFlowKind('DIVIDEND_ADJUSTMENT', null, '1.2000')).toBe('adjustment');
  });
});

describe('MetaTrader cash flows', () => {
  it('are deposits and withdrawals by sign, and credit', () => {
    expect(metatraderCashFlowKind('deposit', 'balance', '1500.00')).toBe('deposit');
    expect(metatraderCashFlowKind('withdrawal', 'balance', '-200.10')).toBe('withdrawal');
    expect(metatraderCashFlowKind('withdrawal', 'withdrawal', '-50.00')).toBe('withdrawal');
    expect(metatraderCashFlowKind('credit', 'credit', '300.00')).toBe('credit');
  });

  it("are a fee when MT5 prints a broker's charge or commission apart from a trade, in any case and spacing", () => {
    for (const printed of [
      'charge',
      'Additional charge',
      'commission',
      'additional commission',
      'daily commission',
      'Monthly  Commission',
    ])
      expect(metatraderCashFlowKind('other', printed, '-2.40'), printed).toBe('fee');
    // A refunded charge is still the charge's kind.
    expect(metatraderCashFlowKind('other', 'charge', '2.40')).toBe('fee');
  });

  it('are an adjustment for everything else: bonus, correction, interest, tax, an agent commission, unknown words', () => {
    expect(metatraderCashFlowKind('bonus', 'bonus', '25.00')).toBe('adjustment');
    expect(metatraderCashFlowKind('correction', 'correction', '-0.35')).toBe('adjustment');
    for (const printed of ['interest rate', 'tax', 'daily agent commission', 'monthly agent commission', 'cash', null])
      expect(metatraderCashFlowKind('other', printed, '-1.00'), String(printed)).toBe('adjustment');
  });
});

/** A recorded idrange answer (tools/oanda-sim/fixtures/NOTES.md): a partial close of trade 5305 among other fills. */
const recorded = () =>
  accountTransactionsResponse.parse(
    JSON.parse(
      readFileSync(
        new URL('../../../../../tools/oanda-sim/fixtures/transactions.sinceid-5306.json', import.meta.url),
        'utf8',
      ),
    ),
  ).transactions;

describe('the fills that reduce or close a trade', () => {
  it("keep a recorded fill's tradeReduced as OANDA sent it, and no fill that only opens a trade", () => {
    const transactions = recorded();
    expect(transactions.some((t) => t.type === 'ORDER_FILL' && !t.tradeReduced && !t.tradesClosed)).toBe(true);
    expect(tradeReductionsOf(transactions)).toContainEqual({
      transaction_num: 5309,
      trade_id: '5305',
      kind: 'reduce',
      time: '2025-10-03T06:18:41.207351192Z',
      units: '-8000',
      price: '0.65886',
      realized_pl: '3.8400',
      financing: '0.0000',
    });
    expect(tradeReductionsOf(transactions).every((r) => r.kind === 'reduce' || r.kind === 'close')).toBe(true);
  });

  it('give one record per trade a fill closed, and the reduced one beside them', () => {
    const fill = {
      id: '7001',
      type: 'ORDER_FILL',
      time: '2026-03-02T11:00:00.123456789Z',
      price: '1.10300',
      tradeReduced: { tradeID: '6003', units: '-1000', price: '1.10300', realizedPL: '3.0000', financing: '-0.0100' },
      tradesClosed: [
        { tradeID: '6001', units: '-2000', realizedPL: '6.0000', financing: '0.0000' },
        { tradeID: '6002', units: '-3000', price: '1.10301', realizedPL: '9.0300', financing: '-0.0200' },
      ],
    };
    const opened = { id: '7002', type: 'ORDER_FILL', time: fill.time, price: '1.10300' };
    const transfer = { id: '7003', type: 'TRANSFER_FUNDS', time: fill.time, amount: '100.0000' };
    const records = tradeReductionsOf([fill, opened, transfer]);
    expect(records.map((r) => [r.transaction_num, r.trade_id, r.kind, r.units, r.price, r.realized_pl])).toEqual([
      [7001, '6003', 'reduce', '-1000', '1.10300', '3.0000'],
      // A TradeReduce without its own price was filled at the fill's.
      [7001, '6001', 'close', '-2000', '1.10300', '6.0000'],
      [7001, '6002', 'close', '-3000', '1.10301', '9.0300'],
    ]);
  });
});
