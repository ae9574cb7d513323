/** Which wire format a fake speaks. */
export type FakeProvider = 'openai' | 'vertex';

/** A tool call the fake model makes. */
export interface FakeToolCall {
  name: string;
  args?: Record<string, unknown>;
  /**
   * Sent instead of `args`: OpenAI gets this text verbatim as `arguments` (e.g. broken JSON);
   * Vertex, whose arguments are an object, answers MALFORMED_FUNCTION_CALL when it is not a JSON object.
   */
  rawArguments?: string;
}

/**
 * Provider errors with the real bodies of each API:
 * - `invalid_api_key` 401, `permission_denied` 403, `model_not_found` 404, `bad_request` 400,
 * - `rate_limit` 429 (OpenAI: with retry-after headers), `insufficient_quota` 429 (OpenAI only
 *   distinguishes it; Vertex sends RESOURCE_EXHAUSTED for both), `server_error` 500, `overloaded` 503.
 */
export type FakeErrorKind =
  | 'invalid_api_key'
  | 'permission_denied'
  | 'model_not_found'
  | 'bad_request'
  | 'rate_limit'
  | 'insufficient_quota'
  | 'server_error'
  | 'overloaded';

interface FakeTiming {
  /** Wait before answering (adds to the server's `latencyMs`). */
  delayMs?: number;
  /** Wait between stream events (overrides the server's `chunkDelayMs`). */
  chunkDelayMs?: number;
}

/** What the fake model does for one request. Exactly one of the shapes below. */
export type FakeReply = FakeTiming &
  (
    | {
        text: string;
        /** `length` = cut at the token limit (OpenAI `length`, Vertex `MAX_TOKENS`). */
        finish?: 'stop' | 'length';
      }
    | { toolCalls: FakeToolCall[] }
    /** Structured output: the object, serialized as the answer text. */
    | { json: unknown }
    /** OpenAI: a `refusal` message; Vertex: a prompt blocked by safety filters. */
    | { refusal: string }
    /** An error response; with `afterText` on a stream: that text first, then an error event inside the 200 stream. */
    | { error: FakeErrorKind; afterText?: string }
    /** Anything else, verbatim: a JSON value, or a string sent as it is (set its content-type in `headers`). */
    | { raw: { status: number; body: unknown; headers?: Record<string, string> } }
  );

/** A request as the fake understood it, in one shape for both providers. */
export interface FakeMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** Text content ('' when none). */
  text: string;
  /** Assistant turns: the calls it made, arguments parsed (OpenAI text that is not JSON stays a string). */
  toolCalls?: Array<{ id?: string; name: string; args: unknown }>;
  /** Tool results: which call they answer and the parsed result. */
  toolCallId?: string;
  toolName?: string;
  result?: unknown;
}

export interface FakeTool {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

export interface FakeRequest {
  provider: FakeProvider;
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The JSON body as received. */
  body: Record<string, unknown>;
  /** From the body (OpenAI) or the URL (Vertex). */
  model: string;
  stream: boolean;
  messages: FakeMessage[];
  tools: FakeTool[];
  /** Schema asked for structured output, if any. */
  jsonSchema?: Record<string, unknown>;
  /** The latest user text. */
  lastUserText: string;
  /** Tool results given after the latest user text. */
  toolResults: Array<{ name: string; result: unknown }>;
}

export type FakeHandler = (request: FakeRequest) => FakeReply | undefined | Promise<FakeReply | undefined>;

export interface FakeServerOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Wait before every answer. */
  latencyMs?: number;
  /** Wait between stream events. */
  chunkDelayMs?: number;
  /** When set, any other key is refused with the provider's 401. */
  apiKey?: string;
  /** Replies used in order, one per request, before `handler` and the default behaviour. */
  replies?: FakeReply[];
  /** Consulted when the queue is empty; `undefined` falls back to the default behaviour. */
  handler?: FakeHandler;
}

export interface FakeLlmServer {
  /**
   * What to configure the client with: OpenAI `http://127.0.0.1:PORT/v1` (OPENAI_BASE_URL),
   * Vertex `http://127.0.0.1:PORT` (VERTEX_BASE_URL / httpOptions.baseUrl).
   */
  url: string;
  port: number;
  /** Every model request received, oldest first (control endpoints excluded). */
  requests: FakeRequest[];
  enqueue(...replies: FakeReply[]): void;
  setHandler(handler: FakeHandler | undefined): void;
  /** Clears the request log, the queue and the handler: back to the default behaviour. */
  reset(): void;
  close(): Promise<void>;
}
