import { describe, expect, it } from 'vitest';
import { ToolInputError } from '../../../integrations/llm';
import { AppError } from '../../../lib/errors';
import { DEMO_TRADES, FIXTURE_NOW, fixtureChatData } from '../../../test/chat-fixture-data';
import type { ChatData, TradesSnapshot } from './chat-data';
import { ruleBreaksArgs, ruleStatusArgs } from './rule-status';
import { tradeReviewArgs, weeklyReviewArgs } from './coach';
import { EMPTY_JOURNAL } from './journal';
import { performanceFromSnapshot, tagsFromSnapshot, tradesFromSnapshot } from '../../../test/chat-snapshot-answers';
import {
  accountArgs,
  candleArgs,
  compareTagsArgs,
  createChatTools,
  performanceArgs,
  toolSpecs,
  tradesArgs,
  type ToolContext,
  patternsArgs,
} from './chat-tools';

const ctx: ToolContext = {
  userId: 'u1',
  mode: 'demo',
  instrument: 'USD_JPY',
  granularity: 'M5',
  timeZone: 'UTC',
  now: FIXTURE_NOW,
};

describe('the assistant tools', () => {
  it('offer each topic only its own tools', () => {
    expect(toolSpecs('trading').map((t) => t.name)).toEqual([
      'query_trades',
      'get_performance',
      'compare_tags',
      'get_rule_status',
      'get_rule_breaks',
      'get_trade_review',
      'get_patterns',
      'get_weekly_review',
    ]);
    expect(toolSpecs('accounts').map((t) => t.name)).toEqual([
      'get_account_state',
      'get_performance',
      'get_rule_status',
      'get_rule_breaks',
    ]);
    expect(toolSpecs('candles').map((t) => t.name)).toEqual(['get_candles']);
    for (const spec of [...toolSpecs('trading'), ...toolSpecs('accounts'), ...toolSpecs('candles')]) {
      expect(spec.name).toMatch(/^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/);
      expect(spec.parameters).toMatchObject({ type: 'object', properties: expect.any(Object) });
    }
  });

  it('describe to the model exactly the arguments their zod schemas accept', () => {
    const zodOf = {
      query_trades: tradesArgs,
      get_performance: performanceArgs,
      compare_tags: compareTagsArgs,
      get_account_state: accountArgs,
      get_candles: candleArgs,
      get_rule_status: ruleStatusArgs,
      get_rule_breaks: ruleBreaksArgs,
      get_trade_review: tradeReviewArgs,
      get_patterns: patternsArgs,
      get_weekly_review: weeklyReviewArgs,
    };
    for (const spec of [...toolSpecs('trading'), ...toolSpecs('accounts'), ...toolSpecs('candles')]) {
      const schema = zodOf[spec.name as keyof typeof zodOf];
      const properties = spec.parameters.properties as Record<string, { description?: string; enum?: string[] }>;
      expect(Object.keys(properties)).toEqual(Object.keys(schema.shape));
      // Only a trade's review needs its arguments: the trade it is about.
      if (spec.name === 'get_trade_review') expect(spec.parameters.required).toEqual(['account_id', 'trade_id']);
      else expect(spec.parameters).not.toHaveProperty('required');
      expect(spec.parameters).not.toHaveProperty('$schema');
      for (const [name, property] of Object.entries(properties)) {
        expect(property.description, name).toMatch(/\S/);
        for (const value of property.enum ?? []) expect(schema.safeParse({ [name]: value }).success).toBe(true);
      }
    }
    expect(toolSpecs('trading')[0]!.parameters.properties).toMatchObject({
      limit: { type: 'integer', minimum: 1, maximum: 50 },
      period: { type: 'string', enum: expect.arrayContaining(['this_month', 'last_n_days']) },
    });
  });

  it("refuse another topic's tool and bad arguments in words the model can act on", async () => {
    const tools = createChatTools(fixtureChatData().data);
    await expect(tools.run('candles', 'query_trades', {}, ctx)).rejects.toThrow(ToolInputError);
    await expect(tools.run('trading', 'query_trades', { limit: 500 }, ctx)).rejects.toThrow(/limit/);
    await expect(tools.run('trading', 'query_trades', { period: 'range', from: '2025-02-31' }, ctx)).rejects.toThrow(
      'Invalid period: from is not a real date: 2025-02-31.',
    );
  });

  it('read null as "not given" and normalise instruments', async () => {
    const tools = createChatTools(fixtureChatData().data);
    const outcome = await tools.run(
      'trading',
      'query_trades',
      { state: 'closed', instrument: 'eur/usd', period: null, limit: null },
      ctx,
    );
    const result = outcome.result as { filters: { instrument: string; limit: number }; matched: number };
    expect(result.filters).toMatchObject({ instrument: 'EUR_USD', limit: 10 });
    expect(result.matched).toBe(DEMO_TRADES.filter((t) => t.state === 'CLOSED' && t.instrument === 'EUR_USD').length);
  });

  it('never add up P/L of accounts in different currencies', async () => {
    const { data: mixed } = fixtureChatData({
      snapshot: (snapshot) => {
        const euro = DEMO_TRADES.filter((t) => t.tradeId === '400').map((t) => ({
          ...t,
          tradeId: '900',
          accountId: 'EUR-ACC',
        }));
        return {
          ...snapshot,
          trades: [...snapshot.trades, ...euro],
          currencies: { ...snapshot.currencies, 'EUR-ACC': 'EUR' },
        };
      },
    });
    const { result } = await createChatTools(mixed).performance(ctx, { period: 'last_month' });
    expect(result.byCurrency.map((c) => [c.currency, c.trades, c.netPL])).toEqual([
      ['USD', 4, '148.7500'],
      ['EUR', 1, '150.5000'],
    ]);
  });

  it('ask the trader to connect OANDA when there is neither a connection nor synced data', async () => {
    const none: TradesSnapshot = {
      trades: [],
      openOrigin: { kind: 'sync', at: null, reason: 'not_connected' },
      historySyncedAt: null,
      currencies: {},
    };
    const empty: ChatData = {
      queryTrades: async (_u, _m, filter) => tradesFromSnapshot(none, filter),
      performance: async (_u, _m, request) => performanceFromSnapshot(none, request),
      accounts: async () => ({ accounts: [], origin: { kind: 'sync', at: null, reason: 'not_connected' } }),
      candles: () => Promise.reject(new AppError(400, 'OANDA_NOT_CONFIGURED', 'Connect your OANDA account first.')),
      journal: async () => EMPTY_JOURNAL,
      compareTags: async (_u, _m, request, journal) => tagsFromSnapshot(none, request, journal),
    };
    const tools = createChatTools(empty);
    await expect(tools.trades(ctx, {})).rejects.toMatchObject({ code: 'OANDA_NOT_CONFIGURED' });
    await expect(tools.accounts(ctx, {})).rejects.toMatchObject({ code: 'OANDA_NOT_CONFIGURED' });
  });

  it('say so when the mode has no data because OANDA is set up for the other one', async () => {
    const nothing: TradesSnapshot = {
      trades: [],
      openOrigin: { kind: 'sync', at: null, reason: 'other_mode' },
      historySyncedAt: null,
      currencies: {},
    };
    const otherMode: ChatData = {
      queryTrades: async (_u, _m, filter) => tradesFromSnapshot(nothing, filter),
      performance: async (_u, _m, request) => performanceFromSnapshot(nothing, request),
      accounts: async () => ({ accounts: [], origin: { kind: 'sync', at: null, reason: 'other_mode' } }),
      candles: () => Promise.reject(new Error('unused')),
      journal: async () => EMPTY_JOURNAL,
      compareTags: async (_u, _m, request, journal) => tagsFromSnapshot(nothing, request, journal),
    };
    const { result } = await createChatTools(otherMode).trades({ ...ctx, mode: 'live' }, { state: 'open' });
    expect(result.matched).toBe(0);
    expect(result.note).toContain('your OANDA connection is set up for the other mode');
  });
});
