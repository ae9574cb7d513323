import { describe, expect, it } from 'vitest';
import { fakeApi, jsonResponse } from '../../../test/fake-api';
import { messageRecord, sseEvent, sseResponse } from '../test/chat-fixtures';
import { sendQuery } from './send-query';

const answer = messageRecord('m2', 'c1', 'assistant', 'You have **2** open trades.');
const done = { success: true, message: 'Answered', data: answer };

/** The query endpoints answer `reply` (a response, or a function that may fail like the network). */
const stubQuery = (reply: Response | (() => Promise<Response>)) =>
  fakeApi({ 'POST /api/v1/query/oanda/:kind': () => (typeof reply === 'function' ? reply() : reply) });

describe('sendQuery', () => {
  it('asks for an event stream on the topic endpoint with the bearer token and the body', async () => {
    localStorage.setItem('token', JSON.stringify('jwt-1'));
    const api = stubQuery(sseResponse([sseEvent('done', done)]));
    await sendQuery(
      'http://ai',
      'candles',
      { query: 'q', chatId: 'c1', instrument: 'EUR_USD', granularity: 'M5' },
      {
        onDelta: () => {},
      },
    );
    const [call] = api.calls;
    expect(call!.url.href).toBe('http://ai/api/v1/query/oanda/candle');
    expect(call!.method).toBe('POST');
    expect(call!.headers).toMatchObject({ Accept: 'text/event-stream', Authorization: 'Bearer jwt-1' });
    expect(call!.body).toEqual({
      query: 'q',
      chatId: 'c1',
      instrument: 'EUR_USD',
      granularity: 'M5',
    });
  });

  it('names the stored question and answer from the start event, before any text', async () => {
    const question = messageRecord('m1', 'c1', 'user', 'q');
    const started = { question, answer: { ...answer, content: '', status: 'streaming' as const } };
    stubQuery(sseResponse([sseEvent('start', started), sseEvent('delta', { text: 'Hi' }), sseEvent('done', done)]));
    const seen: string[] = [];
    const result = await sendQuery(
      'http://ai',
      'trading',
      { query: 'q', chatId: 'c1', mode: 'demo' },
      {
        onStart: (s) => seen.push(`start ${s.question._id} ${s.answer._id} ${s.answer.status}`),
        onDelta: (text) => seen.push(`delta ${text}`),
      },
    );
    expect(seen).toEqual(['start m1 m2 streaming', 'delta Hi']);
    expect(result).toEqual({ ok: true, answer });
  });

  it('reports each delta in order, then returns the stored answer from done', async () => {
    stubQuery(
      sseResponse([
        sseEvent('delta', { text: 'You have ' }),
        sseEvent('delta', { text: '**2** open' }).slice(0, 10),
        sseEvent('delta', { text: '**2** open' }).slice(10),
        sseEvent('delta', { text: ' trades.' }),
        sseEvent('done', done),
      ]),
    );
    const deltas: string[] = [];
    const result = await sendQuery(
      '',
      'trading',
      { query: 'q', chatId: 'c1', mode: 'demo' },
      {
        onDelta: (t) => deltas.push(t),
      },
    );
    expect(deltas).toEqual(['You have ', '**2** open', ' trades.']);
    expect(deltas.join('')).toBe(answer.content);
    expect(result).toEqual({ ok: true, answer });
  });

  it('returns an error event as a failure the server took', async () => {
    stubQuery(
      sseResponse([sseEvent('delta', { text: 'Part' }), sseEvent('error', { message: 'The AI provider timed out.' })]),
    );
    const result = await sendQuery('', 'accounts', { query: 'q', chatId: 'c1', mode: 'live' }, { onDelta: () => {} });
    expect(result).toEqual({ ok: false, accepted: true, message: 'The AI provider timed out.' });
  });

  it('treats a stream that ends without done as a failure', async () => {
    stubQuery(sseResponse([sseEvent('delta', { text: 'Part' })]));
    const result = await sendQuery('', 'trading', { query: 'q', chatId: 'c1', mode: 'demo' }, { onDelta: () => {} });
    expect(result).toMatchObject({ ok: false, accepted: true });
  });

  it('reads a plain JSON answer from a server that does not stream', async () => {
    stubQuery(jsonResponse(done));
    const deltas: string[] = [];
    const result = await sendQuery(
      '',
      'trading',
      { query: 'q', chatId: 'c1', mode: 'demo' },
      { onDelta: (t) => deltas.push(t) },
    );
    expect(result).toEqual({ ok: true, answer });
    expect(deltas).toEqual([]);
  });

  it("returns the server's message for a refused request, which it did not take", async () => {
    stubQuery(
      jsonResponse(
        { success: false, message: 'A message can be at most 4000 characters.', code: 'BAD', requestId: 'r' },
        400,
      ),
    );
    const result = await sendQuery('', 'trading', { query: 'q', chatId: 'c1', mode: 'demo' }, { onDelta: () => {} });
    expect(result).toEqual({ ok: false, accepted: false, message: 'A message can be at most 4000 characters.' });
  });

  it('returns a network failure instead of throwing', async () => {
    stubQuery(() => Promise.reject(new TypeError('Failed to fetch')));
    const result = await sendQuery('', 'trading', { query: 'q', chatId: 'c1', mode: 'demo' }, { onDelta: () => {} });
    expect(result).toEqual({ ok: false, accepted: false, message: 'Failed to fetch' });
  });
});
