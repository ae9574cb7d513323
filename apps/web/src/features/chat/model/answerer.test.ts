import { describe, expect, it } from 'vitest';
import { answeredBy, modelLabel, usingLabel } from './answerer';

describe('usingLabel', () => {
  it('names the platform, and the built-in analyst when the server cannot reach it', () => {
    expect(usingLabel({ platform: 'openai', configured: true })).toBe('Using: OpenAI');
    expect(usingLabel({ platform: 'openai', configured: null })).toBe('Using: OpenAI');
    expect(usingLabel({ platform: 'openai', configured: false })).toBe('Using: OpenAI (built-in analyst)');
    expect(usingLabel({ platform: 'vertexai', configured: false })).toBe('Using: VertexAI (built-in analyst)');
    expect(usingLabel({ platform: 'gemini', configured: false })).toBe('Using: Gemini (built-in analyst)');
  });
});

describe('modelLabel', () => {
  it("gives the spec's OpenAI model per topic", () => {
    const openai = { platform: 'openai', configured: true } as const;
    expect(modelLabel(openai, 'trading')).toBe('gpt-4o');
    expect(modelLabel(openai, 'accounts')).toBe('gpt-4o');
    expect(modelLabel(openai, 'candles')).toBe('gpt-3.5-turbo');
  });

  it('says the built-in analyst answers when OpenAI is not configured, and nothing for other platforms', () => {
    expect(modelLabel({ platform: 'openai', configured: false }, 'candles')).toBe('built-in analyst');
    expect(modelLabel({ platform: 'vertexai', configured: true }, 'trading')).toBeNull();
  });
});

describe('answeredBy', () => {
  it('tells the provider and model the server recorded', () => {
    expect(answeredBy({ provider: 'openai', model: 'gpt-4o-2024-08-06' })).toBe('OpenAI · gpt-4o-2024-08-06');
    expect(answeredBy({ provider: 'vertexai', model: 'gemini-2.5-flash' })).toBe('VertexAI · gemini-2.5-flash');
    expect(answeredBy({ provider: 'builtin', model: 'analyst-1' })).toBe('Built-in analyst');
    expect(answeredBy({ provider: null, model: null })).toBeNull();
  });
});
