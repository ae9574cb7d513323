/**
 * The provider-neutral shapes of the LLM layer. Chat, insights and the tool loop speak only these;
 * openai.ts and vertex.ts translate them to each wire format.
 */

/** The chat topics of the assistant; each can run on its own model. */
export type LlmTopic = 'trading' | 'accounts' | 'candles';

/** Matches the user's `default_ai_platfrom` values that have a provider behind them. */
export type LlmProviderId = 'openai' | 'vertexai';

/** A JSON Schema object (draft 2020-12 subset understood by both providers). */
type JsonSchema = Record<string, unknown>;

/** A function the model may call. */
export interface ToolSpec {
  /** `a-z A-Z 0-9 _ -`, at most 64 characters, starting with a letter or `_` (the stricter of both providers). */
  name: string;
  description: string;
  /** JSON Schema of the arguments object (`{ type: 'object', properties, required }`). */
  parameters: JsonSchema;
}

/** One function call requested by the model. */
export interface ToolCall {
  /** The provider's call id (`call_…` for OpenAI); generated locally when the provider sends none. */
  id: string;
  name: string;
  /** Parsed arguments; `{}` when they were missing or unusable (then `argsError` says why). */
  args: Record<string, unknown>;
  /** Set when the model's arguments were not a JSON object; answer the call with an error result. */
  argsError?: string;
  /** OpenAI: the `arguments` text exactly as received, replayed verbatim in the history. */
  rawArguments?: string;
  /** Vertex AI: the opaque thought signature of this call, replayed verbatim (Gemini 3 requires it). */
  thoughtSignature?: string;
}

/**
 * One turn of the conversation. Tool results answer the calls of the assistant turn just before
 * them, one `tool` message per call, in the same order.
 */
export type LlmMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | {
      role: 'tool';
      toolCallId: string;
      /** Name of the called tool (Vertex AI correlates results by name and position). */
      name: string;
      /** Any JSON value; sent to the model as JSON. */
      result: unknown;
      /** The call failed; `result` explains why (the model may retry with other arguments). */
      isError?: boolean;
    };

/** Ask for JSON matching a schema (OpenAI `response_format`, Vertex `responseJsonSchema`). */
interface JsonSchemaFormat {
  /** `a-z A-Z 0-9 _ -`, at most 64 characters. */
  name: string;
  schema: JsonSchema;
  /**
   * OpenAI strict mode (default true): every property listed in `required` and
   * `additionalProperties: false` on every object, or OpenAI answers 400.
   */
  strict?: boolean;
}

export interface LlmRequest {
  model: string;
  messages: LlmMessage[];
  tools?: ToolSpec[];
  /** Cancels the call; an abort whose reason is a `TimeoutError` is reported as a timeout. */
  signal?: AbortSignal;
  /** Structured output: the answer text is JSON matching the schema and is returned parsed in `json`. */
  jsonSchema?: JsonSchemaFormat;
  temperature?: number;
  /**
   * The most tokens the answer may use (OpenAI `max_completion_tokens`, Vertex `maxOutputTokens`); default: the
   * provider's configured cap. An answer cut there raises `LlmError('length')`.
   */
  maxOutputTokens?: number;
}

/** The output-token cap of a provider call when neither the request nor the configuration gives one. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 1500;

export interface LlmUsage {
  inputTokens: number;
  /** Includes reasoning ("thinking") tokens where the provider reports them. */
  outputTokens: number;
  totalTokens: number;
}

/**
 * - `stop`: a final answer.
 * - `tool_calls`: the model asks for the calls in `toolCalls`.
 * - `malformed_tool_call`: the model tried to call a tool but produced no usable call (Gemini's
 *   MALFORMED_FUNCTION_CALL); tell it so and let it try again.
 *
 * Truncated answers and refusals are not finish reasons: they raise `LlmError` ('length', 'refusal').
 */
type LlmFinishReason = 'stop' | 'tool_calls' | 'malformed_tool_call';

export interface LlmResult {
  /** The answer text (empty when the model only called tools). */
  text: string;
  toolCalls: ToolCall[];
  finishReason: LlmFinishReason;
  usage?: LlmUsage;
  /** The model that answered, as the provider reports it (e.g. a dated snapshot). */
  model: string;
  /** With `jsonSchema`: the parsed answer. */
  json?: unknown;
}

/**
 * Events of `LlmProvider.stream`, in order: text deltas as they arrive, then each tool call once it
 * is complete (arguments parsed), then exactly one `finish` carrying the whole result.
 */
export type LlmEvent =
  { type: 'text'; text: string } | { type: 'tool_call'; call: ToolCall } | ({ type: 'finish' } & LlmResult);

export interface LlmProvider {
  readonly id: LlmProviderId;
  /** How errors and labels name this provider to users, e.g. 'OpenAI' or 'Vertex AI'. */
  readonly label: string;
  /** The model configured for a topic. */
  model(topic: LlmTopic): string;
  /** One model turn. Rejects only with `LlmError`. */
  complete(request: LlmRequest): Promise<LlmResult>;
  /** One model turn, streamed. The iterator throws only `LlmError`; breaking out of it cancels the request. */
  stream(request: LlmRequest): AsyncIterable<LlmEvent>;
}
