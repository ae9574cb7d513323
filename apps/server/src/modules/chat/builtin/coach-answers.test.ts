import { describe, expect, it } from 'vitest';
import type { PatternResult, TradeReviewData, WeeklyReview } from '@pipsense/contract';
import { fixtureChatData, FIXTURE_NOW } from '../../../test/chat-fixture-data';
import { createChatTools, type ToolContext } from '../tools/chat-tools';
import type { ChatCoach } from '../tools/coach';
import { createBuiltinAnalyst } from './analyst';
import { parseIntent } from './intent';

/*
 * The coach's answers in the assistant (docs/coach.md, The assistant): the built-in analyst reads the coach's own
 * reviews, patterns and weekly reviews through the tools a model calls, and writes out their facts and figures.
 */

const usd = (amount: string) => ({ mode: 'single' as const, currency: 'USD', amount });

const pattern = (id: PatternResult['pattern'], count: number, averageR: number | null): PatternResult => ({
  pattern: id,
  definition: `Definition of ${id}.`,
  trades: Array.from({ length: count }, (_, i) => ({ accountId: 'acc', tradeId: String(i) })),
  count,
  netPL: count > 0 ? usd('-120.50') : null,
  othersNetPL: usd('300.00'),
  averageR,
  othersAverageR: 0.4,
});

const REVIEW: TradeReviewData = {
  review: {
    wentWell: [
      { text: 'The stop sat outside normal noise, at 1.6 ATR.', facts: ['stop_atr_multiple'] },
      { text: 'You traded in the London session, your best.', facts: ['session'] },
    ],
    toImprove: [
      { text: 'You entered against the H4 trend.', facts: ['trend_alignment'] },
      { text: 'You entered 4 minutes after a loss.', facts: ['minutes_after_loss'] },
    ],
    action: { text: 'Wait 30 minutes after a loss before the next entry.', facts: ['minutes_after_loss'] },
    score: { value: 2, rubric: '5: every fact in favour … 1: most against.' },
  },
  facts: [
    { name: 'trend_alignment', value: 'against', text: 'The trade went against the H4 trend.' },
    { name: 'minutes_after_loss', value: 4, text: 'It was opened 4 minutes after a losing trade closed.' },
  ],
  source: 'builtin',
  dataVersion: 'v1',
  stale: false,
  createdAt: '2025-03-12T00:00:00.000Z',
  patterns: ['revenge_trading'],
};

function setup() {
  const calls: string[] = [];
  const coach: ChatCoach = {
    tradeReview: (_userId, ref) => {
      calls.push(`review ${ref.accountId} ${ref.tradeId}`);
      return Promise.resolve(REVIEW);
    },
    patterns: (_userId, range) => {
      calls.push(`patterns ${range.from ?? ''} ${range.to ?? ''}`);
      return Promise.resolve([
        pattern('overtrading', 2, -0.2),
        pattern('revenge_trading', 3, -1.1),
        pattern('early_exit', 0, null),
      ]);
    },
    weeklyReview: (_userId, week) => {
      calls.push(`weekly ${week}`);
      return Promise.resolve({
        week,
        summary: ['You made +250.00 USD over 12 trades, above your 12-week average of +80.00 USD.'],
        focus: { text: 'No entry within 30 minutes of a loss.', pattern: 'revenge_trading' },
        previousFocus: { text: 'Hold winners', pattern: 'early_exit', kept: true, outcome: 'Kept: no early exit.' },
      } as WeeklyReview);
    },
    lastEndedWeek: () => Promise.resolve('2025-W10'),
  };
  const { data } = fixtureChatData();
  const tools = createChatTools(data, undefined, coach);
  const ctx: ToolContext = {
    userId: 'u1',
    mode: 'demo',
    instrument: 'EUR_USD',
    granularity: 'H1',
    timeZone: 'UTC',
    now: FIXTURE_NOW,
  };
  const analyst = createBuiltinAnalyst(tools);
  return { calls, tools, ctx, ask: async (text: string) => (await analyst.answer('trading', text, ctx)).text };
}

describe('the coach in the assistant', () => {
  it('reads the coach questions', () => {
    expect(parseIntent('trading', 'What should I work on?', FIXTURE_NOW).kind).toBe('coachFocus');
    expect(parseIntent('trading', 'Why did my USD_JPY trade on Tuesday lose?', FIXTURE_NOW)).toEqual({
      kind: 'tradeWhy',
      args: {
        state: 'closed',
        instrument: 'USD_JPY',
        period: 'weekday',
        weekday: 2,
        outcome: 'losers',
        sort: 'newest',
        limit: 1,
      },
    });
    expect(parseIntent('trading', 'Show my weekly review of 2025-W09', FIXTURE_NOW)).toEqual({
      kind: 'weeklyReview',
      week: '2025-W09',
    });
    expect(parseIntent('trading', 'Do I revenge trade?', FIXTURE_NOW).kind).toBe('coachFocus');
    // Plain trades questions stay ones, a tag named like a pattern too.
    expect(parseIntent('trading', 'Show my losing trades on Tuesday', FIXTURE_NOW).kind).toBe('trades');
    expect(parseIntent('trading', 'show trades tagged revenge', FIXTURE_NOW).kind).toBe('trades');
  });

  it('answers "what should I work on?" with the costliest pattern first, over the last 90 days', async () => {
    const { ask, calls } = setup();
    const text = await ask('What should I work on?');
    expect(calls).toEqual(['patterns 2024-12-15T00:00:00.000Z 2025-03-14T23:59:59.999Z']);
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      'Work on revenge trading first: it costs you the most in the last 90 days (2024-12-15 to 2025-03-14).',
    );
    expect(lines[1]).toBe(
      '- Revenge trading: 3 trades, net -120.50 USD at -1.10R a trade, against +300.00 USD at +0.40R for the others. Definition of revenge_trading.',
    );
    expect(lines[2]).toMatch(/^- Overtrading: 2 trades/);
    expect(text).toContain('Not seen: Early exits.');
  });

  it('answers why a trade lost from its review and facts, finding the trade first', async () => {
    const { ask, calls } = setup();
    const text = await ask('Why did my USD_JPY trade on Tuesday lose?');
    // Tuesday before Friday 14 March 2025 is the 11th: trade 460 closed then at -8.75.
    expect(calls).toEqual(['review 101-004-1111111-001 460']);
    expect(text).toContain('USD/JPY trade 460');
    expect(text).toContain('-8.75 USD');
    expect(text).toContain('- You entered against the H4 trend.');
    expect(text).toContain('Next time: Wait 30 minutes after a loss before the next entry.');
    expect(text).toContain('Execution score: 2/5.');
    expect(text).toContain('- It was opened 4 minutes after a losing trade closed.');
    expect(text).toContain('Patterns that flag it: Revenge trading.');
  });

  it('reads the last ended week by default, and a named one', async () => {
    const { ask, calls } = setup();
    const text = await ask('How was my week?');
    expect(calls).toEqual(['weekly 2025-W10']);
    expect(text).toContain('Focus for next week: No entry within 30 minutes of a loss.');
    expect(text).toContain("Last week's focus: Kept: no early exit.");
  });

  it('gives the model the same tools, and says when the coach is absent', async () => {
    const { tools, ctx } = setup();
    const names = tools.specs('trading').map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['get_trade_review', 'get_patterns', 'get_weekly_review']));
    const { result } = await tools.run('trading', 'get_trade_review', { account_id: 'a', trade_id: '1' }, ctx);
    expect(result).toMatchObject({ accountId: 'a', tradeId: '1', source: 'builtin', patterns: ['revenge_trading'] });
    const bare = createChatTools(fixtureChatData().data);
    await expect(bare.run('trading', 'get_patterns', {}, ctx)).rejects.toThrow('The coach is not available');
  });
});
