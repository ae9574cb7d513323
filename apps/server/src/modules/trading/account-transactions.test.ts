import { describe, expect, it } from 'vitest';
import { metatraderCashFlowKind, oandaCashFlowKind } from './account-transactions';

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
