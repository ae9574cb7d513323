import {
  completionBody,
  openAiError,
  openAiErrorResponse,
  partialTextChunks,
  responseHeaders,
  streamChunks,
  toolCallsAnswer,
  usageOf,
  type OpenAiAnswer,
} from './openai-bodies';
import { startFake, type WireAdapter } from './server';
import { strictSchemaViolation } from './strict-schema';
import type { FakeLlmServer, FakeMessage, FakeReply, FakeRequest, FakeServerOptions, FakeTool } from './types';
import { asString, isRecord, parseJsonOr } from './wire-utils';

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : '')).join('');
  }
  return '';
}

function badRequest(message: string, param: string | null, code: string | null = null): FakeReply {
  return { raw: { status: 400, body: openAiError(message, 'invalid_request_error', param, code) } };
}

function normalize(body: Record<string, unknown>, base: Pick<FakeRequest, 'method' | 'path' | 'headers'>): FakeRequest {
  const rawMessages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  const toolNames = new Map<string, string>();
  const messages: FakeMessage[] = rawMessages.map((m): FakeMessage => {
    const role = String(m.role);
    if (role === 'assistant') {
      const calls = (Array.isArray(m.tool_calls) ? m.tool_calls : []).filter(isRecord).map((c) => {
        const fn = isRecord(c.function) ? c.function : {};
        const name = asString(fn.name);
        const id = typeof c.id === 'string' ? c.id : undefined;
        if (id) toolNames.set(id, name);
        const args = typeof fn.arguments === 'string' ? parseJsonOr(fn.arguments, fn.arguments) : fn.arguments;
        return { ...(id ? { id } : {}), name, args };
      });
      return { role: 'assistant', text: textOf(m.content), ...(calls.length > 0 ? { toolCalls: calls } : {}) };
    }
    if (role === 'tool') {
      const text = textOf(m.content);
      const id = asString(m.tool_call_id);
      return { role: 'tool', text, toolCallId: id, toolName: toolNames.get(id) ?? '', result: parseJsonOr(text, text) };
    }
    return { role: role === 'user' ? 'user' : 'system', text: textOf(m.content) };
  });

  const tools: FakeTool[] = (Array.isArray(body.tools) ? body.tools : []).filter(isRecord).flatMap((t) => {
    const fn = isRecord(t.function) ? t.function : undefined;
    if (!fn) return [];
    return [
      {
        name: asString(fn.name),
        ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
        ...(isRecord(fn.parameters) ? { parameters: fn.parameters } : {}),
      },
    ];
  });

  const format = isRecord(body.response_format) ? body.response_format : undefined;
  const jsonSchema =
    format?.type === 'json_schema' && isRecord(format.json_schema) && isRecord(format.json_schema.schema)
      ? format.json_schema.schema
      : format?.type === 'json_object'
        ? { type: 'object' }
        : undefined;

  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  return {
    provider: 'openai',
    ...base,
    body,
    model: typeof body.model === 'string' ? body.model : '',
    stream: body.stream === true,
    messages,
    tools,
    ...(jsonSchema ? { jsonSchema } : {}),
    lastUserText: lastUser >= 0 ? messages[lastUser]!.text : '',
    toolResults: messages
      .slice(lastUser + 1)
      .filter((m) => m.role === 'tool')
      .map((m) => ({ name: m.toolName ?? '', result: m.result })),
  };
}

/** The checks of the real API that catch client bugs: tool message order, strict schemas, names. */
function validate(request: FakeRequest): FakeReply | undefined {
  const body = request.body;
  if (typeof body.model !== 'string' || body.model === '')
    return badRequest('you must provide a model parameter', null);
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return badRequest("[] is too short - 'messages'", 'messages', 'empty_array');
  }
  if (body.stream_options !== undefined && body.stream !== true) {
    return badRequest(
      "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      'stream_options',
      null,
    );
  }

  const tools = Array.isArray(body.tools) ? body.tools : [];
  for (const [i, tool] of tools.entries()) {
    const fn = isRecord(tool) && isRecord(tool.function) ? tool.function : undefined;
    if (!fn || typeof fn.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(fn.name)) {
      return badRequest(
        `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        `tools[${i}].function.name`,
        'invalid_value',
      );
    }
    if (fn.strict === true) {
      const violation = strictSchemaViolation(fn.parameters);
      if (violation) {
        return badRequest(
          `Invalid schema for function '${fn.name}': ${violation}`,
          `tools[${i}].function.parameters`,
          'invalid_function_parameters',
        );
      }
    }
  }
  const format = isRecord(body.response_format) ? body.response_format : undefined;
  if (format?.type === 'json_schema') {
    const spec = isRecord(format.json_schema) ? format.json_schema : {};
    if (spec.strict === true) {
      const violation = strictSchemaViolation(spec.schema);
      if (violation) {
        return badRequest(
          `Invalid schema for response_format '${asString(spec.name)}': ${violation}`,
          'response_format',
          null,
        );
      }
    }
  }

  // Every tool message answers a call of the assistant turn before it, and every call is answered.
  let open = new Set<string>();
  for (const [i, raw] of body.messages.entries()) {
    const m = isRecord(raw) ? raw : {};
    if (m.role === 'tool') {
      if (!open.delete(asString(m.tool_call_id))) {
        return badRequest(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${i}].role`,
        );
      }
      continue;
    }
    if (open.size > 0) {
      return badRequest(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`,
        `messages.[${i}].role`,
      );
    }
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      open = new Set(m.tool_calls.filter(isRecord).map((c) => asString(c.id)));
    }
  }
  if (open.size > 0) {
    return badRequest(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`,
      'messages',
    );
  }
  return undefined;
}

function answerOf(reply: FakeReply): OpenAiAnswer | undefined {
  if ('toolCalls' in reply) return toolCallsAnswer(reply.toolCalls);
  if ('text' in reply)
    return { content: reply.text, refusal: null, toolCalls: [], finishReason: reply.finish ?? 'stop' };
  if ('json' in reply)
    return { content: JSON.stringify(reply.json), refusal: null, toolCalls: [], finishReason: 'stop' };
  if ('refusal' in reply) return { content: null, refusal: reply.refusal, toolCalls: [], finishReason: 'stop' };
  return undefined;
}

const sse = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;

const openAiAdapter: WireAdapter = {
  provider: 'openai',

  // The SDK posts to `{baseURL}/chat/completions`, with or without /v1 in the base URL.
  route: (method, url) =>
    method === 'POST' && (url.pathname === '/v1/chat/completions' || url.pathname === '/chat/completions')
      ? { stream: false, sse: false }
      : undefined,

  authorized: (req, apiKey) => req.headers.authorization === `Bearer ${apiKey}`,

  normalize: (body, _route, base) => normalize(body, base),

  validate,

  async respond(out, request, reply) {
    const headers = responseHeaders();
    if ('raw' in reply) return out.json(reply.raw.status, reply.raw.body, { ...headers, ...reply.raw.headers });
    if ('error' in reply) {
      const auth = request.headers.authorization;
      const apiKey = typeof auth === 'string' ? auth.replace(/^Bearer\s+/i, '') : '';
      const error = openAiErrorResponse(reply.error, { model: request.model, apiKey });
      if (request.stream && reply.afterText !== undefined) {
        const pieces = partialTextChunks(reply.afterText, request.model).map(sse);
        return out.stream(200, { ...SSE_HEADERS, ...headers }, [...pieces, sse(error.body)]);
      }
      return out.json(error.status, error.body, { ...headers, ...error.headers });
    }
    const answer = answerOf(reply);
    if (!answer)
      return out.json(500, openAiError('fake-llm: unknown reply shape', 'server_error', null, null), headers);
    const usage = usageOf(request.body, answer);
    if (!request.stream) return out.json(200, completionBody(answer, request.model, usage), headers);
    const options = isRecord(request.body.stream_options) ? request.body.stream_options : undefined;
    const chunks = streamChunks(answer, {
      model: request.model,
      includeUsage: options?.include_usage === true,
      // As in the fixtures: padding on plain streams, none on the include_usage capture.
      obfuscation: options ? options.include_obfuscation === true : true,
      usage,
    });
    return out.stream(200, { ...SSE_HEADERS, ...headers }, [...chunks.map(sse), 'data: [DONE]\n\n']);
  },

  plainError: (status, message) =>
    openAiError(message, status >= 500 ? 'server_error' : 'invalid_request_error', null, null),
};

/**
 * A fake OpenAI Chat Completions server on loopback: `POST {url}/chat/completions`, JSON or SSE.
 * Give `server.url` (ending in /v1) to the SDK as `baseURL` / OPENAI_BASE_URL.
 */
export function startFakeOpenAI(options: FakeServerOptions = {}): Promise<FakeLlmServer> {
  return startFake(openAiAdapter, options, '/v1');
}
