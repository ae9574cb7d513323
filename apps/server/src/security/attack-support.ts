import { createHmac } from 'node:crypto';
import type { RouteOptions } from 'fastify';
import { z } from 'zod';
import { apiRouteDocs } from '@pipsense/contract';

/*
 * Shared by the attack tests (`*.attack.test.ts`): the app's routes as it registers them (BuildOptions.onRoute),
 * so that a new route is attacked without touching these tests, and hand-made JWTs.
 */

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRoute {
  method: HttpMethod;
  /** As registered, path parameters as `:name`. */
  url: string;
  /** `METHOD /path`, the key of the contract's apiRouteDocs. */
  key: string;
  /** Answers without a session (apiRouteDocs marks it `public`). */
  public: boolean;
  body?: z.ZodType;
  querystring?: z.ZodType;
  params?: z.ZodType;
}

/** Collects the routes as buildApp registers them: pass `onRoute` to createTestApp, read `routes()` after. */
export function routeRecorder(): { onRoute: (route: RouteOptions) => void; routes: () => ApiRoute[] } {
  const seen: RouteOptions[] = [];
  return {
    onRoute: (route) => void seen.push(route),
    routes: () =>
      seen
        .flatMap((r) => [r.method].flat().map((method) => ({ method: String(method), route: r })))
        // HEAD routes are Fastify's copies of the GETs.
        .filter(({ method, route }) => route.url.startsWith('/api/v1/') && method !== 'HEAD')
        .map(({ method, route }) => {
          const key = `${method} ${route.url}`;
          const schema = (route.schema ?? {}) as Record<string, unknown>;
          const zod = (part: string) => {
            const value = schema[part];
            return value instanceof z.ZodType ? value : undefined;
          };
          return {
            method: method as HttpMethod,
            url: route.url,
            key,
            public: apiRouteDocs[key]?.public === true,
            body: zod('body'),
            querystring: zod('querystring'),
            params: zod('params'),
          };
        }),
  };
}

/** The route's URL with every path parameter set (default: the same placeholder for each). */
export function fillPath(url: string, params: Record<string, string> | ((name: string) => string) = () => 'x'): string {
  const value = typeof params === 'function' ? params : (name: string) => params[name] ?? 'x';
  return url.replace(/:(\w+)/g, (_, name: string) => percentEncode(value(name)));
}

/** encodeURIComponent that also takes lone surrogates (as the UTF-8 replacement character) instead of throwing. */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.!~*'()]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** JSON Schema (as the client sends it) of a zod schema: the fields a request may carry. */
export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
}

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** A JWT with this header and payload, HMAC-signed with `secret` (`alg` HS256/HS384/HS512), or unsigned. */
export function makeJwt(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  secret: string | Buffer | null,
): string {
  const head = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  if (secret === null) return `${head}.`;
  const bits = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' }[String(header.alg)] ?? 'sha256';
  return `${head}.${createHmac(bits, secret).update(head).digest('base64url')}`;
}

/** The payload of a JWT, unverified. */
export function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Library, SQL and stack-trace text that must never reach a client. */
const LEAK_PATTERNS: RegExp[] = [
  /SQLITE_/i,
  /syntax error/i,
  /\bat Object\./,
  /\bat [\w$.<>]+ \([^)]*:\d+:\d+\)/,
  /node_modules/,
  /ZodError/,
  /Kysely/i,
  /better-sqlite3/i,
  /\bSELECT\b[\s\S]{0,200}\bFROM\b/i,
  /\bINSERT INTO\b/i,
  /\bUPDATE\b\s+\S+\s+SET\b/i,
  /\bDELETE FROM\b/i,
  /duplicate key value/i,
  /violates .* constraint/i,
  /\bpg_/i,
  /TypeError|ReferenceError|RangeError/,
  /Cannot read properties/i,
];

/** The first leak pattern the text matches, if any. */
export function leakIn(text: string): RegExp | undefined {
  return LEAK_PATTERNS.find((pattern) => pattern.test(text));
}

/** A multipart/form-data body as a browser sends it (the platform's own FormData encoder). */
export async function multipartForm(
  fields: Record<string, string>,
  file: { bytes: Uint8Array; name: string } | null,
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  if (file) data.append('file', new Blob([Buffer.from(file.bytes)]), file.name);
  const encoded = new Response(data);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
  };
}
