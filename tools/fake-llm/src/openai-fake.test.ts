import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from './openai-fake';
import { fixtureJson, fixtureText, postJson, shapeDiff, ssePayloads } from './test-support';
import type { FakeLlmServer } from './types';

let fake: FakeLlmServer;
let endpoint: string;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  endpoint = `${fake.url}/chat/completions`;
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const ask = (content: string, extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content }],
  ...extra,
});

interface Chunk {
  choices: Array<{
    delta: {
      content?: string;
      tool_calls?: Array<{ index: number; id?: string; function?: { name?: string; arguments?: string } }>;
    };
    finish_reason: string | null;
  }>;
  usage?: unknown;
}

describe('fake OpenAI: responses match the reference fixtures', () => {
  it('answers text like response.text.json, as JSON with the API headers', async () => {
    fake.enqueue({ text: 'Hello trader.' });
    const res = await postJson(endpoint, fixtureJson('openai/request.text.json'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    const body = JSON.parse(res.text);
    expect(shapeDiff(body, fixtureJson('openai/response.text.json'))).toEqual([]);
    expect(body.choices[0].message.content).toBe('Hello trader.');
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.model).toBe('gpt-4o-mini');
  });

  it('answers tool calls like response.tool_calls.json, arguments as a JSON string', async () => {
    fake.enqueue({
      toolCalls: [
        { name: 'list_trades', args: { state: 'CLOSED', instrument: 'EUR_USD', count: 50 } },
        { name: 'get_candles', args: { instrument: 'EUR_USD', granularity: 'M5', count: 60 } },
      ],
    });
    const res = await postJson(endpoint, fixtureJson('openai/request.tools.json'));
    const body = JSON.parse(res.text);
    expect(shapeDiff(body, fixtureJson('openai/response.tool_calls.json'))).toEqual([]);
    const calls = body.choices[0].message.tool_calls as Array<{
      id: string;
      function: { name: string; arguments: string };
    }>;
    expect(calls.map((c) => c.function.name)).toEqual(['list_trades', 'get_candles']);
    expect(typeof calls[0]!.function.arguments).toBe('string');
    expect(JSON.parse(calls[1]!.function.arguments)).toEqual({ instrument: 'EUR_USD', granularity: 'M5', count: 60 });
    expect(calls[0]!.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(body.choices[0].message.content).toBeNull();
    expect(body.choices[0].finish_reason).toBe('tool_calls');
  });

  it('answers refusals and cut answers like response.refusal.json and response.length.json', async () => {
    fake.enqueue(
      { refusal: "I'm sorry, I can't help with that request." },
      { text: 'This month you closed', finish: 'length' },
    );
    const refusal = JSON.parse((await postJson(endpoint, ask('x'))).text);
    expect(shapeDiff(refusal, fixtureJson('openai/response.refusal.json'))).toEqual([]);
    expect(refusal.choices[0].message).toMatchObject({
      content: null,
      refusal: "I'm sorry, I can't help with that request.",
    });
    const cut = JSON.parse((await postJson(endpoint, ask('x'))).text);
    expect(shapeDiff(cut, fixtureJson('openai/response.length.json'))).toEqual([]);
    expect(cut.choices[0].finish_reason).toBe('length');
  });

  it('streams text like stream.text.sse and ends with [DONE]', async () => {
    fake.enqueue({ text: 'This month you closed 6 EUR_USD trades.' });
    const res = await postJson(endpoint, ask('x', { stream: true }));
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = ssePayloads(res.text);
    const reference = ssePayloads(fixtureText('openai/stream.text.sse'));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1) as Chunk[];
    expect(shapeDiff(chunks[0], reference[0])).toEqual([]);
    expect(shapeDiff(chunks[1], reference[1])).toEqual([]);
    expect(shapeDiff(chunks.at(-1), reference.at(-2))).toEqual([]);
    expect(chunks.map((c) => c.choices[0]!.delta.content ?? '').join('')).toBe(
      'This month you closed 6 EUR_USD trades.',
    );
    expect(chunks.length).toBeGreaterThan(4);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
  });

  it('streams tool calls with include_usage like stream.tool_calls.include_usage.sse', async () => {
    const args = { state: 'CLOSED', instrument: 'EUR_USD', count: 50 };
    fake.enqueue({
      toolCalls: [
        { name: 'list_trades', args },
        { name: 'get_candles', args: { instrument: 'EUR_USD' } },
      ],
    });
    const res = await postJson(endpoint, fixtureJson('openai/request.tools.stream.json'));
    const events = ssePayloads(res.text);
    const reference = ssePayloads(fixtureText('openai/stream.tool_calls.include_usage.sse'));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1) as Chunk[];
    expect(shapeDiff(chunks[0], reference[0])).toEqual([]);
    expect(shapeDiff(chunks[1], reference[1])).toEqual([]);
    expect(shapeDiff(chunks.at(-1), reference.at(-2))).toEqual([]);
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    // Reassembled by index, the fragments give back each call.
    const assembled = new Map<number, { name: string; args: string }>();
    for (const c of chunks) {
      for (const f of c.choices[0]?.delta.tool_calls ?? []) {
        const call = assembled.get(f.index) ?? { name: '', args: '' };
        call.name += f.function?.name ?? '';
        call.args += f.function?.arguments ?? '';
        assembled.set(f.index, call);
      }
    }
    expect(JSON.parse(assembled.get(0)!.args)).toEqual(args);
    expect(assembled.get(1)!.name).toBe('get_candles');
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('fails a stream after some text like stream.error-midstream.sse', async () => {
    fake.enqueue({ error: 'server_error', afterText: 'This month you' });
    const res = await postJson(endpoint, ask('x', { stream: true }));
    expect(res.status).toBe(200);
    const events = ssePayloads(res.text);
    const reference = ssePayloads(fixtureText('openai/stream.error-midstream.sse'));
    expect(events).not.toContain('[DONE]');
    expect(events.at(-1)).toEqual(reference.at(-1));
    expect((events.slice(0, -1) as Chunk[]).map((c) => c.choices[0]!.delta.content ?? '').join('')).toBe(
      'This month you',
    );
  });
});

describe('fake OpenAI: errors carry the real bodies', () => {
  const exact: Array<[Parameters<FakeLlmServer['enqueue']>[0], number, string]> = [
    [{ error: 'permission_denied' }, 403, 'openai/errors/403.unsupported-region.json'],
    [{ error: 'insufficient_quota' }, 429, 'openai/errors/429.insufficient-quota.json'],
    [{ error: 'server_error' }, 500, 'openai/errors/500.server-error.json'],
    [{ error: 'overloaded' }, 503, 'openai/errors/503.overloaded.json'],
    [{ error: 'bad_request' }, 400, 'openai/errors/400.invalid-tool-message-order.json'],
  ];
  it.each(exact)('%j answers %i with %s', async (reply, status, file) => {
    fake.enqueue(reply);
    const res = await postJson(endpoint, ask('x'));
    expect(res.status).toBe(status);
    expect(JSON.parse(res.text)).toEqual(fixtureJson(file));
  });

  it('names the unknown model like 404.model-not-found.json', async () => {
    fake.enqueue({ error: 'model_not_found' });
    const res = await postJson(endpoint, { ...ask('x'), model: 'gpt-9-imaginary' });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toEqual(fixtureJson('openai/errors/404.model-not-found.json'));
  });

  it('rate limits with retry headers like 429.rate-limit.json', async () => {
    fake.enqueue({ error: 'rate_limit' });
    const res = await postJson(endpoint, ask('x'));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after-ms')).toBe('159');
    const body = JSON.parse(res.text);
    expect(shapeDiff(body, fixtureJson('openai/errors/429.rate-limit.json'))).toEqual([]);
    expect(body.error).toMatchObject({ type: 'tokens', code: 'rate_limit_exceeded', param: null });
  });

  it('refuses another API key like 401.invalid-api-key.json, masking the key', async () => {
    const guarded = await startFakeOpenAI({ apiKey: 'sk-good-key-1234' });
    try {
      const url = `${guarded.url}/chat/completions`;
      const bad = await postJson(url, ask('x'), { authorization: 'Bearer sk-proj-wrong-key-wXyZ' });
      expect(bad.status).toBe(401);
      const body = JSON.parse(bad.text);
      expect(shapeDiff(body, fixtureJson('openai/errors/401.invalid-api-key.json'))).toEqual([]);
      expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' });
      expect(body.error.message).toMatch(/^Incorrect API key provided: sk-\*+wXyZ\./);
      expect(body.error.message).not.toContain('wrong-key');
      const good = await postJson(url, ask('x'), { authorization: 'Bearer sk-good-key-1234' });
      expect(good.status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

describe('fake OpenAI: rejects what the real API rejects', () => {
  it('accepts every reference request', async () => {
    for (const file of [
      'request.text.json',
      'request.tools.json',
      'request.tools.forced.json',
      'request.tool-results.json',
      'request.tools.stream.json',
    ]) {
      const res = await postJson(endpoint, fixtureJson(`openai/${file}`));
      expect(res.status, file).toBe(200);
    }
  });

  it('rejects a tool message without a preceding tool call like 400.invalid-tool-message-order.json', async () => {
    const res = await postJson(endpoint, {
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 'u' },
        { role: 'tool', tool_call_id: 'call_x', content: '{}' },
      ],
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual(fixtureJson('openai/errors/400.invalid-tool-message-order.json'));
  });

  it('rejects an unanswered tool call', async () => {
    const request = fixtureJson<{ messages: unknown[] }>('openai/request.tool-results.json');
    request.messages.pop();
    const res = await postJson(endpoint, request);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.message).toContain('call_7HfN2sYdW0aRk4uPz9cGmE1x');
  });

  it('rejects a strict schema missing a required key like 400.bad-schema.json', async () => {
    const request = fixtureJson<{ tools: Array<{ function: { parameters: { required: string[] } } }> }>(
      'openai/request.tools.json',
    );
    request.tools[1]!.function.parameters.required = ['state', 'instrument'];
    const res = await postJson(endpoint, request);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual(fixtureJson('openai/errors/400.bad-schema.json'));
  });

  it('rejects a strict response_format whose objects allow extra keys', async () => {
    const res = await postJson(endpoint, {
      ...ask('x'),
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'insights',
          strict: true,
          schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        },
      },
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.message).toContain(
      "'additionalProperties' is required to be supplied and to be false",
    );
  });

  it('serves /chat/completions without /v1 and answers unknown paths with 404', async () => {
    fake.enqueue({ text: 'ok' });
    const base = fake.url.replace(/\/v1$/, '');
    expect((await postJson(`${base}/chat/completions`, ask('x'))).status).toBe(200);
    const missing = await postJson(`${base}/v1/responses`, ask('x'));
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text).error.message).toBe('Invalid URL (POST /v1/responses)');
  });
});

describe('fake OpenAI: scripting, default behaviour and the request log', () => {
  it('uses the queue first, then the handler, then the default behaviour', async () => {
    fake.enqueue({ text: 'first' });
    fake.setHandler((req) => (req.lastUserText === 'handled' ? { text: 'from handler' } : undefined));
    const contents = [];
    for (const q of ['anything', 'handled', 'plain question 42']) {
      contents.push(JSON.parse((await postJson(endpoint, ask(q))).text).choices[0].message.content);
    }
    expect(contents[0]).toBe('first');
    expect(contents[1]).toBe('from handler');
    expect(contents[2]).toContain('plain question 42');
  });

  it('calls the most relevant tool with arguments read off the question', async () => {
    const res = await postJson(endpoint, {
      ...fixtureJson<Record<string, unknown>>('openai/request.tools.json'),
      messages: [{ role: 'user', content: 'Show my top 3 closed GBP/USD trades' }],
    });
    const call = JSON.parse(res.text).choices[0].message.tool_calls[0].function as { name: string; arguments: string };
    expect(call.name).toBe('list_trades');
    expect(JSON.parse(call.arguments)).toEqual({ state: 'CLOSED', instrument: 'GBP_USD', count: 3 });
  });

  it('answers tool results with their numbers', async () => {
    const res = await postJson(endpoint, fixtureJson('openai/request.tool-results.json'));
    const text: string = JSON.parse(res.text).choices[0].message.content;
    for (const figure of ['closedTrades 6', 'wins 4', 'losses 2', 'realizedPL 170.0000', 'last.c 1.17311']) {
      expect(text).toContain(figure);
    }
  });

  it('logs each request in a neutral shape', async () => {
    await postJson(endpoint, fixtureJson('openai/request.tool-results.json'));
    const [logged] = fake.requests;
    expect(logged).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o-mini',
      stream: false,
      path: '/v1/chat/completions',
    });
    expect(logged!.tools.map((t) => t.name)).toEqual(['get_account_summary', 'list_trades', 'get_candles']);
    expect(logged!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    expect(logged!.messages[2]!.toolCalls![0]).toEqual({
      id: 'call_Q8mXbZ3kTq1wVt5cJp2LrH7e',
      name: 'list_trades',
      args: { state: 'CLOSED', instrument: 'EUR_USD', count: 50 },
    });
    expect(logged!.toolResults[0]).toEqual({
      name: 'list_trades',
      result: { closedTrades: 6, wins: 4, losses: 2, realizedPL: '170.0000', currency: 'USD' },
    });
  });

  it('answers structured output with a document of the schema', async () => {
    const schema = {
      type: 'object',
      properties: {
        summary: { type: 'string' },
        winRate: { type: 'number' },
        tips: { type: 'array', items: { type: 'string' } },
      },
      required: ['summary', 'winRate', 'tips'],
      additionalProperties: false,
    };
    const res = await postJson(endpoint, {
      ...ask('Win rate 62.5 over 8 trades'),
      response_format: { type: 'json_schema', json_schema: { name: 'insights', strict: true, schema } },
    });
    const doc = JSON.parse(JSON.parse(res.text).choices[0].message.content as string) as {
      summary: string;
      winRate: unknown;
      tips: string[];
    };
    expect(Object.keys(doc).sort()).toEqual(['summary', 'tips', 'winRate']);
    expect(doc.summary).toContain('62.5');
    expect(typeof doc.winRate).toBe('number');
    expect(doc.tips.length).toBeGreaterThan(0);
  });

  it('is scriptable over HTTP for tests in another process', async () => {
    const base = fake.url.replace(/\/v1$/, '');
    expect((await postJson(`${base}/_fake/replies`, [{ text: 'one' }, { text: 'two' }])).status).toBe(200);
    const first = JSON.parse((await postJson(endpoint, ask('a'))).text).choices[0].message.content;
    const second = JSON.parse((await postJson(endpoint, ask('b'))).text).choices[0].message.content;
    expect([first, second]).toEqual(['one', 'two']);
    const log = (await (await fetch(`${base}/_fake/requests`)).json()) as Array<{ lastUserText: string }>;
    expect(log.map((r) => r.lastUserText)).toEqual(['a', 'b']);
    await postJson(`${base}/_fake/reset`, {});
    expect(fake.requests).toEqual([]);
  });
});
