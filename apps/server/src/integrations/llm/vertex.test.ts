import { startFakeVertex, type FakeLlmServer } from '@pipsense/fake-llm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { collect, llmErrorOf, tradeTools } from '../../test/llm-providers';
import { runToolLoop } from './tool-loop';
import type { LlmMessage } from './types';
import { createVertexProvider, type VertexProviderConfig } from './vertex';

let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeVertex();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const provider = (overrides: Partial<VertexProviderConfig> = {}) =>
  createVertexProvider({
    apiKey: 'vertex-key',
    baseUrl: fake.url,
    model: 'gemini-2.5-flash',
    maxRetries: 0,
    ...overrides,
  });
const question: LlmMessage[] = [
  { role: 'system', content: 'You are a trading-journal assistant.' },
  { role: 'user', content: 'hi' },
];
const googleError = (code: number, status: string, message: string, details?: unknown[]) => ({
  raw: { status: code, body: { error: { code, message, status, ...(details ? { details } : {}) } } },
});

describe('Vertex AI provider', () => {
  it('uses one model for every topic', () => {
    const p = provider();
    expect([p.model('trading'), p.model('accounts'), p.model('candles')]).toEqual([
      'gemini-2.5-flash',
      'gemini-2.5-flash',
      'gemini-2.5-flash',
    ]);
    expect(p.label).toBe('Vertex AI');
  });

  it('with an API key: express-mode path and the x-goog-api-key header', async () => {
    await provider().complete({ model: 'gemini-2.5-flash', messages: question });
    const [request] = fake.requests;
    expect(request!.path).toBe('/v1beta1/publishers/google/models/gemini-2.5-flash:generateContent');
    expect(request!.headers['x-goog-api-key']).toBe('vertex-key');
    expect(request!.headers.authorization).toBeUndefined();
  });

  it('with a project: the regional resource path and a Google bearer token', async () => {
    const getRequestHeaders = vi.fn(async () => new Headers({ authorization: 'Bearer ya29.test-token' }));
    const p = provider({
      apiKey: undefined,
      project: 'my-trading-journal',
      location: 'europe-west4',
      googleAuthOptions: { authClient: { getRequestHeaders } as never },
    });
    await collect(p.stream({ model: 'gemini-2.5-flash', messages: question }));
    const [request] = fake.requests;
    expect(request!.path).toBe(
      '/v1beta1/projects/my-trading-journal/locations/europe-west4/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
    expect(request!.headers.authorization).toBe('Bearer ya29.test-token');
    expect(request!.headers['x-goog-api-key']).toBeUndefined();
  });

  it('sends the system prompt apart, roles user/model, JSON-schema declarations and structured output config', async () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    fake.enqueue({ json: { a: 'x' } });
    await provider().complete({
      model: 'gemini-2.5-flash',
      messages: question,
      tools: tradeTools,
      jsonSchema: { name: 'doc', schema },
      temperature: 0.1,
    });
    const body = fake.requests[0]!.body;
    expect(body.systemInstruction).toMatchObject({ parts: [{ text: 'You are a trading-journal assistant.' }] });
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'hi' }] }]);
    expect(body.tools).toEqual([
      {
        functionDeclarations: tradeTools.map((t) => ({
          name: t.name,
          description: t.description,
          parametersJsonSchema: t.parameters,
        })),
      },
    ]);
    expect(body.generationConfig).toEqual({
      maxOutputTokens: 1500,
      temperature: 0.1,
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    });
  });

  it('sends tool results as functionResponse parts of one user turn, after the model turn replayed with its signature', async () => {
    const messages: LlmMessage[] = [
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'gemini-call-a', name: 'list_trades', args: { state: 'OPEN' }, thoughtSignature: 'c2lnbmF0dXJl' },
          { id: 'gemini-call-b', name: 'get_account_summary', args: {} },
        ],
      },
      { role: 'tool', toolCallId: 'gemini-call-a', name: 'list_trades', result: [{ id: '7' }] },
      {
        role: 'tool',
        toolCallId: 'gemini-call-b',
        name: 'get_account_summary',
        result: 'Unknown account',
        isError: true,
      },
      { role: 'user', content: 'and then?' },
    ];
    await provider().complete({ model: 'gemini-2.5-flash', messages });
    expect(fake.requests[0]!.body.contents).toEqual([
      { role: 'user', parts: [{ text: 'q' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'list_trades', args: { state: 'OPEN' } }, thoughtSignature: 'c2lnbmF0dXJl' },
          { functionCall: { name: 'get_account_summary', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'list_trades', response: { output: [{ id: '7' }] } } },
          { functionResponse: { name: 'get_account_summary', response: { error: 'Unknown account' } } },
          { text: 'and then?' },
        ],
      },
    ]);
  });

  it('keeps thought signatures through a tool loop, as Gemini 3 requires', async () => {
    const execute = vi.fn(async () => ({ openTrades: 3 }));
    const result = await runToolLoop({
      provider: provider({ model: 'gemini-3-pro-preview' }),
      model: 'gemini-3-pro-preview',
      messages: [{ role: 'user', content: 'Show my open trades' }],
      tools: tradeTools,
      execute,
    });
    expect(result.text).toContain('openTrades 3');
    const replayed = (
      fake.requests[1]!.body.contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>
    )[1]!;
    expect(replayed.role).toBe('model');
    expect(typeof replayed.parts[0]!.thoughtSignature).toBe('string');
  });

  it('reports history that lost its signatures as a bad request', async () => {
    const messages: LlmMessage[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'gemini-call-a', name: 'list_trades', args: {} }] },
      { role: 'tool', toolCallId: 'gemini-call-a', name: 'list_trades', result: [] },
    ];
    const error = await llmErrorOf(provider().complete({ model: 'gemini-3-pro-preview', messages }));
    expect(error).toMatchObject({ kind: 'bad_request', status: 400 });
    expect(error.detail).toContain('thought_signature');
  });

  it('leaves thought summaries out of the answer', async () => {
    fake.enqueue({
      raw: {
        status: 200,
        body: {
          candidates: [
            {
              content: {
                role: 'model',
                parts: [{ text: 'Thinking about margin…', thought: true }, { text: 'Margin used is 12%.' }],
              },
              finishReason: 'STOP',
            },
          ],
          modelVersion: 'gemini-2.5-flash',
        },
      },
    });
    expect((await provider().complete({ model: 'gemini-2.5-flash', messages: question })).text).toBe(
      'Margin used is 12%.',
    );
  });

  it('maps Google-specific errors: invalid API key, billing exhaustion, a safety stop', async () => {
    fake.enqueue(
      googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
      ]),
      googleError(
        429,
        'RESOURCE_EXHAUSTED',
        'Your prepayment credits are depleted. Please go to AI Studio to manage your billing.',
      ),
      {
        raw: {
          status: 200,
          body: { candidates: [{ content: {}, finishReason: 'SAFETY' }], modelVersion: 'gemini-2.5-flash' },
        },
      },
    );
    const p = provider();
    expect((await llmErrorOf(p.complete({ model: 'gemini-2.5-flash', messages: question }))).kind).toBe('auth');
    expect((await llmErrorOf(p.complete({ model: 'gemini-2.5-flash', messages: question }))).kind).toBe('quota');
    expect((await llmErrorOf(p.complete({ model: 'gemini-2.5-flash', messages: question }))).kind).toBe('refusal');
  });

  it('retries an unavailable service, and answers', async () => {
    fake.enqueue({ error: 'overloaded' }, { text: 'back again' });
    const result = await provider({ maxRetries: 1 }).complete({ model: 'gemini-2.5-flash', messages: question });
    expect(result.text).toBe('back again');
    expect(fake.requests).toHaveLength(2);
  });

  it('reports a stream cut before its final chunk as a broken connection', async () => {
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [{ text: 'This month you' }] } }],
      modelVersion: 'gemini-2.5-flash',
    };
    fake.enqueue({
      raw: {
        status: 200,
        body: `data: ${JSON.stringify(chunk)}\r\n\r\n`,
        headers: { 'content-type': 'text/event-stream' },
      },
    });
    const seen: string[] = [];
    const error = await llmErrorOf(
      (async () => {
        for await (const event of provider().stream({ model: 'gemini-2.5-flash', messages: question })) {
          if (event.type === 'text') seen.push(event.text);
        }
      })(),
    );
    expect(seen).toEqual(['This month you']);
    expect(error.kind).toBe('network');
    expect(error.message).toBe('The connection to Vertex AI broke before the answer was complete. Please try again.');
  });
});
