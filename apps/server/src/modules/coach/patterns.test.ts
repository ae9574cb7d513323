import { describe, expect, it } from 'vitest';
import { DEFAULT_COACH_THRESHOLDS } from '@pipsense/contract';
import type { PatternRow } from '../trade-views';
import { createCoachPatterns } from './patterns';

/*
 * The service over a book of two currencies without rates (listed figures), stop orders from trading and MFE: each
 * pattern's cost per currency, exact, and the patterns of one trade for the trade modal.
 */

const USD = 'oanda:fxpractice:101-001';
const EUR = 'oanda:fxpractice:101-002';

function row(
  key: string,
  id: string,
  open: string,
  close: string,
  pl: string,
  over: { units?: string; stop?: string; mfe?: string; closePrice?: string } = {},
): PatternRow {
  return [
    key,
    id,
    'EUR_USD',
    '1.10000',
    over.units ?? '10000',
    pl,
    'CLOSED',
    `${open}.000000000Z`,
    `${close}.000000000Z`,
    over.closePrice ?? '1.10100',
    over.stop ?? null,
    over.mfe ?? null,
    'oanda',
    'demo',
  ];
}

const ROWS: PatternRow[] = [
  row(USD, '1', '2026-03-02T09:00:00', '2026-03-02T09:30:00', '-12.3400'),
  // Ten minutes after USD's loss, twice the size: revenge trading (on the other account).
  row(EUR, '2', '2026-03-02T09:40:00', '2026-03-02T10:00:00', '5.0000', { units: '20000' }),
  // Its stop was moved from 1.0950 to 1.0900: farther from the entry.
  row(USD, '3', '2026-03-03T09:00:00', '2026-03-03T10:00:00', '7.5000', { stop: '1.09500' }),
  // Kept 10 pips of a 100-pip move: an early exit.
  row(EUR, '4', '2026-03-04T09:00:00', '2026-03-04T10:00:00', '1.2500', { mfe: '1.11000' }),
];

function service() {
  return createCoachPatterns({
    rows: (_userId, add) => Promise.resolve(ROWS.forEach((r) => add(r))),
    accountKeysNamed: (_userId, accountId) =>
      Promise.resolve(new Set([USD, EUR].filter((k) => k === accountId || k.endsWith(`:${accountId}`)))),
    accountCurrencies: () =>
      Promise.resolve(
        new Map([
          [USD, 'USD'],
          [EUR, 'EUR'],
        ]),
      ),
    stopLevels: () => Promise.resolve(new Map([[`${USD} 3`, ['1.09500', '1.09000']]])),
    thresholds: () => Promise.resolve(DEFAULT_COACH_THRESHOLDS),
    timeZoneOf: () => Promise.resolve(null),
    homeCurrencyOf: () => Promise.resolve('USD'),
    dataVersionOf: () => Promise.resolve('1'),
  });
}

describe('coach patterns service', () => {
  it('costs each pattern per currency when no rate converts them', async () => {
    const found = new Map((await service().patterns('u', { platform: 'oanda' })).map((p) => [p.pattern, p]));
    const revenge = found.get('revenge_trading')!;
    expect(revenge.trades).toEqual([{ accountId: '101-002', tradeId: '2' }]);
    expect(revenge.netPL).toEqual({ mode: 'listed', byCurrency: [{ currency: 'EUR', amount: '5.0000' }] });
    // The others: EUR 1.25; USD −12.34 + 7.50.
    expect(revenge.othersNetPL).toEqual({
      mode: 'listed',
      byCurrency: [
        { currency: 'EUR', amount: '1.2500' },
        { currency: 'USD', amount: '-4.8400' },
      ],
    });
    expect(found.get('stop_moved_away')!.trades).toEqual([{ accountId: '101-001', tradeId: '3' }]);
    // Trade 3's R: (1.101 − 1.1) / (1.1 − 1.095) = 0.2; the others have no initial stop.
    expect(found.get('stop_moved_away')!.averageR).toBe(0.2);
    expect(found.get('stop_moved_away')!.othersAverageR).toBeNull();
    expect(revenge.othersAverageR).toBe(0.2);
    expect(found.get('early_exit')!.trades).toEqual([{ accountId: '101-002', tradeId: '4' }]);
    expect(found.get('overtrading')!.count).toBe(0);
  });

  it('names the patterns of one trade', async () => {
    const patterns = service();
    expect(await patterns.patternsOfTrade('u', { accountId: '101-002', tradeId: '2' })).toEqual(['revenge_trading']);
    expect(await patterns.patternsOfTrade('u', { accountId: '101-001', tradeId: '3' })).toEqual(['stop_moved_away']);
    expect(await patterns.patternsOfTrade('u', { accountId: '101-001', tradeId: '1' })).toEqual([]);
    expect(await patterns.patternsOfTrade('u', { accountId: '101-999', tradeId: '2' })).toEqual([]);
  });

  it('writes each cost with the decimals of its most precise amount, as the exact sum of the texts does', async () => {
    const rows = [
      row(USD, '1', '2026-03-02T09:00:00', '2026-03-02T09:30:00', '-12.5'),
      row(USD, '2', '2026-03-02T09:40:00', '2026-03-02T10:00:00', '5', { units: '20000' }),
      // Five decimals: beyond minor units, summed from its text.
      row(USD, '3', '2026-03-03T09:00:00', '2026-03-03T10:00:00', '1.12345'),
    ];
    const patterns = createCoachPatterns({
      rows: (_userId, add) => Promise.resolve(rows.forEach((r) => add(r))),
      accountKeysNamed: () => Promise.resolve(new Set([USD])),
      accountCurrencies: () => Promise.resolve(new Map([[USD, 'USD']])),
      stopLevels: () => Promise.resolve(new Map()),
      thresholds: () => Promise.resolve(DEFAULT_COACH_THRESHOLDS),
      timeZoneOf: () => Promise.resolve(null),
      homeCurrencyOf: () => Promise.resolve('USD'),
      dataVersionOf: () => Promise.resolve('1'),
    });
    const revengeOf = async (to?: string) =>
      (await patterns.patterns('u', { platform: 'oanda', to })).find((p) => p.pattern === 'revenge_trading')!;
    const all = await revengeOf();
    expect(all.trades).toEqual([{ accountId: '101-001', tradeId: '2' }]);
    expect(all.netPL).toEqual({ mode: 'single', currency: 'USD', amount: '5' });
    // −12.5 + 1.12345.
    expect(all.othersNetPL).toEqual({ mode: 'single', currency: 'USD', amount: '-11.37655' });
    const day = await revengeOf('2026-03-02T23:59:59Z');
    expect(day.othersNetPL).toEqual({ mode: 'single', currency: 'USD', amount: '-12.5' });
  });
});
