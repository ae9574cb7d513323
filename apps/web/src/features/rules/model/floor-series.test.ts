import { describe, expect, it } from 'vitest';
import type { RuleLine } from '@pipsense/contract';
import { day } from '../../../test/rules-fixtures';
import { chartResolution, chartSummary, floorLines, targetLevel } from './floor-series';

const s = (iso: string) => Date.parse(iso) / 1000;

const moneyLine = (kind: RuleLine['kind'], fields: Partial<RuleLine> = {}): RuleLine =>
  ({
    kind,
    unit: 'money',
    limit: '10000.0000',
    used: '0',
    remaining: '10000.0000',
    percentUsed: '0.00',
    floor: null,
    ok: true,
    ...fields,
  }) as RuleLine;

/** Europe/Prague: UTC+1 until 2025-03-30T01:00Z, UTC+2 after (the spring switch: a 23-hour day). */
const prague = (utcSeconds: number) => (utcSeconds < s('2025-03-30T01:00:00Z') ? 3600 : 7200);

/** Three days reset at 00:00 Prague: the 29th (24 h), the 30th (23 h, the switch), the 31st (no daily floor). */
const DST_DAYS = [
  day({
    date: '2025-03-29',
    start: '2025-03-28T23:00:00.000Z',
    end: '2025-03-29T23:00:00.000Z',
    floor: '95000.0000',
    lines: [moneyLine('max_loss', { floor: '90000.0000' }), moneyLine('profit_target')],
  }),
  day({
    date: '2025-03-30',
    start: '2025-03-29T23:00:00.000Z',
    end: '2025-03-30T22:00:00.000Z',
    floor: '95120.5000',
    lines: [moneyLine('max_loss', { floor: '90000.0000' }), moneyLine('profit_target')],
  }),
  day({
    date: '2025-03-31',
    start: '2025-03-30T22:00:00.000Z',
    end: '2025-03-31T22:00:00.000Z',
    floor: null,
    lowestEquity: null,
    lines: [moneyLine('max_loss', { floor: '90250.2500' }), moneyLine('profit_target')],
  }),
];
const NOW = Date.parse('2025-03-31T12:00:00Z');

describe('floor series', () => {
  it('holds each day’s daily-loss floor from its reset to the next, keeping the 23-hour day 23 hours long', () => {
    const { dailyLoss } = floorLines(DST_DAYS, '100000', NOW, prague);
    expect(dailyLoss).toEqual([
      // 29 March 00:00 Prague (23:00Z the day before, +1 h).
      { time: s('2025-03-29T00:00:00Z'), value: 95000 },
      // 30 March 00:00 Prague: the switch day starts at local midnight …
      { time: s('2025-03-30T00:00:00Z'), value: 95120.5 },
      // … and ends at the next local midnight, 23 hours later in UTC (22:00Z, +2 h); the 31st has no floor: a gap.
      { time: s('2025-03-31T00:00:00Z'), value: 95120.5, color: 'transparent' },
    ]);
    expect(s('2025-03-30T22:00:00Z') - s('2025-03-29T23:00:00Z')).toBe(23 * 3600);
  });

  it('draws the max-loss floor of each day’s end up to now, and the target across the same span', () => {
    const { maxLoss, target } = floorLines(DST_DAYS, '100000', NOW, prague);
    expect(maxLoss).toEqual([
      { time: s('2025-03-29T00:00:00Z'), value: 90000 },
      { time: s('2025-03-30T00:00:00Z'), value: 90000 },
      { time: s('2025-03-31T00:00:00Z'), value: 90250.25 },
      // Now: 12:00Z is 14:00 in Prague.
      { time: s('2025-03-31T14:00:00Z'), value: 90250.25 },
    ]);
    expect(target).toEqual([
      { time: s('2025-03-29T00:00:00Z'), value: 110000 },
      { time: s('2025-03-31T14:00:00Z'), value: 110000 },
    ]);
  });

  it('resumes after a day without a floor and leaves days not begun out', () => {
    const days = [
      DST_DAYS[2]!,
      { ...DST_DAYS[0]!, start: '2025-03-31T22:00:00.000Z', end: '2025-04-01T22:00:00.000Z' },
    ];
    const utc = () => 0;
    expect(floorLines(days, '100000', Date.parse('2025-04-01T06:00:00Z'), utc).dailyLoss).toEqual([
      { time: s('2025-03-31T22:00:00Z'), value: 95000 },
      { time: s('2025-04-01T06:00:00Z'), value: 95000 },
    ]);
    expect(floorLines(days, '100000', Date.parse('2025-03-31T06:00:00Z'), utc).dailyLoss).toEqual([]);
  });

  it('adds the target to the initial balance exactly, and has none without a target', () => {
    const days = [day({ lines: [moneyLine('profit_target', { limit: '8000.0100' })] })];
    expect(targetLevel(days, '100000.1')).toBe('108000.1100');
    expect(targetLevel([day()], '100000')).toBeNull();
    expect(floorLines([day()], '100000', NOW).target).toEqual([]);
  });

  it('draws three months hour by hour and longer periods a day at a time', () => {
    const now = Date.parse('2025-04-03T00:00:00Z');
    expect(chartResolution('2025-01-01T00:00:00Z', now)).toBe('hour');
    expect(chartResolution('2024-12-31T00:00:00Z', now)).toBe('day');
  });

  it('says the chart in words: balance, equity, lowest equity, floors and target, exact', () => {
    const points = [
      { time: '2025-03-31T11:00:00Z', balance: '101200.5000', equity: '101150.2500', equitySource: 'candles' as const },
    ];
    expect(chartSummary(DST_DAYS, points, '100000', 'USD')).toBe(
      'Balance 101,200.50 USD, equity 101,150.25 USD, lowest equity 99,500.00 USD on 2025-03-29, ' +
        'maximum loss floor 90,250.25 USD, profit target 110,000.00 USD.',
    );
    const closedOnly = [{ ...points[0]!, equity: null, equitySource: null }];
    expect(chartSummary([], closedOnly, '100000', 'USD')).toBe(
      'Balance 101,200.50 USD, equity unknown (closed P/L only).',
    );
  });
});
