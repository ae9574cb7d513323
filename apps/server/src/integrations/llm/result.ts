import { LlmError } from './errors';
import type { LlmProviderId, LlmRequest, LlmResult } from './types';

/** Adds the parsed JSON of a structured-output answer; both providers send it as text. */
export function finishResult(
  request: LlmRequest,
  source: { provider: LlmProviderId; label: string },
  result: Omit<LlmResult, 'json'>,
): LlmResult {
  if (!request.jsonSchema || result.finishReason !== 'stop') return result;
  try {
    return { ...result, json: JSON.parse(result.text) as unknown };
  } catch (error) {
    throw new LlmError('invalid_response', {
      ...source,
      detail: `structured output is not valid JSON: ${result.text.slice(0, 200)}`,
      cause: error,
    });
  }
}
