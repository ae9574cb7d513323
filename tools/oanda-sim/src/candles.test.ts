// Candles: limits and parameters as OANDA has them, bars that aggregate exactly across
// granularities, and trade fills that sit inside the candles around them.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOandaSim, type OandaSim, type WireCandle, type WireTrade } from './index';
import { FIXED_NOW, get, scaled } from './test-support';

type CandlesBody = { instrument: string; granularity: string; candles: WireCandle[] };

let sim: OandaSim;
let account: string;

beforeAll(async () => {
  sim = await startOandaSim({ seed: 21, tradesPerAccount: 300, accounts: 1, now: () => FIXED_NOW });
  account = sim.accountIds[0] as string;
});
afterAll(() => sim.close());

async function candles(instrument: string, query: string): Promise<CandlesBody> {
  const res = await get<CandlesBody>(sim, `/v3/instruments/${instrument}/candles?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

function minuteOf(time: string): string {
  return `${time.slice(0, 16)}:00.000000000Z`;
}

function within(price: string, bar: { l: string; h: string } | undefined): boolean {
  if (!bar) return false;
  const p = scaled(price, 5);
  return scaled(bar.l, 5) <= p && p <= scaled(bar.h, 5);
}

describe('trade prices against candles', () => {
  it('puts every entry inside the M1 and S5 candles of its open time, on the side it filled', async () => {
    const sample = sim.state
      .trades(account, 'CLOSED')
      .filter((_, i) => i % 7 === 0)
      .slice(0, 30);
    expect(new Set(sample.map((t) => t.instrument)).size).toBeGreaterThan(3);
    for (const t of sample) {
      const side = Number(t.initialUnits) > 0 ? 'ask' : 'bid';
      const [m1] = (await candles(t.instrument, `granularity=M1&price=BA&count=1&from=${minuteOf(t.openTime)}`))
        .candles;
      expect(m1?.time).toBe(minuteOf(t.openTime));
      expect(within(t.price, m1?.[side]), `${t.id} ${t.price} in ${JSON.stringify(m1?.[side])}`).toBe(true);
      const [s5] = (await candles(t.instrument, `granularity=S5&price=BA&count=1&from=${t.openTime}`)).candles;
      expect(within(t.price, s5?.[side]), `${t.id} S5`).toBe(true);
    }
  });

  it('puts every exit inside the M1 candle of its close time, on the closing side', async () => {
    const sample = sim.state
      .trades(account, 'CLOSED')
      .filter((t) => t.closingTransactionIDs?.length === 1)
      .filter((_, i) => i % 7 === 3)
      .slice(0, 30);
    const byReason = new Set(
      sample.map((t) =>
        t.stopLossOrder?.state === 'FILLED' ? 'SL' : t.takeProfitOrder?.state === 'FILLED' ? 'TP' : 'other',
      ),
    );
    expect(byReason.size).toBeGreaterThan(1);
    for (const t of sample) {
      const side = Number(t.initialUnits) > 0 ? 'bid' : 'ask';
      const closeTime = t.closeTime as string;
      const [m1] = (await candles(t.instrument, `granularity=M1&price=BA&count=1&from=${minuteOf(closeTime)}`)).candles;
      expect(m1?.time).toBe(minuteOf(closeTime));
      expect(
        within(t.averageClosePrice as string, m1?.[side]),
        `${t.id} exit ${t.averageClosePrice} in ${JSON.stringify(m1?.[side])}`,
      ).toBe(true);
    }
  });

  it('fills take-profits at their price and stop-losses at or within a tick of theirs', () => {
    const closed = sim.state.trades(account, 'CLOSED').filter((t) => t.closingTransactionIDs?.length === 1);
    const tp = closed.filter((t) => t.takeProfitOrder?.state === 'FILLED');
    const sl = closed.filter((t) => t.stopLossOrder?.state === 'FILLED');
    expect(tp.length).toBeGreaterThan(10);
    expect(sl.length).toBeGreaterThan(10);
    // A gap through the level fills at the first price after it, so compare in the trader's favour.
    for (const t of tp) {
      const dir = Number(t.initialUnits) > 0 ? 1n : -1n;
      expect(
        dir * (scaled(t.averageClosePrice as string, 5) - scaled(t.takeProfitOrder?.price as string, 5)) >= 0n,
        t.id,
      ).toBe(true);
    }
    const exactStops = sl.filter((t) => {
      const tick = 10n ** BigInt(5 - (t.price.split('.')[1]?.length ?? 5));
      const slip =
        (Number(t.initialUnits) > 0 ? 1n : -1n) *
        (scaled(t.stopLossOrder?.price as string, 5) - scaled(t.averageClosePrice as string, 5));
      return slip === 0n || slip === tick;
    });
    // Only weekend gaps fill a stop further away.
    expect(exactStops.length / sl.length).toBeGreaterThan(0.9);
  });
});

describe('aggregation across granularities', () => {
  function combine(parts: WireCandle[]) {
    const mids = parts.map((c) => c.mid as NonNullable<WireCandle['mid']>);
    const num = (s: string) => scaled(s, 5);
    return {
      o: mids[0]?.o,
      h: mids.reduce((a, m) => (num(m.h) > num(a) ? m.h : a), mids[0]?.h ?? '0'),
      l: mids.reduce((a, m) => (num(m.l) < num(a) ? m.l : a), mids[0]?.l ?? '0'),
      c: mids.at(-1)?.c,
      volume: parts.reduce((n, c) => n + c.volume, 0),
    };
  }

  it('makes an H1 candle the exact aggregate of its M1 and M5 candles', async () => {
    const [h1] = (await candles('EUR_USD', 'granularity=H1&count=1&from=2025-09-30T13:00:00Z')).candles;
    const m1 = (await candles('EUR_USD', 'granularity=M1&from=2025-09-30T13:00:00Z&to=2025-09-30T14:00:00Z')).candles;
    const m5 = (await candles('EUR_USD', 'granularity=M5&from=2025-09-30T13:00:00Z&to=2025-09-30T14:00:00Z')).candles;
    expect(m1).toHaveLength(60);
    expect(m5).toHaveLength(12);
    expect({ ...h1?.mid, volume: h1?.volume }).toEqual(combine(m1));
    expect(combine(m5)).toEqual(combine(m1));
  });

  it('makes a daily candle the aggregate of its hours, from 17:00 New York to 17:00', async () => {
    const [d] = (await candles('GBP_USD', 'granularity=D&count=1&from=2025-09-23T21:00:00Z')).candles;
    expect(d?.time).toBe('2025-09-23T21:00:00.000000000Z');
    const hours = (await candles('GBP_USD', 'granularity=H1&from=2025-09-23T21:00:00Z&to=2025-09-24T21:00:00Z'))
      .candles;
    expect(hours).toHaveLength(24);
    expect({ ...d?.mid, volume: d?.volume }).toEqual(combine(hours));
  });

  it('splits a minute into twelve 5-second candles that aggregate back to it', async () => {
    const [m] = (await candles('XAU_USD', 'granularity=M1&count=1&from=2025-10-01T09:17:00Z')).candles;
    const s5 = (await candles('XAU_USD', 'granularity=S5&from=2025-10-01T09:17:00Z&to=2025-10-01T09:18:00Z')).candles;
    expect(s5).toHaveLength(12);
    const mid = combine(s5);
    expect({ ...m?.mid, volume: m?.volume }).toEqual(mid);
  });
});

describe('parameters and limits', () => {
  it('defaults to 500 S5 mid candles ending now, the last incomplete', async () => {
    const body = await candles('USD_JPY', '');
    expect(body.granularity).toBe('S5');
    expect(body.candles).toHaveLength(500);
    expect(body.candles.every((c) => c.mid && !c.bid && !c.ask)).toBe(true);
    expect(body.candles.at(-1)?.complete).toBe(false);
    expect(body.candles.slice(0, -1).every((c) => c.complete)).toBe(true);
  });

  it('serves 5000 candles and refuses 5001, and ranges of more than 5000', async () => {
    expect((await candles('EUR_USD', 'granularity=M1&count=5000')).candles).toHaveLength(5000);
    const tooMany = await get(sim, '/v3/instruments/EUR_USD/candles?granularity=M1&count=5001');
    expect(tooMany.body).toEqual({ errorMessage: "Maximum value for 'count' exceeded" });
    const wide = await get(
      sim,
      '/v3/instruments/EUR_USD/candles?granularity=M1&from=2025-01-01T00:00:00Z&to=2025-03-01T00:00:00Z',
    );
    expect(wide.status).toBe(400);
    expect(wide.body).toEqual({ errorMessage: "Maximum value for 'count' exceeded" });
  });

  it('skips the weekend: no candle between Friday 17:00 and Sunday 17:00 New York', async () => {
    const body = await candles('EUR_USD', 'granularity=M15&from=2025-09-26T18:00:00Z&to=2025-09-28T23:00:00Z');
    const times = body.candles.map((c) => c.time);
    expect(times.at(0)).toBe('2025-09-26T18:00:00.000000000Z');
    expect(times).toContain('2025-09-26T20:45:00.000000000Z');
    expect(times).toContain('2025-09-28T21:00:00.000000000Z');
    expect(times.filter((t) => t > '2025-09-26T21' && t < '2025-09-28T21')).toEqual([]);
  });

  it('honours includeFirst=false and to', async () => {
    const first = await candles('EUR_USD', 'granularity=H1&count=2&from=2025-10-01T10:00:00Z');
    expect(first.candles.map((c) => c.time)).toEqual([
      '2025-10-01T10:00:00.000000000Z',
      '2025-10-01T11:00:00.000000000Z',
    ]);
    const skipped = await candles('EUR_USD', 'granularity=H1&count=1&from=2025-10-01T10:00:00Z&includeFirst=false');
    expect(skipped.candles[0]?.time).toBe('2025-10-01T11:00:00.000000000Z');
    const before = await candles('EUR_USD', 'granularity=H1&count=2&to=2025-10-01T10:00:00Z');
    expect(before.candles.map((c) => c.time)).toEqual([
      '2025-10-01T08:00:00.000000000Z',
      '2025-10-01T09:00:00.000000000Z',
    ]);
  });

  it('rejects a future to, count with both from and to, and bad values', async () => {
    const future = await get(sim, '/v3/instruments/EUR_USD/candles?granularity=M1&to=2030-01-01T00:00:00Z');
    expect(future.body).toEqual({ errorMessage: "Invalid value specified for 'to'. Time is in the future" });
    const both = await get(
      sim,
      '/v3/instruments/EUR_USD/candles?granularity=M1&count=5&from=2025-10-01T00:00:00Z&to=2025-10-01T01:00:00Z',
    );
    expect(both.status).toBe(400);
    for (const q of [
      'price=X',
      'price=MM',
      'count=-1',
      'from=yesterday',
      'dailyAlignment=24',
      'alignmentTimezone=Mars/Olympus',
      'weeklyAlignment=Funday',
    ]) {
      const res = await get(sim, `/v3/instruments/EUR_USD/candles?granularity=H1&${q}`);
      expect(res.status, q).toBe(400);
    }
  });

  it('speaks UNIX date-times when asked', async () => {
    const res = await get<CandlesBody>(sim, '/v3/instruments/EUR_USD/candles?granularity=H1&count=1&from=1759312800', {
      headers: { 'Accept-Datetime-Format': 'UNIX' },
    });
    expect(res.body.candles[0]?.time).toBe('1759312800.000000000');
    const trade = await get<{ trades: WireTrade[] }>(sim, `/v3/accounts/${account}/trades?state=ALL&count=1`, {
      headers: { 'Accept-Datetime-Format': 'UNIX' },
    });
    expect(trade.body.trades[0]?.openTime).toMatch(/^\d{10}\.\d{9}$/);
  });
});
