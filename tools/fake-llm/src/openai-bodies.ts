/**
 * OpenAI Chat Completions wire bodies, shaped like the reference fixtures
 * (response.*.json, stream.*.sse, errors/*.json).
 */
import type { FakeErrorKind, FakeToolCall } from './types';
import { estimateTokens, fixedPieces, randomId, wordPieces } from './wire-utils';

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export function openAiError(message: string, type: string, param: string | null, code: string | null): OpenAiErrorBody {
  return { error: { message, type, param, code } };
}

function maskKey(key: string): string {
  return key.length <= 8 ? '****' : `${key.slice(0, 3)}${'*'.repeat(Math.min(key.length - 7, 64))}${key.slice(-4)}`;
}

/** Status, extra headers and body of each scriptable error, texts from the fixtures. */
export function openAiErrorResponse(
  kind: FakeErrorKind,
  context: { model: string; apiKey: string },
): { status: number; headers: Record<string, string>; body: OpenAiErrorBody } {
  switch (kind) {
    case 'invalid_api_key':
      return {
        status: 401,
        headers: {},
        body: openAiError(
          `Incorrect API key provided: ${maskKey(context.apiKey)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          'invalid_request_error',
          null,
          'invalid_api_key',
        ),
      };
    case 'permission_denied':
      return {
        status: 403,
        headers: {},
        body: openAiError(
          'Country, region, or territory not supported',
          'request_forbidden',
          null,
          'unsupported_country_region_territory',
        ),
      };
    case 'model_not_found':
      return {
        status: 404,
        headers: {},
        body: openAiError(
          `The model \`${context.model}\` does not exist or you do not have access to it.`,
          'invalid_request_error',
          null,
          'model_not_found',
        ),
      };
    case 'bad_request':
      return {
        status: 400,
        headers: {},
        body: openAiError(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          'invalid_request_error',
          'messages.[2].role',
          null,
        ),
      };
    case 'rate_limit':
      return {
        status: 429,
        headers: { 'retry-after': '1', 'retry-after-ms': '159', 'x-ratelimit-remaining-tokens': '380' },
        body: openAiError(
          `Rate limit reached for ${context.model} in organization org-fakellm on tokens per min (TPM): Limit 200000, Used 199620, Requested 912. Please try again in 159ms. Visit https://platform.openai.com/account/rate-limits to learn more.`,
          'tokens',
          null,
          'rate_limit_exceeded',
        ),
      };
    case 'insufficient_quota':
      return {
        status: 429,
        headers: {},
        body: openAiError(
          'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
          'insufficient_quota',
          null,
          'insufficient_quota',
        ),
      };
    case 'server_error':
      return {
        status: 500,
        headers: {},
        body: openAiError(
          'The server had an error while processing your request. Sorry about that!',
          'server_error',
          null,
          null,
        ),
      };
    case 'overloaded':
      return {
        status: 503,
        headers: {},
        body: openAiError('The engine is currently overloaded, please try again later.', 'server_error', null, null),
      };
  }
}

export function responseHeaders(): Record<string, string> {
  return {
    'openai-version': '2020-10-01',
    'openai-processing-ms': '12',
    'openai-organization': 'user-fakellm',
    'x-request-id': randomId('req_', 32, '0123456789abcdef'),
    'x-ratelimit-limit-requests': '10000',
    'x-ratelimit-limit-tokens': '200000',
    'x-ratelimit-remaining-requests': '9999',
    'x-ratelimit-remaining-tokens': '199627',
    'x-ratelimit-reset-requests': '8.64s',
    'x-ratelimit-reset-tokens': '111ms',
  };
}

export interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

export function usageOf(requestBody: unknown, output: unknown): OpenAiUsage {
  const prompt = estimateTokens(requestBody);
  const completion = estimateTokens(output);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** The model's answer in one neutral shape, before it is written as a completion or as chunks. */
export interface OpenAiAnswer {
  content: string | null;
  refusal: string | null;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: 'stop' | 'length' | 'tool_calls';
}

export function toolCallsAnswer(calls: FakeToolCall[]): OpenAiAnswer {
  return {
    content: null,
    refusal: null,
    toolCalls: calls.map((c) => ({
      id: randomId('call_', 24),
      name: c.name,
      arguments: c.rawArguments ?? JSON.stringify(c.args ?? {}),
    })),
    finishReason: 'tool_calls',
  };
}

export function completionBody(answer: OpenAiAnswer, model: string, usage: OpenAiUsage) {
  return {
    id: randomId('chatcmpl-', 29),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.content,
          ...(answer.toolCalls.length > 0
            ? {
                tool_calls: answer.toolCalls.map((c) => ({
                  id: c.id,
                  type: 'function',
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
          refusal: answer.refusal,
          annotations: [],
        },
        logprobs: null,
        finish_reason: answer.finishReason,
      },
    ],
    usage,
    service_tier: 'default',
    system_fingerprint: 'fp_fakellm0001',
  };
}

export interface ChunkOptions {
  model: string;
  includeUsage: boolean;
  obfuscation: boolean;
  usage: OpenAiUsage;
}

/**
 * The `data:` payloads of a streamed answer: role chunk, content/refusal/tool-call deltas, the
 * finish chunk, then (with include_usage) a `choices: []` usage chunk. `[DONE]` is added by the caller.
 */
export function streamChunks(answer: OpenAiAnswer, options: ChunkOptions): unknown[] {
  const id = randomId('chatcmpl-', 29);
  const created = Math.floor(Date.now() / 1000);
  const head = {
    id,
    object: 'chat.completion.chunk',
    created,
    model: options.model,
    service_tier: 'default',
    system_fingerprint: 'fp_fakellm0001',
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...head,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(options.includeUsage ? { usage: null } : {}),
    ...(options.obfuscation ? { obfuscation: randomId('', 1 + Math.floor(Math.random() * 6)) } : {}),
  });

  const chunks: unknown[] = [];
  if (answer.toolCalls.length > 0) {
    answer.toolCalls.forEach((call, index) => {
      const header = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
      chunks.push(
        chunk(
          index === 0
            ? { role: 'assistant', content: null, tool_calls: [header], refusal: null }
            : { tool_calls: [header] },
        ),
      );
      for (const piece of fixedPieces(call.arguments, 8)) {
        chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    });
  } else if (answer.refusal !== null) {
    chunks.push(chunk({ role: 'assistant', content: null, refusal: '' }));
    for (const piece of wordPieces(answer.refusal)) chunks.push(chunk({ refusal: piece }));
  } else {
    chunks.push(chunk({ role: 'assistant', content: '', refusal: null }));
    for (const piece of wordPieces(answer.content ?? '')) chunks.push(chunk({ content: piece }));
  }
  chunks.push(chunk({}, answer.finishReason));
  if (options.includeUsage) chunks.push({ ...head, choices: [], usage: options.usage });
  return chunks;
}

/** The head of a stream that fails after some text (stream.error-midstream.sse). */
export function partialTextChunks(text: string, model: string): unknown[] {
  const answer: OpenAiAnswer = { content: text, refusal: null, toolCalls: [], finishReason: 'stop' };
  const all = streamChunks(answer, { model, includeUsage: false, obfuscation: true, usage: usageOf('', '') });
  return all.slice(0, -1);
}
