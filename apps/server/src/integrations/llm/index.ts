import type { Env } from '../../config/env';
import { createOpenAiProvider } from './openai';
import type { LlmProvider, LlmProviderId } from './types';
import { createVertexProvider } from './vertex';

export type * from './types';
export { LlmError, isLlmError } from './errors';
export { runToolLoop, roundLimitMessage, ToolInputError } from './tool-loop';

/** The configured providers; a missing key means "not configured" (the built-in analyst answers). */
export type LlmProviders = Partial<Record<LlmProviderId, LlmProvider>>;

export type LlmEnv = Pick<
  Env,
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'OPENAI_MODEL_TRADING'
  | 'OPENAI_MODEL_ACCOUNTS'
  | 'OPENAI_MODEL_CANDLES'
  | 'VERTEX_API_KEY'
  | 'VERTEX_PROJECT'
  | 'VERTEX_LOCATION'
  | 'VERTEX_MODEL'
  | 'VERTEX_BASE_URL'
  | 'AI_MAX_OUTPUT_TOKENS'
>;

export interface LlmProviderOptions {
  /** Per call budget, and the longest silence inside a stream (default 30 000 ms). */
  timeoutMs?: number;
  /** Retries of transient failures (default 2). */
  maxRetries?: number;
  /** Overrides `AI_MAX_OUTPUT_TOKENS` (tests). */
  maxOutputTokens?: number;
}

/**
 * Builds the providers the environment configures:
 * - OpenAI when `OPENAI_API_KEY` is set, or `OPENAI_BASE_URL` alone (a keyless local server).
 * - Vertex AI when `VERTEX_API_KEY` is set (express mode), or `VERTEX_PROJECT` (with `VERTEX_LOCATION`,
 *   authenticated by Google Application Default Credentials). The key wins when both are set.
 */
export function createLlmProviders(env: LlmEnv, options: LlmProviderOptions = {}): LlmProviders {
  const providers: LlmProviders = {};
  const capped = { maxOutputTokens: env.AI_MAX_OUTPUT_TOKENS, ...options };
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) {
    providers.openai = createOpenAiProvider({
      ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
      ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
      models: {
        trading: env.OPENAI_MODEL_TRADING,
        accounts: env.OPENAI_MODEL_ACCOUNTS,
        candles: env.OPENAI_MODEL_CANDLES,
      },
      ...capped,
    });
  }
  if (env.VERTEX_API_KEY || env.VERTEX_PROJECT) {
    providers.vertexai = createVertexProvider({
      ...(env.VERTEX_API_KEY ? { apiKey: env.VERTEX_API_KEY } : {}),
      ...(env.VERTEX_PROJECT ? { project: env.VERTEX_PROJECT } : {}),
      location: env.VERTEX_LOCATION,
      model: env.VERTEX_MODEL,
      ...(env.VERTEX_BASE_URL ? { baseUrl: env.VERTEX_BASE_URL } : {}),
      ...capped,
    });
  }
  return providers;
}
