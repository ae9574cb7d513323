import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, messageRecord, sseEvent, sseResponse } from '../test/chat-fixtures';
import { sendQuery } from './send-query';

const answer = messageRecord('m2', 'c1', 'assistant', 'You have **2** open trades.');
const done = { success: true, message: 'Answered', data: answer };

function stubFetch(response: Response | (() => Promise<Response>)) {
  const fetchMock = vi.fn(typeof response === 'function' ? response : async () => response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sendQuery', () => {
  it('asks for an event stream on the topic endpoint with the bearer token and the body', async () => {
    localStorage.setItem('token', JSON.stringify('jwt-1'));
    const fetchMock = stubFetch(sseResponse([sseEvent('done', done)]));
    await sendQuery(
      'http://ai',
      'candles',
      { query: 'q', chatId: 'c1', instrument: 'EUR_USD', granularity: 'M5' },
      {
        onDelta: () => {},
      },
    );
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://ai/api/v1/query/oanda/candle');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ Accept: 'text/event-stream', Authorization: 'Bearer jwt-1' });
    expect(JSON.parse(init.body as string)).toEqual({
      query: 'q',
      chatId: 'c1',
      instrument: 'EUR_USD',
      granularity: 'M5',
    });
  });

  it('reports each delta in order, then returns the stored answer from done', async () => {
    stubFetch(
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
    stubFetch(
      sseResponse([sseEvent('delta', { text: 'Part' }), sseEvent('error', { message: 'The AI provider timed out.' })]),
    );
    const result = await sendQuery('', 'accounts', { query: 'q', chatId: 'c1', mode: 'live' }, { onDelta: () => {} });
    expect(result).toEqual({ ok: false, accepted: true, message: 'The AI provider timed out.' });
  });

  it('treats a stream that ends without done as a failure', async () => {
    stubFetch(sseResponse([sseEvent('delta', { text: 'Part' })]));
    const result = await sendQuery('', 'trading', { query: 'q', chatId: 'c1', mode: 'demo' }, { onDelta: () => {} });
    expect(result).toMatchObject({ ok: false, accepted: true });
  });

  it('reads a plain JSON answer from a server that does not stream', async () => {
    stubFetch(jsonResponse(done));
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
    stubFetch(
      jsonResponse(
        { success: false, message: 'A message can be at most 4000 characters.', code: 'BAD', requestId: 'r' },
        400,
      ),
    );
    const result = await sendQuery('', 'trading', { query: 'q', chatId: 'c1', mode: 'demo' }, { onDelta: () => {} });
    expect(result).toEqual({ ok: false, accepted: false, message: 'A message can be at most 4000 characters.' });
  });

  it('returns a network failure instead of throwing', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const result = await sendQuery('', 'trading', { query: 'q', chatId: 'c1', mode: 'demo' }, { onDelta: () => {} });
    expect(result).toEqual({ ok: false, accepted: false, message: 'Failed to fetch' });
  });
});
