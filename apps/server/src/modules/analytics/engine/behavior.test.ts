import { describe, expect, it } from 'vitest';
import { computeMetrics } from './compute-metrics';
import type { BehaviorFacts, EngineTrade } from './types';

const MINUTE = 60_000;
let nextId = 1000;

/** A trade opened at `opened` (UTC, no 'Z'), closed `heldMinutes` later with `pl`, or open when null. */
function trade(opened: string, heldMinutes: number | null, pl: number, units = 10_000): EngineTrade {
  const openTime = Date.parse(`${opened}Z`);
  const closed = heldMinutes !== null;
  return {
    accountId: 'A1',
    tradeId: String(nextId++),
    instrument: 'EUR_USD',
    units,
    currentUnits: closed ? 0 : units,
    openPrice: 1.1,
    closePrice: closed ? 1.1 + pl / Math.abs(units) : null,
    openTime,
    closeTime: closed ? openTime + heldMinutes * MINUTE : null,
    state: closed ? 'CLOSED' : 'OPEN',
    realizedPL: closed ? pl : 0,
    unrealizedPL: 0,
    financing: 0,
    stopLossPrice: 1.09,
    takeProfitPrice: null,
    trailingStopDistance: null,
    initialStop: false,
    rMultiple: null,
  };
}

function behavior(trades: EngineTrade[]): BehaviorFacts {
  const metrics = computeMetrics(trades, [], { now: new Date('2025-07-01T00:00:00Z'), timeZone: 'UTC' });
  return metrics.facts.behavior!;
}

function card(trades: EngineTrade[]): Record<string, string> {
  return computeMetrics(trades, [], { now: new Date('2025-07-01T00:00:00Z'), timeZone: 'UTC' }).behavioralAnalysis!;
}

describe('holding losers longer than winners', () => {
  it('fires when the median loser is held at least 1.5 × the median winner', () => {
    // winners 60 60 90 min → median 60; losers 100 120 300 → median 120; 120 / 60 = 2.00
    const trades = [
      trade('2025-06-02T08:00', 60, 10),
      trade('2025-06-02T10:00', 60, 10),
      trade('2025-06-02T12:00', 90, 10),
      trade('2025-06-03T08:00', 100, -10),
      trade('2025-06-03T10:00', 120, -10),
      trade('2025-06-03T13:00', 300, -10),
    ];
    expect(behavior(trades).holding).toMatchObject({
      triggered: true,
      ratio: 2,
      winnersMedianMinutes: 60,
      losersMedianMinutes: 120,
    });
    expect(card(trades)['Holding Losers Longer']).toBe(
      'Detected: losers held 2.00× as long as winners (median 2h 0m vs 1h 0m)',
    );
  });

  it('stays quiet below the ratio', () => {
    // losers 70 80 90 → median 80; 80 / 60 = 1.33 < 1.5
    const trades = [
      trade('2025-06-02T08:00', 60, 10),
      trade('2025-06-02T10:00', 60, 10),
      trade('2025-06-02T12:00', 60, 10),
      trade('2025-06-03T08:00', 70, -10),
      trade('2025-06-03T10:00', 80, -10),
      trade('2025-06-03T12:00', 90, -10),
    ];
    expect(behavior(trades).holding).toMatchObject({ triggered: false, enoughData: true, ratio: 1.33 });
    expect(card(trades)['Holding Losers Longer']).toMatch(/^Not detected: losers held 1.33×/);
  });

  it('needs three wins and three losses', () => {
    // only two losses, however long they were held
    const trades = [
      trade('2025-06-02T08:00', 10, 10),
      trade('2025-06-02T10:00', 10, 10),
      trade('2025-06-02T12:00', 10, 10),
      trade('2025-06-03T08:00', 600, -10),
      trade('2025-06-03T20:00', 600, -10),
    ];
    expect(behavior(trades).holding).toMatchObject({ triggered: false, enoughData: false, ratio: 60 });
    expect(card(trades)['Holding Losers Longer']).toBe('Not enough data (needs 3 wins and 3 losses; have 3 and 2)');
  });
});

describe('revenge trading', () => {
  it('fires when bigger trades follow at least two losses within 30 minutes', () => {
    const trades = [
      // loss 1 closes 09:00; a 20k trade opens 09:10 (bigger, within 10 min) and loses 30
      trade('2025-06-02T08:00', 60, -20, 10_000),
      trade('2025-06-02T09:10', 20, -30, 20_000),
      // loss 2 (the 20k trade) closes 09:30; nothing bigger than 20k follows it
      // loss 3 closes 12:00; a 15k trade opens at exactly 12:30 (window is inclusive) and wins 10
      trade('2025-06-02T11:00', 60, -20, 10_000),
      trade('2025-06-02T12:30', 30, 10, 15_000),
      // loss 4 closes 15:00; the next trade is the same size → not bigger
      trade('2025-06-02T14:00', 60, -20, 10_000),
      trade('2025-06-02T15:05', 30, 5, 10_000),
    ];
    // losses: 4; followed: loss 1 and loss 3 → 2 of 4 = 50 % (≥ 2 and ≥ 10 %)
    // wins (closing 13:00 and 15:35) are followed by nothing → baseline 0 %
    // follow-up trades: the 20k (-30) and the 15k (+10) → net -20, 1 win of 2 = 50 %
    expect(behavior(trades).revenge).toEqual({
      triggered: true,
      losses: 4,
      lossesFollowed: 2,
      followedShare: 50,
      wins: 2,
      winsFollowed: 0,
      winsFollowedShare: 0,
      revengeTrades: 2,
      revengeClosedTrades: 2,
      revengeNetPL: -20,
      revengeWinRate: 50,
    });
    expect(card(trades)['Revenge Trading']).toBe(
      'Detected: 2 of 4 losses (50.0%) followed by a bigger trade within 30 min, after wins 0 of 2 (0.0%); those trades netted -20.00',
    );
  });

  it('ignores bigger trades after the window and smaller ones inside it', () => {
    const trades = [
      trade('2025-06-02T08:00', 60, -20, 10_000),
      trade('2025-06-02T09:31', 30, 10, 50_000), // 31 min after the 09:00 close
      trade('2025-06-02T11:00', 60, -20, 10_000),
      trade('2025-06-02T12:05', 30, 10, 5_000), // inside the window but smaller
      trade('2025-06-02T14:00', 60, -20, 10_000),
      trade('2025-06-02T13:30', 120, 10, 50_000), // opened before the loss closed
    ];
    expect(behavior(trades).revenge).toMatchObject({
      triggered: false,
      losses: 3,
      lossesFollowed: 0,
      revengeTrades: 0,
    });
  });

  it('compares sizes relative to the usual size on each instrument', () => {
    const gold = (t: EngineTrade): EngineTrade => ({ ...t, instrument: 'XAU_USD' });
    const trades = [
      // usual sizes: EUR_USD 10,000 units, XAU_USD 10 oz
      trade('2025-06-02T06:00', 30, 5, 10_000),
      gold(trade('2025-06-02T06:00', 30, 5, 10)),
      gold(trade('2025-06-02T06:40', 30, 5, 10)),
      // an EUR_USD loss (1.0× usual) followed by 20 oz of gold (2.0× usual): bigger, although 20 < 10,000
      trade('2025-06-02T08:00', 60, -20, 10_000),
      gold(trade('2025-06-02T09:05', 30, -5, 20)),
      // a gold loss at 2.0× (closes 09:35) followed by 15,000 EUR_USD (1.5×): not bigger
      trade('2025-06-02T09:40', 30, 5, 15_000),
    ];
    expect(behavior(trades).revenge).toMatchObject({
      losses: 2,
      lossesFollowed: 1,
      revengeTrades: 1,
      revengeNetPL: -5,
    });
  });

  it('stays quiet when wins are followed by bigger trades just as often', () => {
    // a busy trader alternating 10k and 20k: every close, win or loss, is followed 10 min later by the other size
    const trades: EngineTrade[] = [];
    for (let k = 0; k < 12; k++) {
      const opened = `2025-06-02T${String(6 + k).padStart(2, '0')}:00`;
      trades.push(trade(opened, 50, k % 4 < 2 ? -10 : 10, k % 2 === 0 ? 10_000 : 20_000));
    }
    // 10k trades (k even) are followed by a 20k: losses k = 0, 4, 8 → 3 of 6 followed (50 %);
    // wins k = 2, 6, 10 → 3 of 6 followed (50 %); 50 % < 1.5 × 50 %
    expect(behavior(trades).revenge).toMatchObject({
      triggered: false,
      lossesFollowed: 3,
      followedShare: 50,
      winsFollowed: 3,
      winsFollowedShare: 50,
    });
  });

  it('needs more than a single occurrence', () => {
    const trades = [
      trade('2025-06-02T08:00', 60, -20, 10_000),
      trade('2025-06-02T09:05', 30, 10, 20_000),
      trade('2025-06-02T11:00', 60, -20, 10_000),
      trade('2025-06-02T14:00', 60, -20, 10_000),
    ];
    expect(behavior(trades).revenge).toMatchObject({
      triggered: false,
      losses: 3,
      lossesFollowed: 1,
      followedShare: 33.3,
    });
  });

  it('needs at least 10 % of losses to be followed', () => {
    // 21 losses a day apart, two of them followed by a bigger trade: 2 / 21 = 9.5 % < 10 %
    const trades: EngineTrade[] = [];
    for (let day = 1; day <= 21; day++) {
      trades.push(trade(`2025-05-${String(day).padStart(2, '0')}T08:00`, 60, -10, 10_000));
    }
    trades.push(trade('2025-05-01T09:05', null, 0, 20_000), trade('2025-05-02T09:05', null, 0, 20_000));
    expect(behavior(trades).revenge).toMatchObject({
      triggered: false,
      losses: 21,
      lossesFollowed: 2,
      followedShare: 9.5,
    });
  });
});

describe('over-trading days', () => {
  /** `count` trades opened on `date` an hour apart, each with `pl`. */
  function day(date: string, count: number, pl: number): EngineTrade[] {
    return Array.from({ length: count }, (_, k) => trade(`${date}T${String(8 + k).padStart(2, '0')}:00`, 30, pl));
  }

  it('flags days with at least max(2 × median, median + 3) trades', () => {
    const trades = [
      ...day('2025-06-02', 2, 10),
      ...day('2025-06-03', 2, 10),
      ...day('2025-06-04', 2, 10),
      ...day('2025-06-05', 2, -10),
      ...day('2025-06-06', 2, 10),
      ...day('2025-06-09', 6, -15),
    ];
    // trades per day 2 2 2 2 2 6 → median 2; threshold max(4, 5) = 5 → 06-09 with 6 trades
    // its net: 6 × -15 = -90, no win; other days: 8 wins of 10 closed = 80 %
    expect(behavior(trades).overtrading).toEqual({
      triggered: true,
      enoughData: true,
      activeDays: 6,
      medianTradesPerDay: 2,
      threshold: 5,
      overtradingDays: 1,
      days: [{ date: '2025-06-09', trades: 6, netPL: -90 }],
      overtradingNetPL: -90,
      overtradingWinRate: 0,
      otherDaysWinRate: 80,
    });
    expect(card(trades)['Over-trading Days']).toBe(
      'Detected: 1 day with 5+ trades (median 2.0); net -90.00 on those days',
    );
  });

  it('does not flag a day just under the threshold', () => {
    const trades = [
      ...day('2025-06-02', 2, 10),
      ...day('2025-06-03', 2, 10),
      ...day('2025-06-04', 2, 10),
      ...day('2025-06-05', 2, 10),
      ...day('2025-06-06', 4, 10),
    ];
    // median 2, threshold 5; the busiest day has 4
    expect(behavior(trades).overtrading).toMatchObject({ triggered: false, threshold: 5, overtradingDays: 0 });
  });

  it('needs five active days', () => {
    const trades = [
      ...day('2025-06-02', 1, 10),
      ...day('2025-06-03', 1, 10),
      ...day('2025-06-04', 1, 10),
      ...day('2025-06-05', 9, 10),
    ];
    expect(behavior(trades).overtrading).toMatchObject({ triggered: false, enoughData: false, activeDays: 4 });
    expect(card(trades)['Over-trading Days']).toBe('Not enough data (needs 5 active days; have 4)');
  });
});
