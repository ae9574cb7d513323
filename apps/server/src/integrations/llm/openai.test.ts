import { startFakeOpenAI, type FakeLlmServer } from '@pipsense/fake-llm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiProvider, parseToolArguments } from './openai';
import { collect, llmErrorOf, tradeTools } from '../../test/llm-providers';
import type { LlmMessage } from './types';

let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const models = { trading: 'gpt-4o', accounts: 'gpt-4o-mini', candles: 'gpt-3.5-turbo' };
const provider = (options: { apiKey?: string; maxRetries?: number } = { apiKey: 'sk-test' }) =>
  createOpenAiProvider({ baseURL: fake.url, models, maxRetries: 0, ...options });
const question: LlmMessage[] = [{ role: 'user', content: 'hi' }];

describe('parseToolArguments', () => {
  it.each([
    ['{"state":"CLOSED","count":5}', { args: { state: 'CLOSED', count: 5 } }],
    ['', { args: {} }],
    ['  ', { args: {} }],
    ['{"state": "CLOSED",', { args: {}, error: 'the arguments are not valid JSON: {"state": "CLOSED",' }],
    ['[1,2]', { args: {}, error: 'the arguments must be a JSON object' }],
    ['"EUR_USD"', { args: {}, error: 'the arguments must be a JSON object' }],
    ['null', { args: {}, error: 'the arguments must be a JSON object' }],
  ])('%j', (raw, expected) => {
    expect(parseToolArguments(raw)).toEqual(expected);
  });
});

describe('OpenAI provider', () => {
  it('maps topics to the configured models', () => {
    const p = provider();
    expect([p.model('trading'), p.model('accounts'), p.model('candles')]).toEqual([
      'gpt-4o',
      'gpt-4o-mini',
      'gpt-3.5-turbo',
    ]);
    expect(p.id).toBe('openai');
  });

  it('names OpenAI only when it talks to OpenAI', () => {
    expect(createOpenAiProvider({ apiKey: 'sk-x', models }).label).toBe('OpenAI');
    expect(provider().label).toBe('The OpenAI-compatible AI server');
  });

  it('sends the key as a bearer token, and no Authorization at all to a keyless server', async () => {
    await provider({ apiKey: 'sk-test' }).complete({ model: 'gpt-4o', messages: question });
    await provider({}).complete({ model: 'llama3.1', messages: question });
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(fake.requests[1]!.headers.authorization).toBeUndefined();
  });

  it('sends tools, strict structured output, temperature, and include_usage on streams', async () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    };
    await provider().complete({
      model: 'gpt-4o',
      messages: question,
      tools: tradeTools,
      jsonSchema: { name: 'doc', schema },
      temperature: 0.2,
    });
    const body = fake.requests[0]!.body;
    expect(body.tools).toEqual(tradeTools.map((t) => ({ type: 'function', function: t })));
    expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'doc', schema, strict: true } });
    expect(body.temperature).toBe(0.2);
    expect(body.stream).toBe(false);
    await collect(provider().stream({ model: 'gpt-4o', messages: question }));
    expect(fake.requests[1]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('replays tool calls verbatim and serializes tool results', async () => {
    const messages: LlmMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'call_1', name: 'list_trades', args: {}, rawArguments: '{"state": "CLOSED",', argsError: 'bad' },
          { id: 'call_2', name: 'get_account_summary', args: { a: 1 } },
          { id: 'call_3', name: 'get_account_summary', args: {} },
        ],
      },
      { role: 'tool', toolCallId: 'call_1', name: 'list_trades', result: 'Invalid arguments', isError: true },
      { role: 'tool', toolCallId: 'call_2', name: 'get_account_summary', result: { balance: '10.00' } },
      { role: 'tool', toolCallId: 'call_3', name: 'get_account_summary', result: 'plain text' },
    ];
    fake.enqueue({ text: 'ok' });
    await provider().complete({ model: 'gpt-4o', messages });
    const sent = fake.requests[0]!.body.messages as Array<Record<string, unknown>>;
    expect(sent[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'list_trades', arguments: '{"state": "CLOSED",' } },
        { id: 'call_2', type: 'function', function: { name: 'get_account_summary', arguments: '{"a":1}' } },
        { id: 'call_3', type: 'function', function: { name: 'get_account_summary', arguments: '{}' } },
      ],
    });
    expect(sent.slice(3)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: '{"error":"Invalid arguments"}' },
      { role: 'tool', tool_call_id: 'call_2', content: '{"balance":"10.00"}' },
      { role: 'tool', tool_call_id: 'call_3', content: 'plain text' },
    ]);
  });

  it('assembles streamed tool call fragments into complete calls with parsed arguments', async () => {
    fake.enqueue({
      toolCalls: [
        { name: 'list_trades', args: { state: 'CLOSED', instrument: 'EUR_USD', count: 50 } },
        { name: 'get_account_summary', rawArguments: '{"oops' },
      ],
    });
    const events = await collect(provider().stream({ model: 'gpt-4o', messages: question, tools: tradeTools }));
    const calls = events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({
      name: 'list_trades',
      args: { state: 'CLOSED', instrument: 'EUR_USD', count: 50 },
    });
    expect(calls[0]!.id).toMatch(/^call_/);
    expect(calls[1]).toMatchObject({ name: 'get_account_summary', args: {}, rawArguments: '{"oops' });
    expect(calls[1]!.argsError).toContain('not valid JSON');
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
    expect((events.at(-1) as { usage?: unknown }).usage).toBeDefined();
  });

  it('copes with OpenAI-compatible servers that reuse index 0 for every streamed call', async () => {
    const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'llama3.1' };
    const chunk = (delta: unknown, finish: string | null = null) =>
      `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const call = (id: string, name: string, args: string) => ({
      role: 'assistant',
      tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: args } }],
    });
    const body = [
      chunk(call('call_a', 'list_trades', '{"state":"OPEN"}')),
      chunk(call('call_b', 'get_account_summary', '{}')),
      chunk({}, 'tool_calls'),
      'data: [DONE]\n\n',
    ].join('');
    fake.enqueue({ raw: { status: 200, body, headers: { 'content-type': 'text/event-stream' } } });
    const events = await collect(provider({}).stream({ model: 'llama3.1', messages: question, tools: tradeTools }));
    const calls = events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
    expect(calls.map((c) => [c.id, c.name, c.args])).toEqual([
      ['call_a', 'list_trades', { state: 'OPEN' }],
      ['call_b', 'get_account_summary', {}],
    ]);
  });

  it('treats a content_filter finish as a refusal', async () => {
    fake.enqueue({
      raw: {
        status: 200,
        body: {
          id: 'chatcmpl-x',
          object: 'chat.completion',
          created: 1,
          model: 'gpt-4o',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: '', refusal: null },
              logprobs: null,
              finish_reason: 'content_filter',
            },
          ],
        },
      },
    });
    expect((await llmErrorOf(provider().complete({ model: 'gpt-4o', messages: question }))).kind).toBe('refusal');
  });

  it('reports structured output that is not JSON', async () => {
    fake.enqueue({ text: 'Sure! Here are your insights:' });
    const error = await llmErrorOf(
      provider().complete({
        model: 'gpt-4o',
        messages: question,
        jsonSchema: { name: 'doc', schema: { type: 'object' }, strict: false },
      }),
    );
    expect(error.kind).toBe('invalid_response');
  });

  it('retries a server error, and answers', async () => {
    fake.enqueue({ error: 'server_error' }, { text: 'second time lucky' });
    const result = await provider({ apiKey: 'sk-test', maxRetries: 1 }).complete({
      model: 'gpt-4o',
      messages: question,
    });
    expect(result.text).toBe('second time lucky');
    expect(fake.requests).toHaveLength(2);
  });

  it('does not retry an exhausted quota', async () => {
    fake.setHandler(() => ({ error: 'insufficient_quota' }));
    const error = await llmErrorOf(
      provider({ apiKey: 'sk-test', maxRetries: 2 }).complete({ model: 'gpt-4o', messages: question }),
    );
    expect(error.kind).toBe('quota');
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses a wrong key as auth', async () => {
    const guarded = await startFakeOpenAI({ apiKey: 'sk-right' });
    try {
      const p = createOpenAiProvider({ apiKey: 'sk-wrong', baseURL: guarded.url, models, maxRetries: 0 });
      const error = await llmErrorOf(p.complete({ model: 'gpt-4o', messages: question }));
      expect(error).toMatchObject({ kind: 'auth', status: 401 });
      expect(error.message).toBe(
        'The OpenAI-compatible AI server rejected the API key or credentials configured on this server.',
      );
    } finally {
      await guarded.close();
    }
  });
});
