// The seeded book: deterministic per seed, realistic in its mix, consistent with OANDA's rules.

import { describe, expect, it } from 'vitest';
import { INSTRUMENTS, startOandaSim, type WireTrade } from './index';
import { FIXED_NOW, get } from './test-support';

const DAY = 86_400_000;

describe('determinism', () => {
  it('gives the same book and candles for the same seed and clock, another for another seed', async () => {
    const a = await startOandaSim({ seed: 101, tradesPerAccount: 150, accounts: 1, now: () => FIXED_NOW });
    const b = await startOandaSim({ seed: 101, tradesPerAccount: 150, accounts: 1, now: () => FIXED_NOW });
    const c = await startOandaSim({ seed: 102, tradesPerAccount: 150, accounts: 1, now: () => FIXED_NOW });
    try {
      expect(b.accountIds).toEqual(a.accountIds);
      expect(b.state.trades(b.accountIds[0] as string)).toEqual(a.state.trades(a.accountIds[0] as string));
      expect(b.state.summary(b.accountIds[0] as string)).toEqual(a.state.summary(a.accountIds[0] as string));
      const path = '/v3/instruments/GBP_USD/candles?granularity=M15&count=200&price=BAM';
      expect((await get(b, path)).body).toEqual((await get(a, path)).body);
      expect(c.state.trades(c.accountIds[0] as string)).not.toEqual(a.state.trades(a.accountIds[0] as string));
      expect((await get(c, path)).body).not.toEqual((await get(a, path)).body);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});

describe('the default book', () => {
  it('seeds three accounts of ~1500 trades over six instruments and ~18 months, most with SL and TP', async () => {
    const sim = await startOandaSim({ seed: 42, now: () => FIXED_NOW });
    try {
      expect(sim.accountIds).toHaveLength(3);
      expect(sim.state.accounts.map((a) => a.currency)).toEqual(['USD', 'EUR', 'USD']);
      for (const id of sim.accountIds) {
        const trades = sim.state.trades(id);
        expect(trades).toHaveLength(1500);
        expect(new Set(trades.map((t) => t.instrument))).toEqual(new Set(INSTRUMENTS.map((i) => i.name)));
        const open = trades.filter((t) => t.state === 'OPEN');
        expect(open.length).toBeGreaterThanOrEqual(3);
        expect(open.length).toBeLessThan(60);
        const both = trades.filter((t) => t.takeProfitOrder && t.stopLossOrder);
        expect(both.length / trades.length).toBeGreaterThan(0.6);
        expect(trades.some((t) => t.trailingStopLossOrder)).toBe(true);
        const times = trades.map((t) => Date.parse(t.openTime));
        expect(FIXED_NOW - Math.min(...times)).toBeGreaterThan(500 * DAY);
        expect(FIXED_NOW - Math.min(...times)).toBeLessThan(560 * DAY);
        expect(FIXED_NOW - Math.max(...times)).toBeLessThan(3 * DAY);
        expect(trades.filter((t) => Number(t.financing) !== 0).length).toBeGreaterThan(trades.length / 4);
      }
    } finally {
      await sim.close();
    }
  });

  it('keeps prices at realistic levels for each instrument', async () => {
    const sim = await startOandaSim({ seed: 42, tradesPerAccount: 20, accounts: 1, now: () => FIXED_NOW });
    try {
      const bands: Record<string, [number, number]> = {
        EUR_USD: [0.85, 1.45],
        USD_JPY: [110, 190],
        GBP_USD: [1.0, 1.65],
        AUD_USD: [0.5, 0.85],
        EUR_JPY: [125, 210],
        XAU_USD: [1800, 4800],
      };
      for (const [name, [lo, hi]] of Object.entries(bands)) {
        for (let back = 0; back < 540; back += 30) {
          const mid = Number(sim.state.price(name, FIXED_NOW - back * DAY).mid);
          expect(mid, `${name} ${back} days ago`).toBeGreaterThan(lo);
          expect(mid, `${name} ${back} days ago`).toBeLessThan(hi);
        }
        const p = sim.state.price(name);
        expect(Number(p.ask)).toBeGreaterThan(Number(p.bid));
      }
    } finally {
      await sim.close();
    }
  });
});

describe('OANDA rules', () => {
  it('uses the opening fill transaction id as the trade id', async () => {
    const sim = await startOandaSim({ seed: 8, tradesPerAccount: 100, accounts: 1, now: () => FIXED_NOW });
    try {
      const id = sim.accountIds[0] as string;
      for (const t of sim.state.trades(id).slice(0, 15)) {
        const { body } = await get<{ transaction: { type: string; tradeOpened: { tradeID: string } } }>(
          sim,
          `/v3/accounts/${id}/transactions/${t.id}`,
        );
        expect(body.transaction.type).toBe('ORDER_FILL');
        expect(body.transaction.tradeOpened.tradeID).toBe(t.id);
      }
    } finally {
      await sim.close();
    }
  });

  it('never holds opposite directions on one instrument at once (no hedging)', async () => {
    const sim = await startOandaSim({ seed: 77, tradesPerAccount: 600, accounts: 1, now: () => FIXED_NOW });
    try {
      const trades = sim.state.trades(sim.accountIds[0] as string);
      const span = (t: WireTrade) =>
        [Date.parse(t.openTime), t.closeTime ? Date.parse(t.closeTime) : Infinity] as const;
      for (const instrument of INSTRUMENTS.map((i) => i.name)) {
        const mine = trades.filter((t) => t.instrument === instrument);
        for (const a of mine) {
          for (const b of mine) {
            if (Math.sign(Number(a.initialUnits)) === Math.sign(Number(b.initialUnits))) continue;
            const [a0, a1] = span(a);
            const [b0, b1] = span(b);
            expect(a0 < b1 && b0 < a1, `${a.id} and ${b.id} overlap`).toBe(false);
          }
        }
      }
    } finally {
      await sim.close();
    }
  });

  it('scales to 10,000+ trades', async () => {
    const sim = await startOandaSim({ seed: 5, tradesPerAccount: 5000, accounts: 2, now: () => FIXED_NOW });
    try {
      const counts = sim.accountIds.map((id) => sim.state.trades(id).length);
      expect(counts).toEqual([5000, 5000]);
    } finally {
      await sim.close();
    }
  });
});
