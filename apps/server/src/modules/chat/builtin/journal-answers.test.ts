import { describe, expect, it } from 'vitest';
import type { TradeItem, TradeTag } from '@pipsense/contract';
import { ToolInputError } from '../../../integrations/llm';
import { tradeRef } from '../../journal/journal-facts.service';
import { createChatTools, toolSpecs, type ToolContext } from '../tools/chat-tools';
import type { JournalSnapshot } from '../tools/journal';
import { DEMO_TRADES, FIXTURE_CONTEXT, FIXTURE_NOW, fixtureChatData } from '../../../test/chat-fixture-data';
import { createBuiltinAnalyst } from './analyst';
import { parseIntent } from './intent';

/*
 * The assistant and the journal: tags and notes on the fixture trades, every expected number worked out here from the
 * fixture (P/L in ten-thousandths), independently of the tools.
 */
const units = (decimal: string) => Math.round(Number(decimal) * 10_000);
const money = (tenThousandths: number) =>
  (tenThousandths / 10_000).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const signed = (tenThousandths: number) => `${tenThousandths > 0 ? '+' : ''}${money(tenThousandths)}`;

const TAGS: TradeTag[] = [
  { id: 't-fomo', name: 'FOMO', kind: 'mistake' },
  { id: 't-breakout', name: 'Breakout', kind: 'setup' },
  { id: 't-pullback', name: 'Pullback', kind: 'setup' },
];
const closed = DEMO_TRADES.filter((t) => t.state === 'CLOSED');
const thisMonth = closed.filter((t) => t.closeTime! >= '2025-03-01');
const earlier = closed.filter((t) => t.closeTime! < '2025-03-01');
/** FOMO: two trades closed this month and one before; setups split the closed trades in two halves. */
const fomo = [...thisMonth.slice(0, 2), ...earlier.slice(0, 1)];
const breakout = closed.filter((_, i) => i % 2 === 0);
const pullback = closed.filter((_, i) => i % 2 === 1);
const noted = fomo[0]!;
const NOTE = 'Chased the move after the news.\nNo plan.';

function journal(): JournalSnapshot {
  const tagsByTrade = new Map<string, string[]>();
  const add = (id: string, list: TradeItem[]) => {
    for (const t of list) {
      const ref = tradeRef(t.accountId, t.tradeId);
      tagsByTrade.set(ref, [...(tagsByTrade.get(ref) ?? []), id]);
    }
  };
  add('t-fomo', fomo);
  add('t-breakout', breakout);
  add('t-pullback', pullback);
  return {
    tags: TAGS,
    tagsByTrade,
    notesByTrade: new Map([[tradeRef(noted.accountId, noted.tradeId), { note: NOTE, rating: 2 }]]),
  };
}

const ctx: ToolContext = { ...FIXTURE_CONTEXT };

function setup(withJournal = true) {
  const { data } = fixtureChatData(withJournal ? { journal: journal() } : {});
  const tools = createChatTools(data);
  const analyst = createBuiltinAnalyst(tools);
  return { tools, ask: (message: string) => analyst.answer('trading', message, ctx) };
}

const net = (list: readonly TradeItem[]) => list.reduce((sum, t) => sum + units(t.realizedPL), 0);

describe('chat tools and the journal', () => {
  it('describe the tag filter and compare_tags to the model', () => {
    const [query, , compare] = toolSpecs('trading');
    expect(query!.parameters.properties).toHaveProperty('tag');
    expect(compare).toMatchObject({ name: 'compare_tags' });
    expect(compare!.parameters.properties).toMatchObject({ kind: { enum: ['setup', 'mistake', 'emotion'] } });
  });

  it('query_trades filters by tag name (any case) and returns notes, ratings and tags', async () => {
    const { tools } = setup();
    const { result } = await tools.trades(ctx, { tag: ['fomo'], limit: 50 });
    expect(result.filters.tags).toEqual(['FOMO']);
    expect(result.trades.map((t) => t.tradeId).sort()).toEqual(fomo.map((t) => t.tradeId).sort());
    const row = result.trades.find((t) => t.tradeId === noted.tradeId)!;
    expect(row).toMatchObject({ note: NOTE, rating: 2 });
    expect(row.tags).toContain('FOMO');
    expect(result.trades.filter((t) => t.tradeId !== noted.tradeId).every((t) => t.note === null)).toBe(true);
  });

  it('query_trades refuses a tag the trader does not have, naming the tags there are', async () => {
    const { tools } = setup();
    await expect(tools.trades(ctx, { tag: ['Revenge'] })).rejects.toThrow(ToolInputError);
    await expect(tools.trades(ctx, { tag: ['Revenge'] })).rejects.toThrow(
      'No tag named "Revenge". The trader\'s tags: FOMO, Breakout, Pullback.',
    );
  });

  it('compare_tags gives each tag its closed trades, win rate, net P/L and expectancy', async () => {
    const { tools } = setup();
    const { result } = await tools.compareTags(ctx, { kind: 'setup' });
    expect(result.tags.map((t) => t.name).sort()).toEqual(['Breakout', 'Pullback']);
    for (const [name, list] of [
      ['Breakout', breakout],
      ['Pullback', pullback],
    ] as const) {
      const row = result.tags.find((t) => t.name === name)!;
      const wins = list.filter((t) => units(t.realizedPL) > 0).length;
      expect(row).toMatchObject({
        trades: list.length,
        winRate: Math.round((wins / list.length) * 1000) / 10,
        netPL: net(list) / 10_000,
        averageR: null,
        withInitialStop: 0,
      });
      // Mean P/L in ten-thousandths, rounded once to cents, half away from zero.
      const mean = net(list) / list.length;
      expect(row.expectancy).toBe((Math.sign(mean) * Math.round(Math.abs(mean) / 100)) / 100);
    }
  });

  it('compare_tags says how to start when there are no tags', async () => {
    const { tools } = setup(false);
    const { result } = await tools.compareTags(ctx, {});
    expect(result.tags).toEqual([]);
    expect(result.note).toMatch(/You have no tags yet/);
  });
});

describe('the built-in analyst and the journal', () => {
  it('"Which setup loses me the most?" names the setup with the lowest net P/L', async () => {
    const { ask } = setup();
    const { text } = await ask('Which setup loses me the most?');
    const ranked: Array<[string, TradeItem[]]> = [
      ['Breakout', breakout],
      ['Pullback', pullback],
    ];
    ranked.sort((a, b) => net(a[1]) - net(b[1]));
    const [worst, other] = ranked as [[string, TradeItem[]], [string, TradeItem[]]];
    const first = text.split('\n')[0]!;
    if (net(worst[1]) < 0)
      expect(first).toBe(
        `The setup that loses you the most is "${worst[0]}": ${signed(net(worst[1]))} over ${worst[1].length} closed trades (demo mode).`,
      );
    else expect(first).toContain(`the weakest is "${worst[0]}"`);
    // Both setups listed, worst first, and no mistake among them.
    expect(text).toMatch(new RegExp(`^1\\. ${worst[0]} \\(setup\\)`, 'm'));
    expect(text).toMatch(new RegExp(`^2\\. ${other[0]} \\(setup\\)`, 'm'));
    expect(text).not.toContain('FOMO');
  });

  it('"Show my trades tagged FOMO this month" lists only this month\'s FOMO trades, with the note', async () => {
    const { ask } = setup();
    const { text, attachments } = await ask('Show my trades tagged FOMO this month');
    const listed = [...text.matchAll(/^\d+\. #(\d+) /gm)].map((m) => m[1]).sort();
    expect(listed).toEqual(
      thisMonth
        .slice(0, 2)
        .map((t) => t.tradeId)
        .sort(),
    );
    expect(text).toContain('tagged FOMO');
    expect(text).toContain('this month');
    expect(text).toContain('Note: Chased the move after the news. No plan.');
    expect(text).toContain(`Total P/L of all 2: ${signed(net(thisMonth.slice(0, 2)))} USD`);
    expect(attachments[0]).toMatchObject({ type: 'trades' });
  });

  it('answers a tag the trader does not have with the tags there are', async () => {
    const { ask } = setup();
    const { text } = await ask('show trades tagged revenge');
    expect(text).toContain('No tag named "revenge"');
    expect(text).toContain('FOMO, Breakout, Pullback');
  });
});

describe('reading journal questions', () => {
  it('tells a tag comparison from a tagged-trade list', () => {
    expect(parseIntent('trading', 'Which mistake costs me the most this month?', FIXTURE_NOW)).toEqual({
      kind: 'compareTags',
      args: { period: 'this_month', kind: 'mistake' },
      rank: 'worst',
    });
    expect(parseIntent('trading', 'What is my best setup on EUR/USD?', FIXTURE_NOW)).toMatchObject({
      kind: 'compareTags',
      args: { kind: 'setup', instrument: 'EUR_USD' },
      rank: 'best',
    });
    expect(parseIntent('trading', 'compare my tags', FIXTURE_NOW)).toMatchObject({ kind: 'compareTags', rank: 'all' });
    expect(parseIntent('trading', 'show my trades tagged #late-entry last week', FIXTURE_NOW)).toMatchObject({
      kind: 'trades',
      args: { tag: ['late-entry'], period: 'last_week' },
    });
  });
});
