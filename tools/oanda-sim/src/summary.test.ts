// Account summaries agree with the trades: balance = deposit + realized P/L + financing,
// NAV = balance + unrealized P/L, margin and counts from the open trades.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOandaSim, type OandaSim, type WireTrade } from './index';
import { FIXED_NOW, get, scaled } from './test-support';

let sim: OandaSim;

beforeAll(async () => {
  sim = await startOandaSim({ seed: 33, tradesPerAccount: 500, now: () => FIXED_NOW });
});
afterAll(() => sim.close());

const money = (s: string | undefined) => scaled(s ?? '0', 4);
const sum = (values: (string | undefined)[]) => values.reduce((n, v) => n + money(v), 0n);

describe.each([0, 1, 2])('account %i', (index) => {
  it('balances: deposit + realized P/L + financing', async () => {
    const id = sim.accountIds[index] as string;
    const trades = sim.state.trades(id);
    const summary = sim.state.summary(id);
    const deposit = await get<{ transaction: { type: string; amount: string } }>(
      sim,
      `/v3/accounts/${id}/transactions/3`,
    );
    expect(deposit.body.transaction.type).toBe('TRANSFER_FUNDS');
    expect(money(summary.pl)).toBe(sum(trades.map((t) => t.realizedPL)));
    expect(money(summary.financing)).toBe(sum(trades.map((t) => t.financing)));
    expect(money(summary.balance)).toBe(
      money(deposit.body.transaction.amount) + money(summary.pl) + money(summary.financing),
    );
  });

  it('values the open trades: unrealized P/L, NAV, margin, counts', () => {
    const id = sim.accountIds[index] as string;
    const open = sim.state.trades(id, 'OPEN');
    const s = sim.state.summary(id);
    expect(s.openTradeCount).toBe(open.length);
    expect(s.openPositionCount).toBe(new Set(open.map((t) => t.instrument)).size);
    expect(s.pendingOrderCount).toBe(
      open
        .flatMap((t) => [t.takeProfitOrder, t.stopLossOrder, t.trailingStopLossOrder])
        .filter((o) => o?.state === 'PENDING').length,
    );
    expect(money(s.unrealizedPL)).toBe(sum(open.map((t) => t.unrealizedPL)));
    expect(money(s.marginUsed)).toBe(sum(open.map((t) => t.marginUsed)));
    expect(money(s.NAV)).toBe(money(s.balance) + money(s.unrealizedPL));
    expect(money(s.marginAvailable)).toBe(money(s.NAV) - money(s.marginUsed));
    expect(s.withdrawalLimit).toBe(s.marginAvailable);
    expect(s.marginCallMarginUsed).toBe(s.marginUsed);
  });
});

describe('trade arithmetic', () => {
  const usdQuoted = (t: WireTrade) => ['EUR_USD', 'GBP_USD', 'AUD_USD', 'XAU_USD'].includes(t.instrument);

  it('realizes (close − open) × units exactly for USD-quoted trades in a USD account', () => {
    const closed = sim.state
      .trades(sim.accountIds[0] as string, 'CLOSED')
      .filter((t) => usdQuoted(t) && t.closingTransactionIDs?.length === 1);
    expect(closed.length).toBeGreaterThan(100);
    for (const t of closed) {
      const move = scaled(t.averageClosePrice as string, 5) - scaled(t.price, 5);
      // (price at 5 dp) × units, expressed at 4 dp, is move × units / 10.
      expect(money(t.realizedPL) * 10n, t.id).toBe(move * BigInt(t.initialUnits));
    }
  });

  it('converts JPY-quoted P/L into the account currency', () => {
    const closed = sim.state
      .trades(sim.accountIds[0] as string, 'CLOSED')
      .filter((t) => t.instrument === 'USD_JPY' && t.closingTransactionIDs?.length === 1);
    expect(closed.length).toBeGreaterThan(10);
    for (const t of closed) {
      const jpy = (Number(t.averageClosePrice) - Number(t.price)) * Number(t.initialUnits);
      const usd = Number(t.realizedPL);
      if (Math.abs(jpy) < 1000) continue;
      expect(Math.sign(usd)).toBe(Math.sign(jpy));
      // Converted at USD/JPY of the close, which is the trade's own price there.
      expect(Math.abs(usd - jpy / Number(t.averageClosePrice)) / Math.abs(usd)).toBeLessThan(0.01);
    }
  });

  it('asks margin of |units| × price × margin rate', () => {
    for (const t of sim.state
      .trades(sim.accountIds[0] as string, 'ALL')
      .filter(usdQuoted)
      .slice(0, 200)) {
      const rate = { EUR_USD: 0.02, GBP_USD: 0.05, AUD_USD: 0.03, XAU_USD: 0.05 }[t.instrument] as number;
      const expected = Math.abs(Number(t.initialUnits)) * Number(t.price) * rate;
      expect(Math.abs(Number(t.initialMarginRequired) - expected) / expected, t.id).toBeLessThan(0.002);
    }
  });

  it('keeps partially closed open trades like OANDA: averageClosePrice and closingTransactionIDs while open', () => {
    const all = sim.accountIds.flatMap((id) => sim.state.trades(id, 'ALL'));
    const reducedThenClosed = all.filter((t) => t.state === 'CLOSED' && (t.closingTransactionIDs?.length ?? 0) === 2);
    expect(reducedThenClosed.length).toBeGreaterThan(5);
    for (const t of reducedThenClosed)
      expect(Number(t.closingTransactionIDs?.[0])).toBeLessThan(Number(t.closingTransactionIDs?.[1]));
  });

  it('matches the details endpoint', async () => {
    const id = sim.accountIds[1] as string;
    const { body } = await get<{ account: Record<string, unknown> }>(sim, `/v3/accounts/${id}`);
    const s = sim.state.summary(id);
    for (const key of Object.keys(s)) expect(body.account[key], key).toEqual(s[key as keyof typeof s]);
    expect((body.account.trades as unknown[]).length).toBe(s.openTradeCount);
    expect((body.account.orders as unknown[]).length).toBe(s.pendingOrderCount);
  });
});
