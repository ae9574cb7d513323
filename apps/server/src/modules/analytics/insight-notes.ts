import type { AiPlatformId } from '@pipsense/contract';
import { isLlmError } from '../../integrations/llm';
import { withinSentence } from '../../lib/text';

const BUILTIN = 'showing the built-in analysis.';

/** The writer's answer could not be shown: it broke the schema, or quoted numbers the metrics do not hold. */
export class InsightsRejectedError extends Error {
  constructor(
    readonly reason: 'shape' | 'ungrounded',
    /** The numbers found in the text but not in the facts (reason 'ungrounded'). */
    readonly numbers: readonly string[] = [],
    detail?: string,
  ) {
    super(detail ?? reason);
    this.name = 'InsightsRejectedError';
  }
}

const PLATFORM_LABELS: Record<AiPlatformId, string> = { openai: 'OpenAI', vertexai: 'Vertex AI', gemini: 'Gemini' };

export const pendingNote = (label: string) => `AI insights are being written by ${withinSentence(label)}…`;

export const afterSyncNote = (label: string) =>
  `AI insights will be written by ${withinSentence(label)} when the running sync has finished; showing the built-in analysis until then.`;

export const notConfiguredNote = (platform: AiPlatformId) =>
  `${PLATFORM_LABELS[platform]} is not configured on this server, so the built-in analysis wrote these insights.`;

export const unreadableNote = (label: string) =>
  `The insights ${withinSentence(label)} wrote could not be read back; ${BUILTIN}`;

/** Why the provider's insights are not shown, in a sentence for the trader. */
export function fallbackNote(error: unknown, label: string): string {
  if (error instanceof InsightsRejectedError) {
    if (error.reason === 'ungrounded') {
      const shown = error.numbers.slice(0, 5).join(', ');
      return `${label} quoted numbers that are not in your metrics (${shown}); ${BUILTIN}`;
    }
    return `${label} answered in a shape the overview cannot show; ${BUILTIN}`;
  }
  if (error instanceof DOMException && error.name === 'TimeoutError')
    return `${label} did not answer in time; ${BUILTIN}`;
  if (!isLlmError(error)) return `${label} could not write the insights; ${BUILTIN}`;
  switch (error.kind) {
    case 'timeout':
      return `${label} did not answer in time; ${BUILTIN}`;
    case 'auth':
      return `${label} rejected the API key configured on this server; ${BUILTIN}`;
    case 'quota':
      return `${label} reports that this server's account is out of quota; ${BUILTIN}`;
    case 'rate_limit':
      return `${label} is receiving too many requests right now; ${BUILTIN}`;
    case 'unavailable':
      return `${label} is temporarily unavailable; ${BUILTIN}`;
    case 'network':
      return `The server could not reach ${withinSentence(label)}; ${BUILTIN}`;
    case 'refusal':
      return `${label} declined to write the insights; ${BUILTIN}`;
    case 'length':
      return `${label}'s answer was cut off; ${BUILTIN}`;
    case 'invalid_response':
      return `${label} answered in an unexpected format; ${BUILTIN}`;
    case 'bad_request':
      return `${label} could not process the request; ${BUILTIN}`;
    case 'aborted':
      return `The request to ${withinSentence(label)} was cancelled; ${BUILTIN}`;
  }
}

/** Failures that may pass by themselves: asked again after a pause instead of waiting for the next sync. */
export function isTransient(error: unknown): boolean {
  if (error instanceof DOMException && error.name === 'TimeoutError') return true;
  return isLlmError(error) && error.retryable;
}
