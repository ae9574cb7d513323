/**
 * computeMetrics on the hand-checked fixture (test/hand-checked-trades.ts lists every trade). Each
 * expected value below is worked out by hand from that table, in the comments, in UTC.
 */
import { describe, expect, it } from 'vitest';
import { computeMetrics } from './compute-metrics';
import { FIXTURE_ACCOUNTS, FIXTURE_NOW, FIXTURE_TRADES } from '../../../test/hand-checked-trades';
import type { EngineTrade } from './types';

const utc = computeMetrics(FIXTURE_TRADES, FIXTURE_ACCOUNTS, { now: FIXTURE_NOW, timeZone: 'UTC' });

describe('headline fields', () => {
  it('counts trades, accounts and the last week', () => {
    expect(utc.tradeCount).toBe(16);
    expect(utc.accountCount).toBe(2);
    // now = Fri 09-12 12:00, so the window starts Fri 09-05 12:00:
    // 110 (09-05 13:00), 111, 112, 113, 114, 115, 116 → 7; 109 (09-05 08:00) is just outside.
    expect(utc.weeklyTrades).toBe(7);
  });

  it('takes win and loss rates over closed trades, break-evens apart', () => {
    // 12 closed: wins 101 103 107 108 109 112 = 6, losses 102 105 106 111 = 4, break-even 104 110 = 2
    // 6/12 = 50.0 %, 4/12 = 33.33 → 33.3 %
    expect(utc.winRate).toBe(50);
    expect(utc.lossRate).toBe(33.3);
  });

  it('finds the top instrument and the average holding time', () => {
    // EUR_USD 8 trades (101 104 105 107 109 112 113 116), USD_JPY 4, XAU_USD 4
    expect(utc.topInstrument).toBe('EUR_USD');
    // holds in minutes: 120 60 240 30 240 1440 420 120 120 15 480 1440 = 4725; / 12 = 393.75
    // = 6 h 33.75 m → rounded to the minute 6h 34m
    expect(utc.avgHoldingTime).toBe('6h 34m');
  });

  it('writes one summary sentence with the key numbers', () => {
    expect(utc.summary).toBe(
      '16 trades on 2 accounts: 12 closed with a 50.0% win rate, net P/L 55.00 USD, profit factor 1.28, max drawdown 100.00 USD (1.0%).',
    );
  });
});

describe('performance metrics', () => {
  const card = utc.performanceMetrics!;

  it('sums profit and loss', () => {
    // gross profit 50 + 25 + 30 + 50 + 40 + 60 = 255; gross loss -40 - 40 - 20 - 100 = -200; net 55
    expect(card['Closed Trades']).toBe('12 (6 W / 4 L / 2 BE)');
    expect(card['Net P/L']).toBe('55.00 USD');
    expect(card['Gross Profit']).toBe('255.00 USD');
    expect(card['Gross Loss']).toBe('-200.00 USD');
    // 255 / 200 = 1.275 → half away from zero → 1.28 (1.275 is 1.27499… in binary: a naive toFixed says 1.27)
    expect(card['Profit Factor']).toBe('1.28');
    // 55 / 12 = 4.5833 → 4.58
    expect(card['Expectancy per Trade']).toBe('4.58 USD');
  });

  it('averages wins and losses', () => {
    // 255 / 6 = 42.50; -200 / 4 = -50.00; payoff 42.5 / 50 = 0.85
    expect(card['Average Win']).toBe('42.50 USD');
    expect(card['Average Loss']).toBe('-50.00 USD');
    expect(card['Payoff Ratio']).toBe('0.85');
    expect(card['Largest Win']).toBe('60.00 USD');
    expect(card['Largest Loss']).toBe('-100.00 USD');
    // break-even win rate 100 / (1 + 0.85) = 54.05 → 54.1
    expect(utc.facts.performance?.breakEvenWinRate).toBe(54.1);
  });

  it('measures the drawdown of the closed-trade equity curve', () => {
    // close order: 101 +50, 102 -40, 103 +25, 104 0, 105 -40, 106 -20 (09-04 13:00), 107 +30 (09-04 15:00),
    //              108 +50, 109 +40, 110 0, 111 -100, 112 +60
    // cumulative:  50, 10, 35, 35, -5, -25, 5, 55, 95, 95, -5, 55
    // running peak 50 until 108 (55), 95 from 109: drawdowns 0 40 15 15 55 75 45 0 0 0 100 40 → max 100
    expect(card['Max Drawdown']).toBe('100.00 USD');
    // starting equity = balances 5106.50 + 4957.20 = 10063.70, minus everything booked:
    //   realized 55 (closed) + 15 (partial close of 114) = 70, financing -6.30 → 10063.70 - 70 + 6.30 = 10000.00
    // % drawdowns: 75 / (10000 + 50) = 0.746 %, 100 / (10000 + 95) = 0.9906 % → max 0.99 → 1.0 %
    expect(utc.facts.performance?.startingEquity).toBe(10000);
    expect(card['Max Drawdown %']).toBe('1.0%');
    expect(utc.charts.equityCurve.map((p) => p.value)).toEqual([50, 10, 35, 35, -5, -25, 5, 55, 95, 95, -5, 55]);
    expect(utc.charts.drawdown.map((p) => p.value)).toEqual([0, -40, -15, -15, -55, -75, -45, 0, 0, 0, -100, -40]);
    // -100 / 10095 × 100 = -0.9906 → -0.99
    expect(utc.charts.drawdownPercent[10]).toEqual({ time: Date.UTC(2025, 8, 8, 15, 30) / 1000, value: -0.99 });
  });

  it('computes the Sharpe ratio of daily returns', () => {
    // daily P/L by close day: Mon 09-01 50-40 = 10; Tue 09-02 25+0 = 25; Wed 09-03 -40;
    //   Thu 09-04 -20+30+50 = 60; Fri 09-05 40+0 = 40; (Sat, Sun: nothing, skipped);
    //   Mon 09-08 -100; Tue 09-09 nothing but a weekday → 0; Wed 09-10 +60  → 8 days
    // equity at each day's start: 10000, 10010, 10035, 9995, 10055, 10095, 9995, 9995
    // returns: .0010000, .0024975, -.0039860, .0060030, .0039781, -.0099059, 0, .0060030
    // mean = .0055897 / 8 = .00069871; squared deviations sum .00020524 / 7 → sd .0054149
    // Sharpe = .00069871 / .0054149 × √252 (15.875) = 2.048 → 2.05
    expect(card['Sharpe Ratio']).toBe('2.05');
    expect(utc.facts.performance?.sharpeDays).toBe(8);
  });

  it('counts streaks, keeps financing apart and sums pips', () => {
    // W L W BE L L W W W BE L W → longest win 3 (107 108 109), longest loss 2 (105 106), current: 1 win
    expect(card['Longest Win Streak']).toBe('3');
    expect(card['Longest Loss Streak']).toBe('2');
    expect(card['Current Streak']).toBe('1 win');
    // financing of closed trades: -0.50 - 1.00 - 1.50 - 2.00 - 0.80 = -5.80; 55 - 5.80 = 49.20
    expect(card.Financing).toBe('-5.80 USD');
    expect(card['Net P/L after Financing']).toBe('49.20 USD');
    // pips: 101 +50, 102 (147.300-147.000)×-1/0.01 = -30, 103 2.50/0.01 = +250, 104 0, 105 -20,
    //       106 -30, 107 +30, 108 (3415-3420)×-1/0.01 = +500, 109 +40, 110 0, 111 -20/0.01 = -2000, 112 +60
    // won 50+250+30+500+40+60 = 930; lost -30-20-30-2000 = -2080; net -1150
    expect(card['Pips Won']).toBe('930.0');
    expect(card['Pips Lost']).toBe('-2,080.0');
    expect(card['Net Pips']).toBe('-1,150.0');
  });
});

describe('trading profile', () => {
  const card = utc.tradingProfile!;

  it('derives the style from the median holding time', () => {
    // sorted holds (min): 15 30 60 120 120 120 | 240 240 420 480 1440 1440 → median (120 + 240) / 2 = 180 = 3h
    // 15 min ≤ 3 h < 24 h → day trader
    expect(card['Trading Style']).toBe('Day trader (median hold 3h 0m)');
  });

  it('lists favourites, session, direction, size and activity', () => {
    // ties at 4 trades go alphabetically
    expect(card['Favourite Instruments']).toBe('EUR_USD (8), USD_JPY (4), XAU_USD (4)');
    // September = summer time: London 07:00-12:00 UTC, New York 12:00-21:00, Asia the rest.
    // London: 101 (08:30) 103 (07:00) 105 107 109 111 (07:30) 112 113 116 = 9; New York: 102 104 106 108 110 115 = 6;
    // Asia: 114 (01:00) = 1 → London 9/16 = 56.25 → 56.3 %
    expect(card['Most Active Session']).toBe('London (56.3% of trades)');
    expect(utc.facts.profile?.sessions.map((s) => s.trades)).toEqual([1, 9, 6]);
    // long: 101 103 105 106 107 111 112 113 115 = 9; short: 102 104 108 109 110 114 116 = 7 → 56.25 / 43.75
    expect(card['Long / Short']).toBe('56.3% / 43.8% (9 / 7)');
    // |units| sorted: 5 5 10 10, 10000 ×9, 15000, 20000 20000 → 8th and 9th are 10000
    expect(card['Typical Position Size']).toBe('10,000 units');
    // open days: 09-01 09-02 09-03 09-04 09-05 09-08 09-09 09-10 09-11 09-12 = 10 → 16 / 10 = 1.6
    expect(card['Trades per Active Day']).toBe('1.6 (10 active days)');
  });
});

describe('instrument breakdown', () => {
  it('nests trades, win rate, net P/L, holding time and pips per instrument', () => {
    expect(utc.instrumentBreakdown).toEqual({
      // closed 101 104 105 107 109 112: wins 4 / 6 = 66.7 %; net 50+0-40+30+40+60 = 140;
      // hold (120+30+240+420+120+1440) / 6 = 395 min; pips 50+0-20+30+40+60 = 160
      EUR_USD: {
        Trades: '8 (6 closed)',
        'Win Rate': '66.7%',
        'Net P/L': '140.00 USD',
        'Avg Holding Time': '6h 35m',
        Pips: '160.0',
        // |units| 10000 ×7 and 20000 (105) → median 10000
        'Typical Size': '10,000 units',
      },
      // closed 102 106 110: no win; net -40-20+0 = -60; hold (60+1440+15) / 3 = 505 min; pips -30-30+0
      USD_JPY: {
        Trades: '4 (3 closed)',
        'Win Rate': '0.0%',
        'Net P/L': '-60.00 USD',
        'Avg Holding Time': '8h 25m',
        Pips: '-60.0',
        // |units| 10000 10000 15000 20000 → (10000 + 15000) / 2
        'Typical Size': '12,500 units',
      },
      // closed 103 108 111: 2 wins of 3; net 25+50-100 = -25; hold (240+120+480) / 3 = 280 min; 250+500-2000
      XAU_USD: {
        Trades: '4 (3 closed)',
        'Win Rate': '66.7%',
        'Net P/L': '-25.00 USD',
        'Avg Holding Time': '4h 40m',
        Pips: '-1,250.0',
        // |units| 5 5 10 10 → 7.5
        'Typical Size': '7.5 units',
      },
    });
    // the chart: net P/L by instrument, best first
    expect(utc.charts.pnlByInstrument).toEqual([
      { instrument: 'EUR_USD', netPL: 140, trades: 6 },
      { instrument: 'XAU_USD', netPL: -25, trades: 3 },
      { instrument: 'USD_JPY', netPL: -60, trades: 3 },
    ]);
  });
});

describe('risk assessment', () => {
  it('reads stop-losses from the trades and margin from the accounts', () => {
    expect(utc.riskAssessment).toEqual({
      // initial stop: 101 102 103 105 107 108 109 112 113 (116's trailing stop is no initial stop) → 9 of 16 = 56.25 → 56.3 %
      'Trades with an Initial Stop': '9 of 16 (56.3%)',
      // R of the 8 closed trades with an initial stop: 1 − 0.6 + 0.25 − 1 + 1 + 0.5 + 1 + 1.2 = 3.35; / 8 = 0.41875 → 0.42.
      // Closed without one: 104 106 110 111.
      'Average R': '0.42R (over 8 closed trades; 4 closed trades without an initial stop left out)',
      // wins 101 103 107 108 109 112: 4.95 / 6 = 0.825 → 0.83; losses 102 105: −1.6 / 2 = −0.80;
      // 6/8 × 0.825 + 2/8 × −0.8 = 0.61875 − 0.2 = 0.41875 → 0.42
      'Expectancy in R': '0.42R (average win 0.83R, average loss -0.80R)',
      // open 113 (SL) 114 (none) 115 (none) 116 (trailing) → 2 of 4
      'Open Trades without Stop-Loss': '2 of 4',
      // 100 / 42.50 = 2.353 → 2.35
      'Worst Loss vs Average Win': '-100.00 USD = 2.35× the average win (42.50 USD)',
      'Longest Loss Streak': '2',
      'Current Loss Streak': '0',
      // (300 + 203.34) / (5115.50 + 4951.20) = 503.34 / 10066.70 = 5.00005 % → 5.0 %
      'Margin Utilisation': '5.0%',
      // 15000 + 28000 = 43000; / 10066.70 = 4.2715 → 4.27
      'Open Exposure': '43,000.00 USD (4.27× NAV)',
      // 9 - 6 = 3
      'Unrealized P/L': '3.00 USD',
    });
    // A1 300 / 5115.50 = 5.86 % beats A2 203.34 / 4951.20 = 4.11 %
    expect(utc.facts.risk?.maxAccountMarginUtilisation).toBe(5.9);
    expect(utc.facts.risk?.maxAccountMarginId).toBe('A1');
  });
});

describe('behavioural analysis', () => {
  const card = utc.behavioralAnalysis!;

  it('runs the three detectors', () => {
    // winners' holds 120 120 120 240 420 1440 → median 180; losers' 60 240 480 1440 → median 360; 360/180 = 2.00 ≥ 1.5
    expect(card['Holding Losers Longer']).toBe(
      'Detected: losers held 2.00× as long as winners (median 6h 0m vs 3h 0m)',
    );
    // losses close at 09-01 14:00, 09-03 12:00, 09-04 13:00, 09-08 15:30; no trade opens within 30 min of
    // any; nor within 30 min of the 6 wins' closes (the nearest: 113 opens 60 min after 112 closes)
    expect(card['Revenge Trading']).toBe(
      'Not detected: 0 of 4 losses (0.0%) followed by a bigger trade within 30 min, after wins 0 of 6 (0.0%)',
    );
    // trades per open day 2 2 2 2 2 1 1 1 2 1 → median 2; threshold max(2×2, 2+3) = 5; busiest day has 2
    expect(card['Over-trading Days']).toBe('Not detected: no day reached 5 trades (median 2.0)');
  });

  it('finds the best and worst weekday and hour by open time', () => {
    // Mon: 101 +50, 102 -40, 111 -100 = -90 (1 win of 3); Tue: 103 +25, 104 0, 112 +60 = +85 (2 of 3);
    // Wed, Thu, Fri have 2 closed trades each, below the 3 needed
    expect(card['Best Weekday']).toBe('Tuesday: 85.00 USD over 3 trades (66.7% wins)');
    expect(card['Worst Weekday']).toBe('Monday: -90.00 USD over 3 trades (33.3% wins)');
    // 08h: 101 +50, 105 -40, 107 +30, 109 +40, 112 +60 = +140 (4 of 5); 13h: 102 -40, 104 0, 106 -20, 110 0 = -60
    expect(card['Best Hour']).toBe('08:00–09:00: 140.00 USD over 5 trades (80.0% wins)');
    expect(card['Worst Hour']).toBe('13:00–14:00: -60.00 USD over 4 trades (0.0% wins)');
    expect(card['Time Zone']).toBe('UTC');
  });

  it('fills the weekday and hour chart series', () => {
    // Wed: 105 -40, 106 -20; Thu: 107 +30, 108 +50; Fri: 109 +40, 110 0
    expect(utc.charts.byWeekday.map((b) => [b.label, b.trades, b.netPL])).toEqual([
      ['Monday', 3, -90],
      ['Tuesday', 3, 85],
      ['Wednesday', 2, -60],
      ['Thursday', 2, 80],
      ['Friday', 2, 40],
      ['Saturday', 0, 0],
      ['Sunday', 0, 0],
    ]);
    expect(utc.charts.byHour).toHaveLength(24);
    // 07h: 103 +25, 111 -100; 14h: 108 +50
    expect(utc.charts.byHour[7]).toMatchObject({ hour: 7, trades: 2, wins: 1, losses: 1, netPL: -75, winRate: 50 });
    expect(utc.charts.byHour[14]).toMatchObject({ label: '14:00–15:00', trades: 1, netPL: 50 });
  });
});

describe('input handling', () => {
  it('gives the same result whatever the order of the input', () => {
    const shuffled: EngineTrade[] = [...FIXTURE_TRADES].reverse();
    [shuffled[3], shuffled[9]] = [shuffled[9]!, shuffled[3]!];
    const again = computeMetrics(shuffled, [...FIXTURE_ACCOUNTS].reverse(), { now: FIXTURE_NOW, timeZone: 'UTC' });
    expect(again).toEqual(utc);
  });

  it('orders trades closed at the same instant by trade id', () => {
    const base = FIXTURE_TRADES[0]!;
    const closeTime = Date.parse('2025-09-01T12:00:00Z');
    // '999' < '1000' numerically although not as text: 999 (-10) closes first, then 1000 (+20)
    const a: EngineTrade = { ...base, tradeId: '999', closeTime, realizedPL: -10 };
    const b: EngineTrade = { ...base, tradeId: '1000', closeTime, realizedPL: 20 };
    for (const input of [
      [a, b],
      [b, a],
    ]) {
      const metrics = computeMetrics(input, [], { now: FIXTURE_NOW, timeZone: 'UTC' });
      // cumulative -10 then +10: a 10.00 drawdown from the starting 0, and the last trade won
      expect(metrics.performanceMetrics?.['Max Drawdown']).toBe('10.00');
      expect(metrics.performanceMetrics?.['Current Streak']).toBe('1 win');
      // one chart point for the shared second, holding the later value
      expect(metrics.charts.equityCurve).toEqual([{ time: closeTime / 1000, value: 10 }]);
    }
  });

  it('shows null cards and empty charts without trades', () => {
    const empty = computeMetrics([], [], { now: FIXTURE_NOW, timeZone: 'Europe/Paris' });
    expect(empty).toMatchObject({
      tradeCount: 0,
      accountCount: 0,
      winRate: null,
      lossRate: null,
      topInstrument: null,
      avgHoldingTime: null,
      weeklyTrades: 0,
      summary: null,
      performanceMetrics: null,
      tradingProfile: null,
      instrumentBreakdown: null,
      riskAssessment: null,
      behavioralAnalysis: null,
    });
    expect(empty.charts.equityCurve).toEqual([]);
    expect(empty.charts.pnlByInstrument).toEqual([]);
    expect(empty.charts.byWeekday.every((b) => b.trades === 0 && b.winRate === null)).toBe(true);
  });

  it('counts accounts that have no trades yet', () => {
    const accountsOnly = computeMetrics([], FIXTURE_ACCOUNTS, { now: FIXTURE_NOW, timeZone: 'UTC' });
    expect(accountsOnly.accountCount).toBe(2);
    expect(accountsOnly.riskAssessment).toBeNull();
  });

  it('handles open trades only', () => {
    const open = FIXTURE_TRADES.filter((t) => t.state !== 'CLOSED');
    const metrics = computeMetrics(open, FIXTURE_ACCOUNTS, { now: FIXTURE_NOW, timeZone: 'UTC' });
    expect(metrics.tradeCount).toBe(4);
    expect(metrics.winRate).toBeNull();
    expect(metrics.performanceMetrics).toBeNull();
    expect(metrics.summary).toBe('4 trades on 2 accounts, none closed yet; 4 trades open.');
    expect(metrics.riskAssessment?.['Open Trades without Stop-Loss']).toBe('2 of 4');
    expect(metrics.tradingProfile?.['Trading Style']).toBe('-');
  });

  it('shows amounts without a currency code when accounts use several', () => {
    const mixed = FIXTURE_ACCOUNTS.map((a, i) => ({ ...a, currency: i === 0 ? 'USD' : 'EUR' }));
    const metrics = computeMetrics(FIXTURE_TRADES, mixed, { now: FIXTURE_NOW, timeZone: 'UTC' });
    expect(metrics.facts.currency).toBeNull();
    expect(metrics.facts.currencies).toEqual(['EUR', 'USD']);
    expect(metrics.performanceMetrics?.['Net P/L']).toBe('55.00');
  });

  it('leaves drawdown % and Sharpe empty when the starting equity is unknown', () => {
    const metrics = computeMetrics(FIXTURE_TRADES, [], { now: FIXTURE_NOW, timeZone: 'UTC' });
    expect(metrics.performanceMetrics?.['Max Drawdown']).toBe('100.00');
    expect(metrics.performanceMetrics?.['Max Drawdown %']).toBe('-');
    expect(metrics.performanceMetrics?.['Sharpe Ratio']).toBe('-');
    expect(metrics.charts.drawdownPercent).toEqual([]);
  });

  it('uses broker pip sizes when given', () => {
    // gold at 0.1 a pip: 103 +25, 108 +50, 111 -200 → instrument net -125
    const metrics = computeMetrics(FIXTURE_TRADES, FIXTURE_ACCOUNTS, {
      now: FIXTURE_NOW,
      timeZone: 'UTC',
      pipSizes: { XAU_USD: 0.1 },
    });
    expect(metrics.instrumentBreakdown?.XAU_USD?.Pips).toBe('-125.0');
  });

  it('rejects an unknown time zone', () => {
    expect(() => computeMetrics(FIXTURE_TRADES, [], { now: FIXTURE_NOW, timeZone: 'Mars/Olympus' })).toThrow(
      RangeError,
    );
  });
});
