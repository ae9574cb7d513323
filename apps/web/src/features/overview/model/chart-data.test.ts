import { describe, expect, it } from 'vitest';
import { bucketSeries, bucketSummary, CATEGORY_EPOCH, instrumentBars, maxDrawdown, signedMoney } from './chart-data';

describe('maxDrawdown', () => {
  it('is the deepest point below the peak, as a positive amount', () => {
    expect(
      maxDrawdown([
        { time: 1, value: 0 },
        { time: 2, value: -60.5 },
        { time: 3, value: -10 },
      ]),
    ).toBe(60.5);
    expect(maxDrawdown([])).toBe(0);
  });
});

describe('signedMoney', () => {
  it('signs profits and losses and rounds to cents', () => {
    expect(signedMoney(1234.5)).toBe(`+${(1234.5).toLocaleString(undefined, { minimumFractionDigits: 2 })}`);
    expect(signedMoney(-12)).toBe('-12.00');
    expect(signedMoney(0.004)).toBe('0.00');
    expect(signedMoney(-0.004)).toBe('0.00');
  });
});

describe('instrumentBars', () => {
  it('sorts best first and scales each bar to the largest result either way', () => {
    const bars = instrumentBars([
      { instrument: 'USD_JPY', netPL: -200, trades: 2 },
      { instrument: 'EUR_USD', netPL: 50, trades: 5 },
      { instrument: 'GBP_USD', netPL: 0, trades: 1 },
      { instrument: 'AUD_USD', netPL: 0.5, trades: 1 },
    ]);
    expect(bars.map((bar) => [bar.label, bar.share])).toEqual([
      ['EUR/USD', 25],
      ['AUD/USD', 1],
      ['GBP/USD', 0],
      ['USD/JPY', 100],
    ]);
  });
});

describe('bucketSeries', () => {
  const bucket = (label: string, trades: number, netPL: number) => ({
    label,
    trades,
    wins: trades > 0 && netPL > 0 ? trades : 0,
    losses: trades > 0 && netPL < 0 ? trades : 0,
    netPL,
    winRate: trades === 0 ? null : netPL > 0 ? 100 : 0,
  });

  it('puts weekdays a day apart from a fixed Monday, with short labels and no bar for an empty day', () => {
    const series = bucketSeries(
      [bucket('Monday', 3, 120), bucket('Tuesday', 0, 0), bucket('Wednesday', 2, -25)],
      'weekday',
    );
    expect(new Date(CATEGORY_EPOCH * 1000).getUTCDay()).toBe(1);
    expect(series.bars).toEqual([
      { time: CATEGORY_EPOCH, value: 120, color: '#2eb85c' },
      { time: CATEGORY_EPOCH + 86_400 },
      { time: CATEGORY_EPOCH + 2 * 86_400, value: -25, color: '#e55353' },
    ]);
    expect([...series.ticks.values()]).toEqual(['Mon', 'Tue', 'Wed']);
    expect(series.byTime.get(CATEGORY_EPOCH + 2 * 86_400)?.label).toBe('Wednesday');
    expect(series.hasTrades).toBe(true);
  });

  it('puts hours a day apart too, labelled by their hour', () => {
    const series = bucketSeries(
      [
        { ...bucket('00:00–01:00', 0, 0), hour: 0 },
        { ...bucket('09:00–10:00', 1, 5), hour: 9 },
      ],
      'hour',
    );
    expect(series.bars.map((bar) => bar.time)).toEqual([CATEGORY_EPOCH, CATEGORY_EPOCH + 86_400]);
    expect([...series.ticks.values()]).toEqual(['00', '09']);
  });

  it('says when no bucket has a closed trade', () => {
    expect(bucketSeries([bucket('Monday', 0, 0)], 'weekday').hasTrades).toBe(false);
  });
});

describe('bucketSummary', () => {
  it('names the result, the trades and the win rate', () => {
    expect(bucketSummary({ label: 'Tuesday', trades: 14, wins: 8, losses: 6, netPL: 120.5, winRate: 57.1 })).toBe(
      'Tuesday: +120.50 over 14 trades, 57.1% wins',
    );
    expect(bucketSummary({ label: 'Sunday', trades: 0, wins: 0, losses: 0, netPL: 0, winRate: null })).toBe(
      'Sunday: no closed trades',
    );
  });
});
