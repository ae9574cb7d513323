/**
 * The assistant and the Overview must never disagree about the same trades: "what is my win rate /
 * net P/L / profit factor this month" through the get_performance tool gives, to the last digit
 * shown, what the Overview's engine shows for the trades that closed that month. Both are also
 * checked against an independent exact reference (BigInt decimals and integer ratios), so a change
 * to either side's arithmetic fails here.
 */
import { describe, expect, it } from 'vitest';
import type { TradeItem } from '@pipsense/contract';
import { computeMetrics, engineTradeFromItem, type EngineTrade } from '../../analytics/engine';
import { generateSyntheticTrades, SYNTHETIC_NOW, syntheticAccounts } from '../../../test/synthetic-trades';
import { groupDecimal, roundDecimal, signOf, sumDecimals } from '../../../domain/decimal';
import type { ChatData } from './chat-data';
import { createChatTools, type PerformanceToolResult, type ToolContext } from './chat-tools';
import { performanceFromSnapshot } from '../../../test/chat-snapshot-answers';

const DAY_MS = 86_400_000;

/** The synthetic engine trade as OANDA's decimal strings, the way the trades table stores it. */
function asItem(t: EngineTrade): TradeItem {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    tradeId: t.tradeId,
    accountId: t.accountId,
    mode: 'demo',
    instrument: t.instrument,
    price: t.openPrice.toFixed(5),
    initialUnits: String(t.units),
    currentUnits: String(t.currentUnits),
    realizedPL: t.realizedPL.toFixed(4),
    unrealizedPL: t.state === 'CLOSED' ? null : t.unrealizedPL.toFixed(4),
    financing: t.financing.toFixed(4),
    state: t.state,
    openTime: iso(t.openTime),
    closeTime: t.closeTime === null ? null : iso(t.closeTime),
    averageClosePrice: t.closePrice === null ? null : t.closePrice.toFixed(5),
    stopLossPrice: t.stopLossPrice === null ? null : t.stopLossPrice.toFixed(5),
    takeProfitPrice: t.takeProfitPrice === null ? null : t.takeProfitPrice.toFixed(5),
    trailingStopDistance: t.trailingStopDistance === null ? null : t.trailingStopDistance.toFixed(5),
    createdAt: iso(t.openTime),
    updatedAt: iso(t.closeTime ?? t.openTime),
    platform: 'oanda',
    symbol: null,
    lots: null,
    commission: null,
    swap: null,
  };
}

/** round(numerator / denominator, decimals) half away from zero, in exact integer arithmetic. */
function exactRatio(numerator: bigint, denominator: bigint, decimals: number): number {
  const scale = 10n ** BigInt(decimals);
  const magnitude = numerator < 0n ? -numerator : numerator;
  const q = (magnitude * scale * 2n + denominator) / (denominator * 2n);
  return (numerator < 0n ? -Number(q) : Number(q)) / Number(scale);
}

const minor = (text: string): bigint => BigInt(roundDecimal(text, 4).replace('.', ''));

const engineTrades = generateSyntheticTrades(4000, 11);
const items = engineTrades.map(asItem);
const accounts = syntheticAccounts(engineTrades);
const currencies = Object.fromEntries(accounts.map((a) => [a.accountId, a.currency]));
const data: ChatData = {
  queryTrades: () => Promise.reject(new Error('not used')),
  performance: async (_user, _mode, request) =>
    performanceFromSnapshot(
      { trades: items, openOrigin: { kind: 'sync', at: null, reason: 'not_asked' }, historySyncedAt: null, currencies },
      request,
    ),
  accounts: () => Promise.reject(new Error('not used')),
  candles: () => Promise.reject(new Error('not used')),
  journal: () => Promise.reject(new Error('not used')),
  compareTags: () => Promise.reject(new Error('not used')),
};
const tools = createChatTools(data);

/** The last five months of the synthetic history (about 4,000 trades), in three zones. */
const cases = Array.from({ length: 5 }, (_, k) => new Date(SYNTHETIC_NOW.getTime() - k * 31 * DAY_MS)).flatMap((now) =>
  ['UTC', 'Asia/Tokyo', 'America/New_York'].map((timeZone) => ({ now, timeZone })),
);

describe('"this month" in the assistant and on the Overview', () => {
  it.each(cases)('agree to the last digit ($timeZone, $now)', async ({ now, timeZone }) => {
    const ctx: ToolContext = { userId: 'u1', mode: 'demo', instrument: 'EUR_USD', granularity: 'H1', timeZone, now };
    const outcome = await tools.run('trading', 'get_performance', { period: 'this_month' }, ctx);
    const chat = outcome.result as PerformanceToolResult;
    const from = Date.parse(chat.period.from!);
    const to = Date.parse(chat.period.to!);

    // The Overview over exactly the trades that closed in the assistant's month.
    const month = items.filter((t) => {
      const closed = t.closeTime === null ? Number.NaN : Date.parse(t.closeTime);
      return t.state === 'CLOSED' && closed >= from && closed < to;
    });
    expect(month.length).toBeGreaterThan(20);
    const overview = computeMetrics(
      month.map((t) => engineTradeFromItem(t)),
      accounts,
      { now, timeZone },
    );
    const perf = overview.facts.performance!;
    const card = overview.performanceMetrics!;

    expect(chat.byCurrency).toHaveLength(1);
    const figures = chat.byCurrency[0]!;
    expect(figures.currency).toBe('USD');

    // Independent exact reference over the stored strings.
    const pls = month.map((t) => t.realizedPL);
    const wins = pls.filter((p) => signOf(p) > 0);
    const losses = pls.filter((p) => signOf(p) < 0);
    const net = sumDecimals(pls);
    const grossProfit = minor(sumDecimals(wins));
    const grossLoss = -minor(sumDecimals(losses));
    const winRate = exactRatio(BigInt(wins.length) * 100n, BigInt(month.length), 1);
    const profitFactor = exactRatio(grossProfit, grossLoss, 2);

    expect(figures.trades).toBe(month.length);
    expect(perf.closedTrades).toBe(month.length);
    expect([figures.wins, figures.losses, figures.breakeven]).toEqual([perf.wins, perf.losses, perf.breakEvens]);

    expect(figures.winRate).toBe(winRate);
    expect(overview.winRate).toBe(winRate);

    expect(figures.netPL).toBe(net);
    expect(perf.netPL).toBe(Number(roundDecimal(net, 2)));
    expect(card['Net P/L']).toBe(`${groupDecimal(net, 2)} USD`);
    expect(groupDecimal(figures.netPL, 2)).toBe(card['Net P/L']!.replace(' USD', ''));
    expect(figures.financing).toBe(sumDecimals(month.map((t) => t.financing)));
    expect(perf.financing).toBe(Number(roundDecimal(figures.financing, 2)));
    // Mean P/L: the assistant gives 4 decimals, the Overview 2; both rounded once from the exact mean.
    expect(minor(figures.averagePL!)).toBe(BigInt(exactRatio(minor(net), BigInt(month.length), 0)));
    expect(perf.expectancy).toBe(exactRatio(minor(net), BigInt(month.length) * 10_000n, 2));

    expect(figures.profitFactor).toBe(profitFactor);
    expect(perf.profitFactor).toBe(profitFactor);
    expect(card['Profit Factor']).toBe(profitFactor.toFixed(2));
  });
});
