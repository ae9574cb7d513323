import type { FakeErrorKind, FakeLlmServer } from '@pipsense/fake-llm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LlmErrorKind } from './errors';
import { collect, llmErrorOf, setups, tradeTools } from '../../test/llm-providers';
import { roundLimitMessage, runToolLoop, toolCallLimitMessage, ToolInputError } from './tool-loop';
import type { LlmMessage, LlmProvider } from './types';

/** The same behaviour is required of both providers, each against its own fake server. */
describe.each(setups)('$name provider against its fake server', (setup) => {
  let fake: FakeLlmServer;
  let provider: LlmProvider;

  beforeAll(async () => {
    fake = await setup.start();
    provider = setup.provider(fake);
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const conversation = (question: string): LlmMessage[] => [
    { role: 'system', content: 'You are a trading-journal assistant.' },
    { role: 'user', content: question },
  ];

  describe('answers', () => {
    it('a plain text question', async () => {
      fake.enqueue({ text: 'A trailing stop follows the price at a set distance.' });
      const result = await provider.complete({
        model: setup.model,
        messages: conversation('What is a trailing stop?'),
      });
      expect(result).toMatchObject({
        text: 'A trailing stop follows the price at a set distance.',
        toolCalls: [],
        finishReason: 'stop',
      });
      expect(result.usage!.totalTokens).toBeGreaterThan(0);
      const [request] = fake.requests;
      expect(request!.model).toBe(setup.model);
      expect(request!.messages.map((m) => [m.role, m.text])).toEqual([
        ['system', 'You are a trading-journal assistant.'],
        ['user', 'What is a trailing stop?'],
      ]);
    });

    it('caps the output tokens of every call on the wire', async () => {
      const sentCap = (i: number): unknown => {
        const body = fake.requests[i]!.body;
        if (setup.name === 'openai') return body['max_completion_tokens'];
        const generation = (body['generationConfig'] ?? body['generation_config']) as Record<string, unknown>;
        return generation['maxOutputTokens'] ?? generation['max_output_tokens'];
      };
      fake.enqueue({ text: 'one' }, { text: 'two' }, { text: 'three' });
      await provider.complete({ model: setup.model, messages: conversation('a') });
      await collect(provider.stream({ model: setup.model, messages: conversation('b') }));
      await provider.complete({ model: setup.model, messages: conversation('c'), maxOutputTokens: 300 });
      expect([sentCap(0), sentCap(1), sentCap(2)]).toEqual([1500, 1500, 300]);
    });

    it('streams text deltas in order, then one finish event', async () => {
      const text =
        'This month you closed 6 EUR_USD trades: 4 winners and 2 losers, for a net realized P/L of +170.00 USD.';
      fake.enqueue({ text });
      const events = await collect(provider.stream({ model: setup.model, messages: conversation('How did I do?') }));
      const deltas = events.filter((e) => e.type === 'text');
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.map((e) => e.text).join('')).toBe(text);
      const finish = events.at(-1)!;
      expect(finish).toMatchObject({ type: 'finish', text, finishReason: 'stop', toolCalls: [] });
      expect(events.filter((e) => e.type === 'finish')).toHaveLength(1);
      expect(fake.requests[0]!.stream).toBe(true);
    });

    it('structured output as parsed JSON', async () => {
      const doc = { summary: 'Win rate 62.5%', quickWins: ['Set a stop-loss on 7 of 9 open trades'] };
      fake.enqueue({ json: doc });
      const schema = {
        type: 'object',
        properties: { summary: { type: 'string' }, quickWins: { type: 'array', items: { type: 'string' } } },
        required: ['summary', 'quickWins'],
        additionalProperties: false,
      };
      const result = await provider.complete({
        model: setup.model,
        messages: conversation('Write the insights.'),
        jsonSchema: { name: 'insights', schema },
      });
      expect(result.json).toEqual(doc);
      expect(fake.requests[0]!.jsonSchema).toEqual(schema);
    });

    it('structured output when streaming too', async () => {
      fake.enqueue({ json: { ok: true } });
      const events = await collect(
        provider.stream({
          model: setup.model,
          messages: conversation('x'),
          jsonSchema: {
            name: 'flag',
            schema: {
              type: 'object',
              properties: { ok: { type: 'boolean' } },
              required: ['ok'],
              additionalProperties: false,
            },
          },
        }),
      );
      expect(events.at(-1)).toMatchObject({ type: 'finish', json: { ok: true } });
    });
  });

  describe('runs tools', () => {
    it('round trip through runToolLoop: the answer quotes the data the tool returned', async () => {
      const execute = vi.fn(async () => ({ closedTrades: 6, wins: 4, realizedPL: '170.00', currency: 'USD' }));
      const result = await runToolLoop({
        provider,
        model: setup.model,
        messages: conversation('Show my last 20 closed EUR/USD trades'),
        tools: tradeTools,
        execute,
      });
      expect(execute).toHaveBeenCalledTimes(1);
      expect(execute.mock.calls[0]!.slice(0, 2)).toEqual([
        'list_trades',
        { state: 'CLOSED', instrument: 'EUR_USD', count: 20 },
      ]);
      expect(result.text).toContain('closedTrades 6');
      expect(result.text).toContain('realizedPL 170.00');
      expect(result).toMatchObject({ rounds: 1, stoppedAtRoundLimit: false, model: setup.model });
      expect(result.toolCalls).toEqual([
        expect.objectContaining({
          name: 'list_trades',
          isError: false,
          result: { closedTrades: 6, wins: 4, realizedPL: '170.00', currency: 'USD' },
        }),
      ]);
      expect(fake.requests).toHaveLength(2);
      expect(fake.requests[1]!.toolResults).toEqual([
        { name: 'list_trades', result: { closedTrades: 6, wins: 4, realizedPL: '170.00', currency: 'USD' } },
      ]);
      expect(fake.requests[0]!.tools.map((t) => t.name)).toEqual(['get_account_summary', 'list_trades']);
      expect(result.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
      expect(result.usage.totalTokens).toBeGreaterThan(0);
    });

    it('streams the final answer through onText', async () => {
      const deltas: Array<[string, number]> = [];
      const result = await runToolLoop({
        provider,
        model: setup.model,
        messages: conversation('What is my balance?'),
        tools: tradeTools,
        execute: async () => ({ balance: '10250.75', currency: 'USD' }),
        onText: (delta, round) => deltas.push([delta, round]),
      });
      expect(result.text).toContain('balance 10250.75');
      expect(deltas.every(([, round]) => round === 2)).toBe(true);
      expect(deltas.map(([d]) => d).join('')).toBe(result.text);
      expect(fake.requests.every((r) => r.stream)).toBe(true);
    });

    it('parallel calls of one round are all answered, in order', async () => {
      fake.enqueue(
        {
          toolCalls: [
            { name: 'get_account_summary', args: {} },
            { name: 'list_trades', args: { state: 'OPEN', instrument: null, count: 5 } },
          ],
        },
        { text: 'done' },
      );
      const result = await runToolLoop({
        provider,
        model: setup.model,
        messages: conversation('Account and open trades?'),
        tools: tradeTools,
        execute: async (name) => ({ tool: name }),
      });
      expect(result.text).toBe('done');
      expect(fake.requests[1]!.toolResults).toEqual([
        { name: 'get_account_summary', result: { tool: 'get_account_summary' } },
        { name: 'list_trades', result: { tool: 'list_trades' } },
      ]);
    });

    it('malformed arguments give the model a chance to fix them', async () => {
      fake.enqueue(
        { toolCalls: [{ name: 'list_trades', rawArguments: '{"state": "CLOSED", "count": ' }] },
        { toolCalls: [{ name: 'list_trades', args: { state: 'CLOSED', instrument: null, count: 5 } }] },
        { text: 'Fixed.' },
      );
      const execute = vi.fn(async (_name: string, _args: Record<string, unknown>) => ({ trades: [] }));
      const result = await runToolLoop({
        provider,
        model: setup.model,
        messages: conversation('closed trades'),
        tools: tradeTools,
        execute,
      });
      expect(result.text).toBe('Fixed.');
      expect(execute).toHaveBeenCalledTimes(1);
      expect(execute.mock.calls[0]![1]).toEqual({ state: 'CLOSED', instrument: null, count: 5 });
      expect(result.rounds).toBe(2);
      // OpenAI sees an error result for the broken call; Gemini reports MALFORMED_FUNCTION_CALL and gets a nudge.
      const second = fake.requests[1]!;
      if (setup.name === 'openai') {
        expect(second.toolResults[0]!.result).toEqual({ error: expect.stringContaining('not valid JSON') });
      } else {
        expect(second.lastUserText).toContain('could not be read');
      }
    });

    it('unknown tools and failing tools are answered with an error result, never a crash', async () => {
      fake.enqueue(
        { toolCalls: [{ name: 'delete_account', args: {} }] },
        { toolCalls: [{ name: 'list_trades', args: { state: 'ALL', instrument: 'XXX', count: 5 } }] },
        { toolCalls: [{ name: 'get_account_summary', args: {} }] },
        { text: 'Sorry.' },
      );
      const boom = new Error('connect ECONNREFUSED 10.0.0.7:5432');
      const execute = vi.fn(async (name: string) => {
        if (name === 'list_trades') throw new ToolInputError('Unknown instrument "XXX"; use the form EUR_USD.');
        throw boom;
      });
      const result = await runToolLoop({
        provider,
        model: setup.model,
        messages: conversation('x'),
        tools: tradeTools,
        execute,
      });
      expect(result.text).toBe('Sorry.');
      // Each request carries every result since the question; the newest is last.
      expect(fake.requests[1]!.toolResults.at(-1)!.result).toEqual({
        error: expect.stringContaining('Unknown tool "delete_account"'),
      });
      expect(fake.requests[2]!.toolResults.at(-1)!.result).toEqual({
        error: 'Unknown instrument "XXX"; use the form EUR_USD.',
      });
      const generic = fake.requests[3]!.toolResults.at(-1)!.result as { error: string };
      expect(generic.error).toContain('failed');
      expect(generic.error).not.toContain('ECONNREFUSED');
      expect(result.toolCalls.map((c) => c.isError)).toEqual([true, true, true]);
      expect(result.toolCalls[2]!.error).toBe(boom);
    });

    it('runs at most 8 tool calls of a round; the rest are answered with the limit, never run', async () => {
      const twenty = Array.from({ length: 20 }, (_, i) => ({
        name: 'list_trades',
        args: { state: 'ALL', instrument: `I${i}` },
      }));
      fake.enqueue({ toolCalls: twenty }, { text: 'Done.' });
      const execute = vi.fn(async (_name: string, _args: Record<string, unknown>) => ({ trades: [] }));
      const result = await runToolLoop({
        provider,
        model: setup.model,
        messages: conversation('many'),
        tools: tradeTools,
        execute,
      });
      expect(result.text).toBe('Done.');
      expect(execute).toHaveBeenCalledTimes(8);
      expect(execute.mock.calls.map((c) => c[1]['instrument'])).toEqual(Array.from({ length: 8 }, (_, i) => `I${i}`));
      const answers = fake.requests[1]!.toolResults;
      expect(answers).toHaveLength(20);
      expect(
        answers.slice(8).every((a) => JSON.stringify(a.result) === JSON.stringify({ error: toolCallLimitMessage(8) })),
      ).toBe(true);
      expect(result.toolCalls.filter((c) => c.isError)).toHaveLength(12);
    });

    it('stops after 5 rounds with a clear message', async () => {
      fake.setHandler(() => ({ toolCalls: [{ name: 'get_account_summary', args: {} }] }));
      const execute = vi.fn(async () => ({ balance: 1 }));
      const result = await runToolLoop({
        provider,
        model: setup.model,
        messages: conversation('loop'),
        tools: tradeTools,
        execute,
      });
      expect(result).toMatchObject({ stoppedAtRoundLimit: true, rounds: 5, text: roundLimitMessage(5) });
      expect(execute).toHaveBeenCalledTimes(5);
      expect(fake.requests).toHaveLength(6);
    });
  });

  describe('fails with a clear LlmError', () => {
    const expected: Record<FakeErrorKind, { kind: LlmErrorKind; status: number }> = {
      invalid_api_key: { kind: 'auth', status: 401 },
      permission_denied: { kind: 'auth', status: 403 },
      model_not_found: { kind: 'bad_request', status: 404 },
      bad_request: { kind: 'bad_request', status: 400 },
      rate_limit: { kind: 'rate_limit', status: 429 },
      // Only OpenAI tells "no credit" apart from "slow down".
      insufficient_quota: { kind: setup.name === 'openai' ? 'quota' : 'rate_limit', status: 429 },
      server_error: { kind: 'unavailable', status: 500 },
      overloaded: { kind: 'unavailable', status: 503 },
    };

    it.each(Object.entries(expected))('%s', async (fakeKind, { kind, status }) => {
      fake.enqueue({ error: fakeKind as FakeErrorKind }, { error: fakeKind as FakeErrorKind });
      const error = await llmErrorOf(provider.complete({ model: setup.model, messages: conversation('x') }));
      expect(error).toMatchObject({ kind, status, provider: setup.name });
      expect(error.message).toContain(provider.label);
      expect(error.message).not.toMatch(/sk-|https?:\/\//);
      const streamed = await llmErrorOf(collect(provider.stream({ model: setup.model, messages: conversation('x') })));
      expect(streamed.kind).toBe(kind);
    });

    it('names the missing model', async () => {
      fake.enqueue({ error: 'model_not_found' });
      const error = await llmErrorOf(provider.complete({ model: 'imaginary-9', messages: conversation('x') }));
      expect(error.message).toContain('"imaginary-9"');
    });

    it('an error in the middle of a stream, after the first text', async () => {
      fake.enqueue({ error: 'overloaded', afterText: 'This month you closed 6 trades' });
      const seen: string[] = [];
      const error = await llmErrorOf(
        (async () => {
          for await (const event of provider.stream({ model: setup.model, messages: conversation('x') })) {
            if (event.type === 'text') seen.push(event.text);
          }
        })(),
      );
      expect(seen.join('')).toBe('This month you closed 6 trades');
      expect(error.kind).toBe('unavailable');
    });

    it('a refusal', async () => {
      fake.enqueue({ refusal: "I can't help with that." }, { refusal: "I can't help with that." });
      expect((await llmErrorOf(provider.complete({ model: setup.model, messages: conversation('x') }))).kind).toBe(
        'refusal',
      );
      expect(
        (await llmErrorOf(collect(provider.stream({ model: setup.model, messages: conversation('x') })))).kind,
      ).toBe('refusal');
    });

    it('an answer cut at the token limit, keeping the partial text', async () => {
      fake.enqueue({ text: 'This month you closed 6 EUR_USD trades: 4 winners', finish: 'length' });
      const error = await llmErrorOf(provider.complete({ model: setup.model, messages: conversation('x') }));
      expect(error).toMatchObject({ kind: 'length', partialText: 'This month you closed 6 EUR_USD trades: 4 winners' });
    });

    it('a timeout when the provider is slower than the budget', async () => {
      const quick = setup.provider(fake, { timeoutMs: 200 });
      fake.enqueue({ text: 'late', delayMs: 10_000 });
      const error = await llmErrorOf(quick.complete({ model: setup.model, messages: conversation('x') }));
      expect(error.kind).toBe('timeout');
      expect(error.retryable).toBe(true);
    });

    // The response head and first chunk arrive at once; without a silence limit this would hang.
    it('a timeout when a stream stalls after its first chunk', async () => {
      const quick = setup.provider(fake, { timeoutMs: 300 });
      const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
      fake.enqueue({ text: words, chunkDelayMs: 10_000 });
      const error = await llmErrorOf(collect(quick.stream({ model: setup.model, messages: conversation('x') })));
      expect(error.kind).toBe('timeout');
    });

    it('no timeout for a slow but steady stream that lasts longer than the budget', async () => {
      const quick = setup.provider(fake, { timeoutMs: 1000 });
      // About 12 events, 150 ms apart (Gemini sends eight words per event).
      const words = Array.from({ length: setup.name === 'openai' ? 10 : 96 }, (_, i) => `w${i}`).join(' ');
      fake.enqueue({ text: words, chunkDelayMs: 150 });
      const events = await collect(quick.stream({ model: setup.model, messages: conversation('x') }));
      expect(events.at(-1)).toMatchObject({ type: 'finish', text: words });
    });

    it('the caller aborting, or the caller timing out', async () => {
      fake.enqueue({ text: 'late', delayMs: 10_000 }, { text: 'late', delayMs: 10_000 });
      const controller = new AbortController();
      const pending = provider.complete({ model: setup.model, messages: conversation('x'), signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      expect((await llmErrorOf(pending)).kind).toBe('aborted');
      const timed = provider.complete({
        model: setup.model,
        messages: conversation('x'),
        signal: AbortSignal.timeout(50),
      });
      expect((await llmErrorOf(timed)).kind).toBe('timeout');
    });

    it('an unreachable server', async () => {
      const closed = await setup.start();
      const unreachable = setup.provider(closed);
      await closed.close();
      const error = await llmErrorOf(unreachable.complete({ model: setup.model, messages: conversation('x') }));
      expect(error.kind).toBe('network');
    });
  });

  it('leaving a stream early releases it, and the provider goes on working', async () => {
    fake.enqueue({ text: Array.from({ length: 60 }, (_, i) => `w${i}`).join(' '), chunkDelayMs: 5 }, { text: 'next' });
    for await (const event of provider.stream({ model: setup.model, messages: conversation('x') })) {
      if (event.type === 'text') break;
    }
    const result = await provider.complete({ model: setup.model, messages: conversation('y') });
    expect(result.text).toBe('next');
  });
});
