import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixtureJson, fixtureText, postJson, shapeDiff, ssePayloads } from './test-support';
import type { FakeLlmServer, FakeReply } from './types';
import { startFakeVertex } from './vertex-fake';

let fake: FakeLlmServer;
const PROJECT_MODEL =
  '/v1beta1/projects/my-trading-journal/locations/us-central1/publishers/google/models/gemini-2.5-flash';
const EXPRESS_MODEL = '/v1beta1/publishers/google/models/gemini-2.5-flash';

beforeAll(async () => {
  fake = await startFakeVertex();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const generate = (body: unknown, path = PROJECT_MODEL) => postJson(`${fake.url}${path}:generateContent`, body);
const streamSse = (body: unknown, path = PROJECT_MODEL) =>
  postJson(`${fake.url}${path}:streamGenerateContent?alt=sse`, body);
const ask = (text: string) => ({ contents: [{ role: 'user', parts: [{ text }] }] });

/** Fields the real API omits when zero or not applicable. */
const OPTIONAL = ['thoughtsTokenCount', 'avgLogprobs'];

interface Chunk {
  candidates?: Array<{
    content: { parts?: Array<{ text?: string; functionCall?: { name: string; args: unknown } }> };
    finishReason?: string;
  }>;
  usageMetadata?: unknown;
}

describe('fake Vertex AI: responses match the reference fixtures', () => {
  it('answers text like response.text.json', async () => {
    fake.enqueue({ text: 'You closed 6 trades.' });
    const res = await generate(ask('x'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const body = JSON.parse(res.text);
    expect(shapeDiff(body, fixtureJson('vertex/response.text.json'), OPTIONAL)).toEqual([]);
    expect(body.candidates[0].content).toEqual({ role: 'model', parts: [{ text: 'You closed 6 trades.' }] });
    expect(body.candidates[0].finishReason).toBe('STOP');
    expect(body.modelVersion).toBe('gemini-2.5-flash');
    expect(body.createTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('answers function calls like response.functionCall.json: args objects, the first call signed', async () => {
    fake.enqueue({
      toolCalls: [
        { name: 'list_trades', args: { state: 'CLOSED', instrument: 'EUR_USD', count: 50 } },
        { name: 'get_candles', args: { instrument: 'EUR_USD', granularity: 'M5', count: 60 } },
      ],
    });
    const body = JSON.parse((await generate(fixtureJson('vertex/request.generateContent.tools.json'))).text);
    expect(shapeDiff(body, fixtureJson('vertex/response.functionCall.json'), OPTIONAL)).toEqual([]);
    const [first, second] = body.candidates[0].content.parts;
    expect(first.functionCall).toEqual({
      name: 'list_trades',
      args: { state: 'CLOSED', instrument: 'EUR_USD', count: 50 },
    });
    expect(first.thoughtSignature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(second.thoughtSignature).toBeUndefined();
    expect(body.candidates[0].finishReason).toBe('STOP');
  });

  it('answers a cut answer like response.max-tokens.json and a refusal like response.prompt-blocked.json', async () => {
    fake.enqueue(
      { text: 'This month you closed', finish: 'length' },
      { refusal: 'The prompt was blocked due to prohibited content.' },
    );
    const cut = JSON.parse((await generate(ask('x'))).text);
    expect(shapeDiff(cut, fixtureJson('vertex/response.max-tokens.json'), OPTIONAL)).toEqual([]);
    expect(cut.candidates[0].finishReason).toBe('MAX_TOKENS');
    const blocked = JSON.parse((await generate(ask('x'))).text);
    expect(shapeDiff(blocked, fixtureJson('vertex/response.prompt-blocked.json'))).toEqual([]);
    expect(blocked.candidates).toBeUndefined();
    expect(blocked.promptFeedback.blockReason).toBe('PROHIBITED_CONTENT');
  });

  it('streams text with ?alt=sse like stream.text.alt-sse.txt: CRLF events, no [DONE]', async () => {
    const text =
      'This month you closed 6 EUR_USD trades: 4 winners and 2 losers, for a net realized P/L of +170.00 USD.';
    fake.enqueue({ text });
    const res = await streamSse(ask('x'));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.text).toMatch(/^data: .*\r\n\r\n/);
    expect(res.text).not.toContain('[DONE]');
    const chunks = ssePayloads(res.text) as Chunk[];
    const reference = ssePayloads(fixtureText('vertex/stream.text.alt-sse.txt'));
    expect(chunks.length).toBeGreaterThan(1);
    expect(shapeDiff(chunks[0], reference[0])).toEqual([]);
    expect(shapeDiff(chunks.at(-1), reference.at(-1), OPTIONAL)).toEqual([]);
    expect(chunks.map((c) => c.candidates![0]!.content.parts![0]!.text).join('')).toBe(text);
    expect(chunks.at(-1)!.candidates![0]!.finishReason).toBe('STOP');
  });

  it('streams a function call whole in one chunk like stream.functionCall.alt-sse.txt', async () => {
    fake.enqueue({
      toolCalls: [
        { name: 'list_trades', args: { state: 'CLOSED', instrument: 'EUR_USD', count: 50 } },
        { name: 'get_candles', args: { instrument: 'EUR_USD', granularity: 'M5', count: 60 } },
      ],
    });
    const chunks = ssePayloads((await streamSse(ask('x'))).text) as Chunk[];
    const reference = ssePayloads(fixtureText('vertex/stream.functionCall.alt-sse.txt'));
    expect(chunks).toHaveLength(1);
    expect(shapeDiff(chunks[0], reference[0], OPTIONAL)).toEqual([]);
  });

  it('streams a JSON array without alt=sse like stream.text.json-array.json', async () => {
    fake.enqueue({ text: 'one two three four five six seven eight nine ten' });
    const res = await postJson(`${fake.url}${PROJECT_MODEL}:streamGenerateContent`, ask('x'));
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const chunks = JSON.parse(res.text) as Chunk[];
    const reference = fixtureJson<unknown[]>('vertex/stream.text.json-array.json');
    expect(chunks).toHaveLength(2);
    expect(shapeDiff(chunks[0], reference[0])).toEqual([]);
    expect(shapeDiff(chunks[1], reference[2], OPTIONAL)).toEqual([]);
  });

  it('fails a stream after some text like stream.error-midstream.alt-sse.txt', async () => {
    fake.enqueue({ error: 'overloaded', afterText: 'This month you closed 6 EUR_USD trades' });
    const res = await streamSse(ask('x'));
    expect(res.status).toBe(200);
    const chunks = ssePayloads(res.text);
    const reference = ssePayloads(fixtureText('vertex/stream.error-midstream.alt-sse.txt'));
    expect(shapeDiff(chunks[0], reference[0])).toEqual([]);
    expect(chunks.at(-1)).toEqual(reference.at(-1));
  });

  it('reports arguments that are not an object as MALFORMED_FUNCTION_CALL', async () => {
    fake.enqueue({ toolCalls: [{ name: 'list_trades', rawArguments: '{"state": "CLOSED",' }] });
    const body = JSON.parse((await generate(ask('x'))).text);
    expect(body.candidates[0].finishReason).toBe('MALFORMED_FUNCTION_CALL');
    expect(body.candidates[0].content.parts).toBeUndefined();
  });
});

describe('fake Vertex AI: errors carry the real bodies', () => {
  const exact: Array<[FakeReply, number, string]> = [
    [{ error: 'invalid_api_key' }, 401, 'vertex/errors/401.unauthenticated.json'],
    [{ error: 'permission_denied' }, 403, 'vertex/errors/403.permission-denied.json'],
    [{ error: 'bad_request' }, 400, 'vertex/errors/400.invalid-argument.unknown-field.json'],
    [{ error: 'rate_limit' }, 429, 'vertex/errors/429.resource-exhausted.json'],
    [{ error: 'insufficient_quota' }, 429, 'vertex/errors/429.resource-exhausted.json'],
    [{ error: 'server_error' }, 500, 'vertex/errors/500.internal.json'],
    [{ error: 'overloaded' }, 503, 'vertex/errors/503.unavailable.json'],
  ];
  it.each(exact)('%j answers %i with %s', async (reply, status, file) => {
    fake.enqueue(reply);
    const res = await generate(ask('x'));
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(JSON.parse(res.text)).toEqual(fixtureJson(file));
  });

  it('names the unknown model like 404.model-not-found.json', async () => {
    fake.enqueue({ error: 'model_not_found' });
    const res = await generate(ask('x'), PROJECT_MODEL.replace('gemini-2.5-flash', 'gemini-9.9-imaginary'));
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toEqual(fixtureJson('vertex/errors/404.model-not-found.json'));
  });

  it('refuses another API key with the 401 body', async () => {
    const guarded = await startFakeVertex({ apiKey: 'good-key' });
    try {
      const url = `${guarded.url}${EXPRESS_MODEL}:generateContent`;
      const bad = await postJson(url, ask('x'), { 'x-goog-api-key': 'bad-key' });
      expect(bad.status).toBe(401);
      expect(JSON.parse(bad.text)).toEqual(fixtureJson('vertex/errors/401.unauthenticated.json'));
      expect((await postJson(url, ask('x'), { 'x-goog-api-key': 'good-key' })).status).toBe(200);
      expect((await postJson(url, ask('x'), { authorization: 'Bearer good-key' })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

describe('fake Vertex AI: rejects what the real API rejects', () => {
  it('accepts every reference request, camelCase and snake_case, on the project and express paths', async () => {
    for (const file of [
      'request.generateContent.tools.json',
      'request.generateContent.tools.snake_case.json',
      'request.generateContent.functionResponse.json',
    ]) {
      expect((await generate(fixtureJson(`vertex/${file}`))).status, file).toBe(200);
      expect((await generate(fixtureJson(`vertex/${file}`), EXPRESS_MODEL)).status, file).toBe(200);
    }
  });

  it('rejects an OpenAI-only key in a declaration like 400.invalid-argument.unknown-field.json', async () => {
    const request = fixtureJson<{ tools: Array<{ functionDeclarations: Array<Record<string, unknown>> }> }>(
      'vertex/request.generateContent.tools.json',
    );
    request.tools[0]!.functionDeclarations[0]!.strict = true;
    const res = await generate(request);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual(fixtureJson('vertex/errors/400.invalid-argument.unknown-field.json'));
  });

  it('rejects Gemini 3 history without thought signatures like 400.missing-thought-signature.json', async () => {
    const request = fixtureJson<{ contents: Array<{ parts: Array<Record<string, unknown>> }> }>(
      'vertex/request.generateContent.functionResponse.json',
    );
    const gemini3 = PROJECT_MODEL.replace('gemini-2.5-flash', 'gemini-3-pro-preview');
    expect((await generate(request, gemini3)).status).toBe(200);
    delete request.contents[1]!.parts[0]!.thoughtSignature;
    expect((await generate(request)).status).toBe(200);
    const res = await generate(request, gemini3);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual(fixtureJson('vertex/errors/400.missing-thought-signature.json'));
  });

  it('rejects assistant/system roles, empty contents and missing function responses', async () => {
    const wrongRole = await generate({ contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] });
    expect(JSON.parse(wrongRole.text).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect((await generate({ contents: [] })).status).toBe(400);
    const request = fixtureJson<{ contents: Array<{ parts: unknown[] }> }>(
      'vertex/request.generateContent.functionResponse.json',
    );
    request.contents[2]!.parts.pop();
    const missing = await generate(request);
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.text).error.message).toContain('number of function response parts');
    const unknownTop = await generate({ ...ask('x'), messages: [] });
    expect(JSON.parse(unknownTop.text).error.message).toBe(
      'Invalid JSON payload received. Unknown name "messages": Cannot find field.',
    );
  });
});

describe('fake Vertex AI: default behaviour and the request log', () => {
  it('calls a tool with arguments read off the question, then quotes the tool results', async () => {
    const request = fixtureJson<{ contents: unknown[] }>('vertex/request.generateContent.tools.json');
    request.contents = [{ role: 'user', parts: [{ text: 'Where is USD/JPY on the 15-minute chart?' }] }];
    const call = JSON.parse((await generate(request)).text).candidates[0].content.parts[0].functionCall;
    expect(call).toEqual({ name: 'get_candles', args: { instrument: 'USD_JPY', granularity: 'M15', count: 10 } });

    const answer = JSON.parse(
      (await generate(fixtureJson('vertex/request.generateContent.functionResponse.json'))).text,
    );
    const text: string = answer.candidates[0].content.parts[0].text;
    for (const figure of ['closedTrades 6', 'wins 4', 'realizedPL 170.0000', 'last.c 1.17311'])
      expect(text).toContain(figure);
  });

  it('logs requests with the model from the URL and the conversation in the neutral shape', async () => {
    await streamSse(fixtureJson('vertex/request.generateContent.functionResponse.json'), EXPRESS_MODEL);
    const [logged] = fake.requests;
    expect(logged).toMatchObject({ provider: 'vertex', model: 'gemini-2.5-flash', stream: true });
    expect(logged!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    expect(logged!.messages[2]!.toolCalls![1]).toEqual({
      name: 'get_candles',
      args: { instrument: 'EUR_USD', granularity: 'M5', count: 60 },
    });
    expect(logged!.toolResults.map((r) => r.name)).toEqual(['list_trades', 'get_candles']);
    expect(logged!.tools.map((t) => t.name)).toEqual(['get_account_summary', 'list_trades', 'get_candles']);
  });

  it('answers structured output (responseMimeType + responseJsonSchema) with a document of the schema', async () => {
    const res = await generate({
      ...ask('7 of 9 open trades have no stop-loss'),
      generationConfig: {
        responseMimeType: 'application/json',
        responseJsonSchema: {
          type: 'object',
          properties: { quickWins: { type: 'array', items: { type: 'string' } } },
          required: ['quickWins'],
        },
      },
    });
    const doc = JSON.parse(JSON.parse(res.text).candidates[0].content.parts[0].text as string) as {
      quickWins: string[];
    };
    expect(doc.quickWins[0]).toContain('7');
  });
});
