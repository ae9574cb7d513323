import OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { CallDeadline } from './call-deadline';
import { LlmError, unfinishedStream } from './errors';
import { toOpenAiLlmError } from './openai-errors';
import { finishResult } from './result';
import {
  DEFAULT_MAX_OUTPUT_TOKENS,
  type LlmEvent,
  type LlmMessage,
  type LlmProvider,
  type LlmRequest,
  type LlmResult,
  type LlmTopic,
  type LlmUsage,
  type ToolCall,
  type ToolSpec,
} from './types';

export interface OpenAiProviderConfig {
  /** Optional when `baseURL` points at a server that needs no key (Ollama, vLLM, LM Studio, llama.cpp). */
  apiKey?: string;
  /** e.g. `http://127.0.0.1:11434/v1`; the SDK posts to `{baseURL}/chat/completions`. Default: OpenAI. */
  baseURL?: string;
  models: Record<LlmTopic, string>;
  /** Budget of one `complete()` call, retries included, and the longest silence inside a stream. Default 30 s. */
  timeoutMs?: number;
  /** SDK retries of 408/409/429/5xx and connection failures (not of quota errors). Default 2. */
  maxRetries?: number;
  /** Output-token cap of every call a request does not set one for (default `DEFAULT_MAX_OUTPUT_TOKENS`). */
  maxOutputTokens?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;

/**
 * OpenAI answers 429 both for "slow down" and for "out of credit"; the SDK retries every 429, which
 * only delays the inevitable for the second. `x-should-retry: false` is the SDK's own opt-out.
 */
const fetchWithoutQuotaRetries: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.status !== 429) return response;
  const text = await response.text();
  const headers = new Headers(response.headers);
  if (text.includes('insufficient_quota')) headers.set('x-should-retry', 'false');
  return new Response(text, { status: response.status, statusText: response.statusText, headers });
};

/** Tool call arguments arrive as JSON text that the model may have botched. */
export function parseToolArguments(raw: string): { args: Record<string, unknown>; error?: string } {
  if (raw.trim() === '') return { args: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    const excerpt = raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
    return { args: {}, error: `the arguments are not valid JSON: ${excerpt}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { args: {}, error: 'the arguments must be a JSON object' };
  }
  return { args: value as Record<string, unknown> };
}

function toToolCall(id: string, name: string, rawArguments: unknown): ToolCall {
  // Typed as a string, but some OpenAI-compatible servers send the object itself.
  const text = typeof rawArguments === 'string' ? rawArguments : (JSON.stringify(rawArguments) ?? '');
  const { args, error } = parseToolArguments(text);
  return { id, name, args, rawArguments: text, ...(error ? { argsError: error } : {}) };
}

function serializeToolResult(result: unknown, isError: boolean | undefined): string {
  if (isError) return JSON.stringify({ error: result ?? 'failed' });
  if (typeof result === 'string') return result;
  return JSON.stringify(result) ?? 'null';
}

function toWireMessages(messages: LlmMessage[]): ChatCompletionMessageParam[] {
  return messages.map((m): ChatCompletionMessageParam => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'assistant': {
        const calls = m.toolCalls ?? [];
        if (calls.length === 0) return { role: 'assistant', content: m.content };
        return {
          role: 'assistant',
          content: m.content === '' ? null : m.content,
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: c.rawArguments ?? JSON.stringify(c.args) },
          })),
        };
      }
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: serializeToolResult(m.result, m.isError) };
    }
  });
}

function toWireTool(tool: ToolSpec): ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

function toUsage(usage: CompletionUsage | null | undefined): LlmUsage | undefined {
  if (!usage) return undefined;
  return { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens, totalTokens: usage.total_tokens };
}

function requestBody(request: LlmRequest, maxOutputTokens: number): ChatCompletionCreateParamsBase {
  const { jsonSchema, tools, temperature } = request;
  return {
    model: request.model,
    // Every call is capped (the answer's cost is bounded); `max_tokens` is deprecated and refused by reasoning models.
    max_completion_tokens: request.maxOutputTokens ?? maxOutputTokens,
    messages: toWireMessages(request.messages),
    ...(tools && tools.length > 0 ? { tools: tools.map(toWireTool) } : {}),
    ...(jsonSchema
      ? {
          response_format: {
            type: 'json_schema',
            json_schema: { name: jsonSchema.name, schema: jsonSchema.schema, strict: jsonSchema.strict ?? true },
          },
        }
      : {}),
    ...(temperature !== undefined ? { temperature } : {}),
  };
}

function isDefaultHost(baseURL: string | undefined): boolean {
  return !baseURL || /^https:\/\/api\.openai\.com(\/|$)/.test(baseURL);
}

/**
 * The OpenAI Chat Completions provider, also for OpenAI-compatible servers via `baseURL`.
 * Environment variables of the SDK (OPENAI_ORG_ID, OPENAI_PROJECT_ID…) are deliberately not read:
 * configuration comes from `config/env.ts` only.
 */
export function createOpenAiProvider(config: OpenAiProviderConfig): LlmProvider {
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxOutputTokens = config.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const label = isDefaultHost(config.baseURL) ? 'OpenAI' : 'The OpenAI-compatible AI server';
  const client = new OpenAI({
    // The SDK refuses to start without a key; keyless local servers get a placeholder that is never sent.
    apiKey: config.apiKey ?? 'unused',
    ...(config.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
    baseURL: config.baseURL ?? 'https://api.openai.com/v1',
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    timeout: timeoutMs,
    maxRetries: config.maxRetries ?? DEFAULT_MAX_RETRIES,
    fetch: fetchWithoutQuotaRetries,
    logLevel: 'off',
  });

  const failure = (error: unknown, request: LlmRequest, deadline: CallDeadline) =>
    toOpenAiLlmError(error, { label, model: request.model, stopReason: deadline.stopReason() });

  /** Refusals and cut-offs are errors for every caller; the rest becomes the neutral result. */
  function settle(
    request: LlmRequest,
    parts: { text: string; refusal: string; finish: string | null; calls: ToolCall[]; usage?: LlmUsage; model: string },
  ): LlmResult {
    if (parts.refusal || parts.finish === 'content_filter') {
      throw new LlmError('refusal', { provider: 'openai', label, detail: parts.refusal || 'content_filter' });
    }
    if (parts.finish === 'length') {
      throw new LlmError('length', { provider: 'openai', label, partialText: parts.text });
    }
    return finishResult(
      request,
      { provider: 'openai', label },
      {
        text: parts.text,
        toolCalls: parts.calls,
        finishReason: parts.calls.length > 0 ? 'tool_calls' : 'stop',
        model: parts.model,
        ...(parts.usage ? { usage: parts.usage } : {}),
      },
    );
  }

  function fromCompletion(request: LlmRequest, completion: ChatCompletion): LlmResult {
    const choice = completion.choices?.[0];
    if (!choice?.message) {
      throw new LlmError('invalid_response', { provider: 'openai', label, detail: 'no choices in the completion' });
    }
    const calls = (choice.message.tool_calls ?? []).flatMap((c) =>
      c.type === 'function' ? [toToolCall(c.id, c.function.name, c.function.arguments)] : [],
    );
    const usage = toUsage(completion.usage);
    return settle(request, {
      text: choice.message.content ?? '',
      refusal: choice.message.refusal ?? '',
      finish: choice.finish_reason,
      calls,
      model: completion.model || request.model,
      ...(usage ? { usage } : {}),
    });
  }

  return {
    id: 'openai',
    label,
    model: (topic) => config.models[topic],

    async complete(request) {
      const deadline = new CallDeadline(timeoutMs, request.signal);
      try {
        const completion = await deadline.race(
          client.chat.completions.create(
            { ...requestBody(request, maxOutputTokens), stream: false },
            { signal: deadline.signal },
          ),
        );
        return fromCompletion(request, completion);
      } catch (error) {
        throw failure(error, request, deadline);
      } finally {
        deadline.dispose();
      }
    },

    async *stream(request): AsyncGenerator<LlmEvent> {
      const deadline = new CallDeadline(timeoutMs, request.signal);
      try {
        const stream = await deadline.race(
          client.chat.completions.create(
            { ...requestBody(request, maxOutputTokens), stream: true, stream_options: { include_usage: true } },
            { signal: deadline.signal },
          ),
        );
        // Tool calls arrive in fragments keyed by index; only the first fragment has the id and name.
        // Some OpenAI-compatible servers reuse index 0 for every call: a new id then starts a new call.
        const pending: Array<{ id: string; name: string; args: string }> = [];
        const positionOfIndex = new Map<number, number>();
        let text = '';
        let refusal = '';
        let finish: string | null = null;
        let usage: LlmUsage | undefined;
        let model = request.model;
        let chunks = 0;
        for await (const chunk of stream) {
          deadline.touch();
          chunks += 1;
          if (chunk.model) model = chunk.model;
          usage = toUsage(chunk.usage) ?? usage;
          // The include_usage chunk has `choices: []`.
          const choice = chunk.choices[0];
          if (!choice) continue;
          const { delta } = choice;
          if (delta.content) {
            text += delta.content;
            yield { type: 'text', text: delta.content };
          }
          if (delta.refusal) refusal += delta.refusal;
          for (const fragment of delta.tool_calls ?? []) {
            const position = positionOfIndex.get(fragment.index);
            let call = position === undefined ? undefined : pending[position];
            if (!call || (fragment.id && call.id && fragment.id !== call.id)) {
              call = { id: '', name: '', args: '' };
              positionOfIndex.set(fragment.index, pending.push(call) - 1);
            }
            if (fragment.id) call.id = fragment.id;
            if (fragment.function?.name) call.name += fragment.function.name;
            if (fragment.function?.arguments) call.args += fragment.function.arguments;
          }
          if (choice.finish_reason) finish = choice.finish_reason;
        }
        // The SDK ends the iteration quietly when the request is aborted.
        const stopped = deadline.stopReason();
        if (stopped) throw new LlmError(stopped, { provider: 'openai', label });
        if (!finish) throw unfinishedStream('openai', label, chunks, 'stream ended without a finish_reason');
        const calls = pending.map((c, i) => toToolCall(c.id || `call_${i}`, c.name, c.args));
        const result = settle(request, { text, refusal, finish, calls, model, ...(usage ? { usage } : {}) });
        for (const call of calls) yield { type: 'tool_call', call };
        yield { type: 'finish', ...result };
      } catch (error) {
        throw failure(error, request, deadline);
      } finally {
        deadline.dispose();
      }
    },
  };
}
