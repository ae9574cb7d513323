import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_TAGS, answerEvents, apiRouteDocs, errorBody, type ApiRouteDoc, type ApiTag } from '@pipsense/contract';

/** The interactive reference; its document is at `${API_DOCS}/json` (and `/yaml`). */
export const API_DOCS = '/api/docs';

type Json = Record<string, unknown>;

const ERROR_REF = { $ref: '#/components/schemas/ErrorBody' };
const BEARER = 'bearerAuth';

/** A zod schema as OpenAPI 3.1 (JSON Schema 2020-12) without its `$schema` line. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _draft, ...json } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Json;
  return json;
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ERROR_REF } },
});

const eventStream = () => {
  const events = Object.entries(answerEvents)
    .map(([name, schema]) => `\`${name}\`: ${schema.description ?? ''}`)
    .join(' ');
  return {
    schema: {
      type: 'string',
      description: `Server-sent events, each \`event: <name>\` then one \`data: <JSON>\` line. ${events}`,
      example: 'event: delta\ndata: {"text":"Your win rate"}\n\nevent: done\ndata: {"success":true,…}\n\n',
    },
  };
};

/**
 * `GET /api/v1/import/mappings/:id` → `getImportMappingsById` (camelCase: Swagger UI's deep links read `_` as a
 * space).
 */
const operationId = (method: string, url: string) =>
  [
    method.toLowerCase(),
    ...url
      .replace(/^\/api\/v1\//, '')
      .replace(/:(\w+)/g, 'by_$1')
      .split(/[/_]/)
      .filter(Boolean)
      .map((word) => word[0]!.toUpperCase() + word.slice(1)),
  ].join('');

/** A route without an entry in `apiRouteDocs` still appears, under the area its path names. */
const fallbackTag = (url: string): ApiTag => {
  const area = url.split('/')[3] ?? '';
  const tag = Object.keys(API_TAGS).find((t) => t.toLowerCase() === area.toLowerCase());
  return (tag as ApiTag | undefined) ?? 'Health';
};

const zodTransform = createJsonSchemaTransform({ skipList: [] });

type TransformInput = Parameters<typeof zodTransform>[0];

/**
 * One route's operation: its zod schemas as JSON Schema (fastify-type-provider-zod's transform, the schemas the
 * route validates with), then what `apiRouteDocs` says: area, summary, bearer security, the error envelope for each
 * failure, and the bodies a schema cannot state (the multipart upload, the CSV export, the answers' event stream).
 */
function operation(input: TransformInput): { schema: Json; url: string } {
  const { url, route } = input;
  const method = [route.method].flat()[0] ?? 'GET';
  const entry: ApiRouteDoc | undefined = apiRouteDocs[`${method} ${url}`];
  if (!entry && !url.startsWith('/api/v1/')) return { schema: { hide: true }, url };

  const converted = (zodTransform(input).schema ?? {}) as Json & { response?: Json };
  const { response: responses = {}, ...request } = converted;
  const schema: Json = {
    ...request,
    summary: entry?.summary ?? `${method} ${url}`,
    tags: [entry?.tag ?? fallbackTag(url)],
    operationId: operationId(method, url),
    security: entry?.public ? [] : [{ [BEARER]: [] }],
  };
  if (entry?.description) schema.description = entry.description;
  if (entry?.multipart) {
    schema.body = jsonSchema(entry.multipart, 'input');
    schema.consumes = ['multipart/form-data'];
  }

  const ok = responses[200] as Json | undefined;
  const content: Json = {};
  if (ok) content['application/json'] = { schema: ok };
  if (entry?.events) content['text/event-stream'] = eventStream();
  if (entry?.produces) content[entry.produces.contentType] = { schema: { type: 'string' } };
  const response: Json = {
    200: {
      description:
        entry?.produces?.description ??
        (entry?.events
          ? 'The answer as JSON; with `Accept: text/event-stream`, as server-sent events (`delta`…, then `done` or `error`).'
          : 'Done.'),
      ...(Object.keys(content).length > 0 ? { content } : {}),
    },
  };
  const hasInput = Boolean(request.body ?? request.querystring ?? request.params ?? entry?.multipart);
  const failures: Record<string, string> = {};
  if (hasInput) failures[400] = 'The request is invalid: `VALIDATION_FAILED` with `issues` naming each field.';
  if (!entry?.public) failures[401] = 'No session, or it expired: sign in again.';
  for (const [status, text] of Object.entries(entry?.errors ?? {}))
    failures[status] = failures[status] ? `${failures[status]} Or: ${text}` : text;
  for (const [status, text] of Object.entries(failures)) response[status] = errorResponse(text);
  response.default = errorResponse('Any other failure, in the same error envelope (500: `INTERNAL`).');
  schema.response = response;
  return { schema, url };
}

const description = `The PipSense HTTP API, generated from the zod schemas the server validates with.

Every response is JSON with \`success\` and \`message\`; a failure has \`success: false\`, a stable \`code\`, the
\`requestId\` and, for an invalid request, \`issues\` naming each field. Sign in with \`POST /api/v1/auth/login\` and
send its token as \`Authorization: Bearer <token>\`.`;

/**
 * The API reference: an OpenAPI 3.1 document of every route (`/api/docs/json`), with Swagger UI at `/api/docs`,
 * served from node_modules (no CDN). Registered before the routes, whose schemas @fastify/swagger collects as they
 * are added (onRoute). The document is built on its first request and kept: no route pays anything per request.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'PipSense API', version: '1', description },
      tags: Object.entries(API_TAGS).map(([name, text]) => ({ name, description: text })),
      components: {
        securitySchemes: {
          [BEARER]: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'The token from `POST /api/v1/auth/login`.',
          },
        },
        schemas: { ErrorBody: jsonSchema(errorBody, 'output') },
      },
    },
    transform: (input) => operation(input),
  });
  await app.register(swaggerUi, {
    routePrefix: API_DOCS,
    uiConfig: { deepLinking: true, docExpansion: 'list', displayRequestDuration: true },
    theme: { title: 'PipSense API reference' },
  });
}
