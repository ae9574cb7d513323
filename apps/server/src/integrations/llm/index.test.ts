import { startFakeOpenAI, startFakeVertex } from '@pipsense/fake-llm';
import { describe, expect, it } from 'vitest';
import { envWith } from '../../config/env';
import { createLlmProviders } from './index';

describe('createLlmProviders', () => {
  it('configures nothing without keys', () => {
    expect(createLlmProviders(envWith({}))).toEqual({});
  });

  it('configures OpenAI from a key, with the spec default models per topic', () => {
    const { openai, vertexai } = createLlmProviders(envWith({ OPENAI_API_KEY: 'sk-x' }));
    expect(vertexai).toBeUndefined();
    expect(openai!.label).toBe('OpenAI');
    expect([openai!.model('trading'), openai!.model('accounts'), openai!.model('candles')]).toEqual([
      'gpt-4o',
      'gpt-4o',
      'gpt-3.5-turbo',
    ]);
  });

  it('configures Vertex AI from an API key or a project', () => {
    expect(createLlmProviders(envWith({ VERTEX_API_KEY: 'k' })).vertexai!.model('candles')).toBe('gemini-2.5-flash');
    expect(
      createLlmProviders(envWith({ VERTEX_PROJECT: 'p', VERTEX_MODEL: 'gemini-2.5-pro' })).vertexai!.model('trading'),
    ).toBe('gemini-2.5-pro');
  });

  it('talks to the configured base URLs: a keyless OpenAI-compatible server, and Vertex in express mode', async () => {
    const openaiFake = await startFakeOpenAI();
    const vertexFake = await startFakeVertex();
    try {
      const { openai, vertexai } = createLlmProviders(
        envWith({
          OPENAI_BASE_URL: openaiFake.url,
          OPENAI_MODEL_CANDLES: 'llama3.1:8b',
          VERTEX_API_KEY: 'vk',
          VERTEX_BASE_URL: vertexFake.url,
        }),
        { maxRetries: 0 },
      );
      openaiFake.enqueue({ text: 'from the local server' });
      vertexFake.enqueue({ text: 'from gemini' });
      const local = await openai!.complete({
        model: openai!.model('candles'),
        messages: [{ role: 'user', content: 'hi' }],
      });
      const gemini = await vertexai!.complete({
        model: vertexai!.model('candles'),
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect([local.text, gemini.text]).toEqual(['from the local server', 'from gemini']);
      expect(openaiFake.requests[0]!.model).toBe('llama3.1:8b');
      expect(openaiFake.requests[0]!.headers.authorization).toBeUndefined();
      expect(vertexFake.requests[0]!.headers['x-goog-api-key']).toBe('vk');
    } finally {
      await Promise.all([openaiFake.close(), vertexFake.close()]);
    }
  });
});
