import { startFake, type RouteMatch, type WireAdapter } from './server';
import type { FakeLlmServer, FakeMessage, FakeReply, FakeRequest, FakeServerOptions, FakeTool } from './types';
import {
  googleError,
  invalidArgument,
  responseBody,
  streamChunks,
  toolCallsAnswer,
  usageMetadata,
  vertexErrorBody,
  type GoogleErrorBody,
  type VertexAnswer,
} from './vertex-bodies';
import { asString, isRecord } from './wire-utils';

export interface FakeVertexOptions extends FakeServerOptions {
  /**
   * Reject history whose model function calls lost their thought signature (400, as Gemini 3 does).
   * Default: only for models whose name starts with `gemini-3`; Gemini 2.5 accepts such history.
   */
  requireThoughtSignatures?: boolean;
}

/**
 * What `@google/genai` requests with `vertexai: true`: `/v1beta1/publishers/google/models/M:method`
 * with an API key, `/v1beta1/projects/P/locations/L/publishers/google/models/M:method` with a
 * project; `v1` (older SDK) and the Gemini API's `v1beta/models/M:method` are accepted too.
 */
const MODEL_PATH =
  /^\/(?:v1|v1beta1|v1beta)\/(?:projects\/[^/]+\/locations\/[^/]+\/)?(?:publishers\/[^/]+\/)?models\/([^/:]+):(generateContent|streamGenerateContent)$/;

const JSON_HEADERS = { 'content-type': 'application/json; charset=UTF-8', vary: 'Origin, X-Origin, Referer' };
const SSE_HEADERS = { 'content-type': 'text/event-stream', vary: 'Origin, X-Origin, Referer' };

/** Proto3 JSON accepts lowerCamelCase and the original snake_case names. */
function field(o: Record<string, unknown>, camel: string): unknown {
  return o[camel] ?? o[camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
}

const TOP_LEVEL = new Set([
  'contents',
  'systemInstruction',
  'tools',
  'toolConfig',
  'generationConfig',
  'safetySettings',
  'cachedContent',
  'labels',
  'modelArmorConfig',
]);
const DECLARATION = new Set([
  'name',
  'description',
  'parameters',
  'parametersJsonSchema',
  'response',
  'responseJsonSchema',
  'behavior',
]);
const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function partsOf(content: unknown): Record<string, unknown>[] {
  return isRecord(content) && Array.isArray(content.parts) ? content.parts.filter(isRecord) : [];
}

function normalize(
  body: Record<string, unknown>,
  route: RouteMatch,
  base: Pick<FakeRequest, 'method' | 'path' | 'headers'>,
): FakeRequest {
  const messages: FakeMessage[] = [];
  const system = partsOf(field(body, 'systemInstruction'))
    .map((p) => (typeof p.text === 'string' ? p.text : ''))
    .join('');
  if (system) messages.push({ role: 'system', text: system });

  const contents = Array.isArray(body.contents) ? body.contents.filter(isRecord) : [];
  for (const content of contents) {
    const parts = partsOf(content);
    if (content.role === 'model') {
      const text = parts.map((p) => (typeof p.text === 'string' && p.thought !== true ? p.text : '')).join('');
      const calls = parts.flatMap((p) => {
        const call = field(p, 'functionCall');
        if (!isRecord(call)) return [];
        return [
          { ...(typeof call.id === 'string' ? { id: call.id } : {}), name: asString(call.name), args: call.args ?? {} },
        ];
      });
      messages.push({ role: 'assistant', text, ...(calls.length > 0 ? { toolCalls: calls } : {}) });
      continue;
    }
    // A user turn may hold text and function responses; keep their order.
    for (const p of parts) {
      const response = field(p, 'functionResponse');
      if (isRecord(response)) {
        const payload = isRecord(response.response) ? response.response : {};
        messages.push({
          role: 'tool',
          text: JSON.stringify(payload),
          toolName: asString(response.name),
          ...(typeof response.id === 'string' ? { toolCallId: response.id } : {}),
          result: 'output' in payload ? payload.output : payload,
        });
      } else if (typeof p.text === 'string') {
        messages.push({ role: 'user', text: p.text });
      }
    }
  }

  const tools: FakeTool[] = (Array.isArray(body.tools) ? body.tools : []).filter(isRecord).flatMap((tool) => {
    const declarations = field(tool, 'functionDeclarations');
    return (Array.isArray(declarations) ? declarations : []).filter(isRecord).map((d) => {
      const parameters = field(d, 'parametersJsonSchema') ?? d.parameters;
      return {
        name: asString(d.name),
        ...(typeof d.description === 'string' ? { description: d.description } : {}),
        ...(isRecord(parameters) ? { parameters } : {}),
      };
    });
  });

  const generation = isRecord(field(body, 'generationConfig'))
    ? (field(body, 'generationConfig') as Record<string, unknown>)
    : {};
  const schema = field(generation, 'responseJsonSchema') ?? field(generation, 'responseSchema');
  const jsonSchema =
    field(generation, 'responseMimeType') === 'application/json'
      ? isRecord(schema)
        ? schema
        : { type: 'object' }
      : undefined;

  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  return {
    provider: 'vertex',
    ...base,
    body,
    model: route.model ?? '',
    stream: route.stream,
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

function rejected(body: GoogleErrorBody): FakeReply {
  return { raw: { status: body.error.code, body } };
}

function validate(request: FakeRequest, requireSignatures: boolean | undefined): FakeReply | undefined {
  const body = request.body;
  for (const key of Object.keys(body)) {
    if (!TOP_LEVEL.has(camel(key))) {
      return rejected(invalidArgument(`Invalid JSON payload received. Unknown name "${key}": Cannot find field.`));
    }
  }
  for (const [t, tool] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    const declarations = isRecord(tool) ? field(tool, 'functionDeclarations') : undefined;
    for (const [d, declaration] of (Array.isArray(declarations) ? declarations : []).entries()) {
      const unknown = Object.keys(isRecord(declaration) ? declaration : {}).find((k) => !DECLARATION.has(camel(k)));
      if (unknown !== undefined) {
        const at = `tools[${t}].function_declarations[${d}]`;
        return rejected(
          invalidArgument(
            `Invalid JSON payload received. Unknown name "${unknown}" at '${at}': Cannot find field.`,
            at,
          ),
        );
      }
    }
  }
  const contents = Array.isArray(body.contents) ? body.contents : [];
  if (contents.length === 0) return rejected(invalidArgument('contents is not specified'));

  let pendingCalls = 0;
  for (const [i, content] of contents.entries()) {
    const role = isRecord(content) ? content.role : undefined;
    if (role !== 'user' && role !== 'model') return rejected(invalidArgument('Please use a valid role: user, model.'));
    const parts = partsOf(content);
    if (parts.length === 0) {
      return rejected(
        invalidArgument(
          'Unable to submit request because it must include at least one parts field, which describes the prompt input.',
        ),
      );
    }
    const calls = parts.filter((p) => isRecord(field(p, 'functionCall')));
    const responses = parts.filter((p) => isRecord(field(p, 'functionResponse')));
    if (pendingCalls > 0 && responses.length !== pendingCalls) {
      return rejected(
        invalidArgument(
          'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
        ),
      );
    }
    pendingCalls = 0;
    if (role === 'model' && calls.length > 0) {
      const signed = requireSignatures ?? request.model.startsWith('gemini-3');
      const first = calls[0]!;
      if (signed && typeof field(first, 'thoughtSignature') !== 'string') {
        const name = asString((field(first, 'functionCall') as Record<string, unknown>).name);
        return rejected(
          googleError(
            400,
            'INVALID_ARGUMENT',
            `Unable to submit request because function call \`${name}\` in the ${i + 1}. content block is missing a \`thought_signature\`. Learn more: https://docs.cloud.google.com/vertex-ai/generative-ai/docs/thought-signatures`,
          ),
        );
      }
      pendingCalls = calls.length;
    }
  }
  return undefined;
}

function answerOf(reply: FakeReply): VertexAnswer | undefined {
  if ('toolCalls' in reply) return toolCallsAnswer(reply.toolCalls);
  if ('text' in reply)
    return { parts: [{ text: reply.text }], finishReason: reply.finish === 'length' ? 'MAX_TOKENS' : 'STOP' };
  if ('json' in reply) return { parts: [{ text: JSON.stringify(reply.json) }], finishReason: 'STOP' };
  if ('refusal' in reply) return { parts: [], finishReason: 'STOP', blocked: reply.refusal };
  return undefined;
}

/** Google's frontend ends SSE events with CRLF pairs. */
const sse = (payload: unknown) => `data: ${JSON.stringify(payload)}\r\n\r\n`;

function resourceOf(request: FakeRequest): string {
  const m = /\/(projects\/[^:]+|publishers\/[^:]+|models\/[^:]+):/.exec(request.path);
  return m?.[1] ?? `publishers/google/models/${request.model}`;
}

function vertexAdapter(options: FakeVertexOptions): WireAdapter {
  return {
    provider: 'vertex',

    route(method, url) {
      const m = MODEL_PATH.exec(url.pathname);
      if (method !== 'POST' || !m) return undefined;
      return {
        model: decodeURIComponent(m[1]!),
        stream: m[2] === 'streamGenerateContent',
        sse: url.searchParams.get('alt') === 'sse',
      };
    },

    authorized(req, apiKey) {
      const url = new URL(req.url ?? '/', 'http://fake.invalid');
      return (
        req.headers['x-goog-api-key'] === apiKey ||
        req.headers.authorization === `Bearer ${apiKey}` ||
        url.searchParams.get('key') === apiKey
      );
    },

    normalize,

    validate: (request) => validate(request, options.requireThoughtSignatures),

    async respond(out, request, reply, route) {
      if ('raw' in reply) return out.json(reply.raw.status, reply.raw.body, { ...JSON_HEADERS, ...reply.raw.headers });
      if ('error' in reply) {
        const error = vertexErrorBody(reply.error, request.model, resourceOf(request));
        if (request.stream && route.sse && reply.afterText !== undefined) {
          const head = streamChunks(
            { parts: [{ text: reply.afterText }], finishReason: 'STOP' },
            request.model,
            usageMetadata('', ''),
          );
          // The fixture's partial chunk has no finishReason and no usage.
          const partial = head.map((c) => stripFinish(c));
          return out.stream(200, SSE_HEADERS, [...partial.map(sse), sse(error)]);
        }
        const headers: Record<string, string> =
          error.error.code === 401
            ? { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' }
            : {};
        return out.json(error.error.code, error, { ...JSON_HEADERS, ...headers });
      }
      const answer = answerOf(reply);
      if (!answer) return out.json(500, googleError(500, 'INTERNAL', 'fake-llm: unknown reply shape'), JSON_HEADERS);
      const usage = usageMetadata(request.body, answer.parts);
      if (!request.stream) return out.json(200, responseBody(answer, request.model, usage), JSON_HEADERS);
      const chunks = streamChunks(answer, request.model, usage);
      if (route.sse) return out.stream(200, SSE_HEADERS, chunks.map(sse));
      // Without alt=sse the stream is one JSON array written element by element.
      const pieces = chunks.map(
        (c, i) => `${i === 0 ? '[' : ''}${JSON.stringify(c)}${i === chunks.length - 1 ? ']' : ',\r\n'}`,
      );
      return out.stream(200, JSON_HEADERS, pieces);
    },

    plainError: (status, message) =>
      googleError(status, status === 404 ? 'NOT_FOUND' : status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT', message),
  };
}

function stripFinish(chunk: unknown): unknown {
  if (!isRecord(chunk) || !Array.isArray(chunk.candidates)) return chunk;
  const { usageMetadata: _usage, ...rest } = chunk;
  return {
    ...rest,
    candidates: chunk.candidates.filter(isRecord).map(({ finishReason: _finish, ...candidate }) => candidate),
  };
}

/**
 * A fake Vertex AI generateContent / streamGenerateContent server on loopback. Give `server.url` to
 * `@google/genai` as `httpOptions.baseUrl` (VERTEX_BASE_URL) with `vertexai: true`.
 */
export function startFakeVertex(options: FakeVertexOptions = {}): Promise<FakeLlmServer> {
  return startFake(vertexAdapter(options), options, '');
}
