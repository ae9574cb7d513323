import { randomUUID } from 'node:crypto';
import {
  FinishReason,
  GoogleGenAI,
  type Content,
  type GenerateContentConfig,
  type GenerateContentResponse,
  type GenerateContentResponseUsageMetadata,
  type GoogleGenAIOptions,
  type HttpOptions,
  type Part,
} from '@google/genai';
import { CallDeadline } from './call-deadline';
import { LlmError, unfinishedStream } from './errors';
import { finishResult } from './result';
import {
  DEFAULT_MAX_OUTPUT_TOKENS,
  type LlmEvent,
  type LlmMessage,
  type LlmProvider,
  type LlmRequest,
  type LlmResult,
  type LlmUsage,
  type ToolCall,
} from './types';
import { toVertexLlmError } from './vertex-errors';

export interface VertexProviderConfig {
  /** Express mode (API key, global endpoint). Takes precedence over `project`. */
  apiKey?: string;
  /** With `location`: the regional endpoint, authenticated by Google Application Default Credentials. */
  project?: string;
  location?: string;
  /** Used for every topic. */
  model: string;
  /** Replaces the Google host, e.g. a fake server in tests; the SDK appends `/v1beta1/…`. */
  baseUrl?: string;
  /** Budget of one `complete()` call, retries included, and the longest silence inside a stream. Default 30 s. */
  timeoutMs?: number;
  /** SDK retries of 408/429/5xx. Default 2. */
  maxRetries?: number;
  /** Output-token cap (thinking included) of every call a request does not set one for (default `DEFAULT_MAX_OUTPUT_TOKENS`). */
  maxOutputTokens?: number;
  /** google-auth-library options for project mode; tests pass a stub `authClient`. Default: ADC. */
  googleAuthOptions?: GoogleGenAIOptions['googleAuthOptions'];
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;
/** Gemini v1 function calls carry no id; ours are local and never sent back. */
const LOCAL_ID_PREFIX = 'gemini-call-';

// Finish reasons arrive as plain strings; compare them as strings.
const STOP: string = FinishReason.STOP;
const MAX_TOKENS: string = FinishReason.MAX_TOKENS;
const REFUSED: ReadonlySet<string> = new Set([
  FinishReason.SAFETY,
  FinishReason.RECITATION,
  FinishReason.BLOCKLIST,
  FinishReason.PROHIBITED_CONTENT,
  FinishReason.SPII,
  FinishReason.IMAGE_SAFETY,
  FinishReason.IMAGE_PROHIBITED_CONTENT,
  FinishReason.LANGUAGE,
]);
const MALFORMED_CALL: ReadonlySet<string> = new Set([
  FinishReason.MALFORMED_FUNCTION_CALL,
  FinishReason.UNEXPECTED_TOOL_CALL,
  FinishReason.TOO_MANY_TOOL_CALLS,
]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function toToolCall(part: Part): ToolCall | undefined {
  const call = part.functionCall;
  if (!call) return undefined;
  const args = call.args;
  const usable = args === undefined || isPlainObject(args);
  return {
    id: call.id ?? `${LOCAL_ID_PREFIX}${randomUUID()}`,
    name: call.name ?? '',
    args: usable ? (args ?? {}) : {},
    ...(usable ? {} : { argsError: 'the arguments must be a JSON object' }),
    ...(part.thoughtSignature ? { thoughtSignature: part.thoughtSignature } : {}),
  };
}

function providerCallId(id: string): { id?: string } {
  return id.startsWith(LOCAL_ID_PREFIX) ? {} : { id };
}

/**
 * Gemini wants alternating `user`/`model` contents, the system prompt apart, tool results as
 * `functionResponse` parts of a user turn, and the model's turn replayed with its thought signatures.
 */
function toContents(messages: LlmMessage[]): { system: string[]; contents: Content[] } {
  const system: string[] = [];
  const contents: Content[] = [];
  const push = (role: 'user' | 'model', parts: Part[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role && last.parts) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        system.push(m.content);
        break;
      case 'user':
        push('user', m.content ? [{ text: m.content }] : []);
        break;
      case 'assistant':
        push('model', [
          ...(m.content ? [{ text: m.content }] : []),
          ...(m.toolCalls ?? []).map((c): Part => ({
            functionCall: { name: c.name, args: c.args, ...providerCallId(c.id) },
            ...(c.thoughtSignature ? { thoughtSignature: c.thoughtSignature } : {}),
          })),
        ]);
        break;
      case 'tool':
        push('user', [
          {
            functionResponse: {
              name: m.name,
              // `response` must be an object: the API's convention is `output` or `error`.
              response: m.isError ? { error: m.result ?? 'failed' } : { output: m.result ?? null },
              ...providerCallId(m.toolCallId),
            },
          },
        ]);
        break;
    }
  }
  return { system, contents };
}

function toUsage(usage: GenerateContentResponseUsageMetadata | undefined): LlmUsage | undefined {
  if (!usage) return undefined;
  const input = usage.promptTokenCount ?? 0;
  // Thinking tokens are billed as output but counted apart from the candidates.
  const output = (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0);
  return { inputTokens: input, outputTokens: output, totalTokens: usage.totalTokenCount ?? input + output };
}

/** The Vertex AI (Gemini) provider through `@google/genai`. */
export function createVertexProvider(config: VertexProviderConfig): LlmProvider {
  const label = 'Vertex AI';
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetries = config.maxRetries ?? DEFAULT_MAX_RETRIES;
  const maxOutputTokens = config.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const httpOptions: HttpOptions = {
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    ...(maxRetries > 0 ? { retryOptions: { attempts: maxRetries + 1, initialDelay: 0.5, maxDelay: 8 } } : {}),
  };
  const ai = config.apiKey
    ? new GoogleGenAI({ vertexai: true, apiKey: config.apiKey, httpOptions })
    : new GoogleGenAI({
        vertexai: true,
        project: config.project,
        location: config.location ?? 'us-central1',
        httpOptions,
        ...(config.googleAuthOptions ? { googleAuthOptions: config.googleAuthOptions } : {}),
      });

  function requestOf(request: LlmRequest, signal: AbortSignal) {
    const { system, contents } = toContents(request.messages);
    const { tools, jsonSchema, temperature } = request;
    const generation: GenerateContentConfig = {
      abortSignal: signal,
      maxOutputTokens: request.maxOutputTokens ?? maxOutputTokens,
      ...(system.length > 0 ? { systemInstruction: system.join('\n\n') } : {}),
      ...(tools && tools.length > 0
        ? {
            tools: [
              {
                functionDeclarations: tools.map((t) => ({
                  name: t.name,
                  description: t.description,
                  parametersJsonSchema: t.parameters,
                })),
              },
            ],
          }
        : {}),
      ...(jsonSchema ? { responseMimeType: 'application/json', responseJsonSchema: jsonSchema.schema } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
    };
    return { model: request.model, contents, config: generation };
  }

  const failure = (error: unknown, request: LlmRequest, deadline: CallDeadline) =>
    toVertexLlmError(error, { label, model: request.model, stopReason: deadline.stopReason() });

  /** Collects one response (or stream chunk) into the running state. */
  interface TurnState {
    text: string;
    calls: ToolCall[];
    finish: string | undefined;
    blocked: string | undefined;
    usage: LlmUsage | undefined;
    model: string;
  }

  function absorb(state: TurnState, response: GenerateContentResponse): string {
    let newText = '';
    if (response.modelVersion) state.model = response.modelVersion;
    state.usage = toUsage(response.usageMetadata) ?? state.usage;
    const feedback = response.promptFeedback;
    if (feedback?.blockReason) state.blocked = feedback.blockReasonMessage ?? String(feedback.blockReason);
    const candidate = response.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      // Thought summaries are the model's reasoning, not its answer.
      if (part.thought) continue;
      if (part.text) newText += part.text;
      const call = toToolCall(part);
      if (call) state.calls.push(call);
    }
    state.text += newText;
    if (candidate?.finishReason) state.finish = candidate.finishReason;
    return newText;
  }

  function settle(request: LlmRequest, state: TurnState): LlmResult {
    const source = { provider: 'vertexai' as const, label };
    if (state.blocked !== undefined) throw new LlmError('refusal', { ...source, detail: state.blocked });
    const finish = state.finish ?? '';
    if (REFUSED.has(finish)) throw new LlmError('refusal', { ...source, detail: finish });
    if (finish === MAX_TOKENS) throw new LlmError('length', { ...source, partialText: state.text });
    const finishReason =
      state.calls.length > 0 ? 'tool_calls' : MALFORMED_CALL.has(finish) ? 'malformed_tool_call' : 'stop';
    if (finishReason === 'stop' && state.text === '' && finish !== STOP) {
      throw new LlmError('invalid_response', {
        ...source,
        detail: `empty answer, finishReason ${finish || 'missing'}`,
      });
    }
    return finishResult(request, source, {
      text: state.text,
      toolCalls: state.calls,
      finishReason,
      model: state.model,
      ...(state.usage ? { usage: state.usage } : {}),
    });
  }

  const newState = (request: LlmRequest): TurnState => ({
    text: '',
    calls: [],
    finish: undefined,
    blocked: undefined,
    usage: undefined,
    model: request.model,
  });

  return {
    id: 'vertexai',
    label,
    model: () => config.model,

    async complete(request) {
      const deadline = new CallDeadline(timeoutMs, request.signal);
      try {
        const response = await deadline.race(ai.models.generateContent(requestOf(request, deadline.signal)));
        const state = newState(request);
        absorb(state, response);
        return settle(request, state);
      } catch (error) {
        throw failure(error, request, deadline);
      } finally {
        deadline.dispose();
      }
    },

    async *stream(request): AsyncGenerator<LlmEvent> {
      const deadline = new CallDeadline(timeoutMs, request.signal);
      try {
        const stream = await deadline.race(ai.models.generateContentStream(requestOf(request, deadline.signal)));
        const state = newState(request);
        let chunks = 0;
        for await (const chunk of stream) {
          deadline.touch();
          chunks += 1;
          const text = absorb(state, chunk);
          if (text) yield { type: 'text', text };
        }
        // No [DONE] in Gemini streams: the last chunk carries the finish reason, so its absence means a cut.
        if (state.finish === undefined && state.blocked === undefined)
          throw unfinishedStream('vertexai', label, chunks, 'stream ended without a finishReason');
        const result = settle(request, state);
        for (const call of result.toolCalls) yield { type: 'tool_call', call };
        yield { type: 'finish', ...result };
      } catch (error) {
        throw failure(error, request, deadline);
      } finally {
        deadline.dispose();
      }
    },
  };
}
