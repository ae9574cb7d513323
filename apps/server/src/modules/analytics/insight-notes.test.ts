import { describe, expect, it } from 'vitest';
import { LlmError } from '../../integrations/llm';
import { fallbackNote, InsightsRejectedError, isTransient, pendingNote } from './insight-notes';

const error = (kind: ConstructorParameters<typeof LlmError>[0]) =>
  new LlmError(kind, { provider: 'openai', label: 'OpenAI' });

describe('insight notes', () => {
  it('say who is writing and why the built-in text is shown', () => {
    expect(pendingNote('OpenAI')).toBe('AI insights are being written by OpenAI…');
    expect(pendingNote('The OpenAI-compatible AI server')).toBe(
      'AI insights are being written by the OpenAI-compatible AI server…',
    );
    expect(fallbackNote(error('timeout'), 'OpenAI')).toBe(
      'OpenAI did not answer in time; showing the built-in analysis.',
    );
    expect(fallbackNote(new DOMException('late', 'TimeoutError'), 'Vertex AI')).toBe(
      'Vertex AI did not answer in time; showing the built-in analysis.',
    );
    expect(fallbackNote(error('auth'), 'OpenAI')).toBe(
      'OpenAI rejected the API key configured on this server; showing the built-in analysis.',
    );
    expect(fallbackNote(new InsightsRejectedError('ungrounded', ['1', '2', '3', '4', '5', '6']), 'OpenAI')).toBe(
      'OpenAI quoted numbers that are not in your metrics (1, 2, 3, 4, 5); showing the built-in analysis.',
    );
    expect(fallbackNote(new Error('boom'), 'OpenAI')).toBe(
      'OpenAI could not write the insights; showing the built-in analysis.',
    );
  });

  it('retry only what may pass by itself', () => {
    expect(isTransient(error('timeout'))).toBe(true);
    expect(isTransient(error('unavailable'))).toBe(true);
    expect(isTransient(error('quota'))).toBe(false);
    expect(isTransient(error('auth'))).toBe(false);
    expect(isTransient(new InsightsRejectedError('shape'))).toBe(false);
  });
});
