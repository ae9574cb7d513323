import { describe, expect, it } from 'vitest';
import { defaultReply, pickTool, summarizeToolResults } from './default-reply';
import { countIn, granularityIn, instrumentIn, sampleArguments, sampleDocument } from './sample-values';
import type { FakeRequest, FakeTool } from './types';

const tools: FakeTool[] = [
  { name: 'get_account_summary', description: 'Balance, NAV and margin of the account.' },
  {
    name: 'list_trades',
    description: 'List trades, newest first.',
    parameters: {
      type: 'object',
      properties: {
        state: { type: 'string', enum: ['OPEN', 'CLOSED', 'ALL'] },
        instrument: { type: ['string', 'null'] },
        count: { type: 'integer', minimum: 1, maximum: 500 },
        withStopLoss: { type: 'boolean' },
      },
      required: ['state', 'instrument', 'count'],
    },
  },
  {
    name: 'get_candles',
    description: 'Fetch OHLC candles for an instrument.',
    parameters: {
      type: 'OBJECT',
      properties: { instrument: { type: 'STRING' }, granularity: { type: 'STRING', enum: ['M5', 'H1', 'D'] } },
      required: ['instrument', 'granularity'],
    },
  },
];

function request(overrides: Partial<FakeRequest>): FakeRequest {
  return {
    provider: 'openai',
    method: 'POST',
    path: '/v1/chat/completions',
    headers: {},
    body: {},
    model: 'gpt-4o',
    stream: false,
    messages: [],
    tools: [],
    lastUserText: '',
    toolResults: [],
    ...overrides,
  };
}

describe('reading arguments off the question', () => {
  it.each([
    ['Get 5-minute candles for EUR/USD', 'EUR_USD', 'M5'],
    ['Fetch hourly candles for GBP/USD', 'GBP_USD', 'H1'],
    ['Show daily candles for USD/JPY', 'USD_JPY', 'D'],
    ['usdjpy on H4 please', 'USD_JPY', 'H4'],
  ])('%s', (question, instrument, granularity) => {
    expect(instrumentIn(question)).toBe(instrument);
    expect(granularityIn(question)).toBe(granularity);
  });

  it('finds counts and leaves them out when absent', () => {
    expect(countIn('What were my top 3 winners today?')).toBe(3);
    expect(countIn('last 20 trades')).toBe(20);
    expect(countIn('Show my open trades')).toBeUndefined();
  });

  it('fills required arguments with placeholders and optional ones only when asked', () => {
    expect(sampleArguments(tools[1]!.parameters, 'Show my open trades')).toEqual({
      state: 'OPEN',
      instrument: null,
      count: 10,
    });
    expect(sampleArguments(tools[1]!.parameters, 'top 900 closed EUR_USD trades')).toEqual({
      state: 'CLOSED',
      instrument: 'EUR_USD',
      count: 500,
    });
    expect(sampleArguments(tools[2]!.parameters, 'Show daily candles for USD/JPY')).toEqual({
      instrument: 'USD_JPY',
      granularity: 'D',
    });
  });
});

describe('the default behaviour', () => {
  it('picks the tool the question is about', () => {
    expect(pickTool(tools, 'What is my current account balance?')!.name).toBe('get_account_summary');
    expect(pickTool(tools, 'What is my margin utilization?')!.name).toBe('get_account_summary');
    expect(pickTool(tools, 'List all trades with stop-loss orders')!.name).toBe('list_trades');
    expect(pickTool(tools, 'Fetch hourly candles for GBP/USD')!.name).toBe('get_candles');
    expect(pickTool(tools, 'Where is EUR/USD on the chart?')!.name).toBe('get_candles');
    expect(pickTool(tools, 'Hello')!.name).toBe('get_account_summary');
  });

  it('calls a tool first, then quotes the numbers of its results', () => {
    const first = defaultReply(request({ tools, lastUserText: 'What were my top 3 winners today?' }));
    expect(first).toEqual({
      toolCalls: [{ name: 'list_trades', args: { state: 'OPEN', instrument: null, count: 3 } }],
    });
    const second = defaultReply(
      request({
        tools,
        lastUserText: 'What were my top 3 winners today?',
        toolResults: [
          {
            name: 'list_trades',
            result: {
              trades: [
                { id: '41', pl: '12.50' },
                { id: '40', pl: 3 },
              ],
              note: 'x',
            },
          },
        ],
      }),
    );
    expect(second).toEqual({
      text: 'Here is what your data shows. From list_trades: trades[0].id 41, trades[0].pl 12.50, trades[1].id 40, trades[1].pl 3.',
    });
  });

  it('reports tool errors and results without figures', () => {
    expect(
      summarizeToolResults([
        { name: 'a', result: { error: 'OANDA is down' } },
        { name: 'b', result: { ok: true } },
      ]),
    ).toBe('Here is what your data shows. The tool a reported an error: OANDA is down The tool b returned no figures.');
  });

  it('answers plain questions by repeating them', () => {
    expect(defaultReply(request({ lastUserText: 'Is 1.0850 a support level?' }))).toEqual({
      text: 'This is the fake model answering: "Is 1.0850 a support level?". The figures you gave: 1.0850.',
    });
  });

  it('writes structured output that fits the schema, quoting the prompt', () => {
    const schema = {
      type: 'object',
      properties: {
        aiInsights: { type: 'array', items: { type: 'string' }, minItems: 3 },
        risk: { type: 'string', enum: ['low', 'high'] },
        score: { type: 'integer', minimum: 0, maximum: 10 },
        note: { anyOf: [{ type: 'null' }, { type: 'string' }] },
      },
    };
    const doc = sampleDocument(schema, 'win rate 62.5 with 40 trades') as Record<string, unknown>;
    expect(doc.aiInsights).toHaveLength(3);
    expect(doc.risk).toBe('low');
    expect(doc.score).toBe(10);
    expect(String(doc.note)).toMatch(/\d/);
    expect((doc.aiInsights as string[])[0]).toBe('Fake aiInsights based on the figures 62.5 and 40.');
  });
});
