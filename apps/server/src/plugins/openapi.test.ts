import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_TAGS, apiRouteDocs } from '@pipsense/contract';
import { createTestApp, type TestApp } from '../test/harness';
import { API_DOCS } from './openapi';

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Json[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Json }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: Json }> }>;
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const isZod = (schema: unknown): schema is z.ZodType => schema instanceof z.ZodType;
/** The properties and required names of a zod object schema, as the client sends it. */
const inputShape = (schema: z.ZodType) => {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Json;
    required?: string[];
  };
  return { properties: Object.keys(json.properties ?? {}).sort(), required: [...(json.required ?? [])].sort() };
};

/** Every `$ref` in the document, with where it was found. */
function refs(value: unknown, at = '#'): { ref: string; at: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => refs(v, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === '$ref' && typeof child === 'string' ? [{ ref: child, at }] : refs(child, `${at}/${key}`),
  );
}
const resolvePointer = (doc: unknown, ref: string) =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Json | undefined)?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc);

describe('API reference (/api/docs)', () => {
  let t: TestApp;
  let doc: Document;
  const routes: RouteOptions[] = [];
  let webDist: string;

  beforeAll(async () => {
    t = await createTestApp({}, { onRoute: (route) => void routes.push(route) });
    // A built web app beside the API, so that its client-side fallback is in play.
    webDist = join(t.dataDir, 'web');
    mkdirSync(webDist);
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>PipSense web</title>');
    const res = await t.app.inject({ method: 'GET', url: `${API_DOCS}/json` });
    expect(res.statusCode).toBe(200);
    doc = res.json<Document>();
  });
  afterAll(() => t.close());

  /** The API routes the app registered (HEAD routes are Fastify's copies of the GETs). */
  const apiRoutes = () =>
    routes
      .flatMap((r) => [r.method].flat().map((method) => ({ method: String(method), url: r.url, schema: r.schema })))
      .filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'HEAD');

  it('is an OpenAPI 3.1 document: info, tags, paths, components, bearer JWT', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('PipSense API');
    expect(typeof doc.info.version).toBe('string');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    expect(doc.components.schemas.ErrorBody).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['success', 'message', 'code', 'requestId']),
    });
    expect(doc.tags.map((tag) => tag.name)).toEqual(Object.keys(API_TAGS));

    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path, 'a path starts with /').toMatch(/^\//);
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(METHODS, where).toContain(method);
        expect(op.summary, where).toBeTruthy();
        expect(op.tags?.length, where).toBe(1);
        expect(Object.keys(API_TAGS), where).toContain(op.tags![0]);
        expect(op.operationId, where).toBeTruthy();
        expect(operationIds.has(op.operationId!), `${where}: operationId ${op.operationId} is not unique`).toBe(false);
        operationIds.add(op.operationId!);
        expect(Object.keys(op.responses).length, where).toBeGreaterThan(0);
        for (const [status, response] of Object.entries(op.responses)) {
          expect(status, where).toMatch(/^([1-5]\d\d|[1-5]XX|default)$/);
          expect(response.description, `${where} ${status}`).toBeTruthy();
        }
        // Each {name} in the path is a required path parameter, and no other.
        const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
        const inPath = (op.parameters ?? []).filter((p) => p.in === 'path');
        expect(inPath.map((p) => p.name).sort(), where).toEqual(templated);
        for (const p of inPath) expect(p.required, `${where} ${p.name}`).toBe(true);
      }
    }
    for (const { ref, at } of refs(doc)) {
      expect(ref, at).toMatch(/^#\//);
      expect(resolvePointer(doc, ref), `${at}: ${ref} resolves`).toBeDefined();
    }
  });

  it('has every /api/v1 route the app registers, with its request schema', () => {
    const registered = apiRoutes();
    expect(registered.length).toBeGreaterThan(40);
    for (const route of registered) {
      const key = `${route.method} ${route.url}`;
      expect(
        apiRouteDocs[key],
        `${key}: add its summary and area to apiRouteDocs (contract api-docs.ts)`,
      ).toBeDefined();
      const op = doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      expect(op, `${key} is in the document`).toBeDefined();
      if (!op) continue;
      expect(op.summary).toBe(apiRouteDocs[key]!.summary);
      expect(op.tags).toEqual([apiRouteDocs[key]!.tag]);

      const schema = (route.schema ?? {}) as Record<string, unknown>;
      if (isZod(schema.body)) {
        const body = op.requestBody?.content['application/json']?.schema;
        expect(body, `${key}: request body`).toBeDefined();
        const want = inputShape(schema.body);
        expect(Object.keys((body?.properties as Json | undefined) ?? {}).sort(), key).toEqual(want.properties);
        expect([...((body?.required as string[] | undefined) ?? [])].sort(), key).toEqual(want.required);
      }
      for (const [part, where] of [
        ['querystring', 'query'],
        ['params', 'path'],
      ] as const) {
        if (!isZod(schema[part])) continue;
        const want = inputShape(schema[part]);
        const params = (op.parameters ?? []).filter((p) => p.in === where);
        expect(params.map((p) => p.name).sort(), `${key}: ${where} parameters`).toEqual(want.properties);
        const required = params.filter((p) => p.required).map((p) => p.name);
        expect(required.sort(), `${key}: required ${where} parameters`).toEqual(want.required);
      }
      const response = (schema.response ?? {}) as Record<string, unknown>;
      if (isZod(response[200]))
        expect(op.responses['200']?.content?.['application/json']?.schema, `${key}: 200 body`).toBeDefined();
      expect(op.responses.default?.content?.['application/json']?.schema).toEqual({
        $ref: '#/components/schemas/ErrorBody',
      });
    }
    // Nothing documented that is not served.
    const served = new Set(registered.map((r) => `${r.method.toLowerCase()} ${openApiPath(r.url)}`));
    for (const [path, item] of Object.entries(doc.paths))
      for (const method of Object.keys(item))
        if (path.startsWith('/api/v1/')) expect(served, `${method} ${path} is served`).toContain(`${method} ${path}`);
  });

  it('marks exactly the routes that answer 401 without a token as needing the bearer JWT', async () => {
    for (const route of apiRoutes()) {
      const key = `${route.method} ${route.url}`;
      const op = doc.paths[openApiPath(route.url)]![route.method.toLowerCase()]!;
      const url = route.url.replace(/:(\w+)/g, 'x');
      const res = await t.app.inject({ method: route.method as 'GET', url });
      if (apiRouteDocs[key]?.public) {
        expect(op.security, key).toEqual([]);
        expect(res.statusCode, `${key} answers without a session`).not.toBe(401);
      } else {
        expect(op.security, key).toEqual([{ bearerAuth: [] }]);
        expect(res.statusCode, `${key} needs a session`).toBe(401);
        expect(op.responses['401'], key).toBeDefined();
      }
    }
  });

  it('describes the multipart upload, the CSV export and the streamed answers', () => {
    const upload = doc.paths['/api/v1/import/upload']!.post!;
    const form = upload.requestBody?.content['multipart/form-data']?.schema as {
      properties: Record<string, Json>;
      required: string[];
    };
    expect(form.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(form.required).toEqual(['file']);
    expect(Object.keys(form.properties).sort()).toEqual([
      'brokerTime',
      'file',
      'mapping',
      'mappingId',
      'mode',
      'serverUtcOffset',
    ]);
    expect(upload.responses['413']).toBeDefined();

    expect(doc.paths['/api/v1/trade/export_trades']!.get!.responses['200']!.content).toHaveProperty('text/csv');

    const answer = doc.paths['/api/v1/query/oanda/trade']!.post!.responses['200']!;
    expect(Object.keys(answer.content ?? {})).toEqual(['application/json', 'text/event-stream']);
    expect(answer.content!['text/event-stream']!.schema.description).toMatch(/`delta`.*`done`.*`error`/);
  });

  it('is built once: the same document for every request', () => {
    expect(t.app.swagger()).toBe(t.app.swagger());
  });

  it('serves Swagger UI from the server itself under the app CSP, not the web app fallback', async () => {
    const app = await createTestApp({ WEB_DIST: webDist });
    try {
      const page = await app.app.inject({ method: 'GET', url: API_DOCS });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.body).toContain('swagger-ui-bundle.js');
      expect(page.body).not.toContain('PipSense web');
      // Every script and stylesheet is local: the page works offline.
      const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(assets.length).toBeGreaterThan(3);
      for (const asset of assets) {
        expect(asset, 'no CDN').toMatch(/^\/api\/docs\/static\//);
        const res = await app.app.inject({ method: 'GET', url: asset });
        expect(res.statusCode, asset).toBe(200);
      }
      // The same security headers as every other response: the UI needs no inline script.
      const home = await app.app.inject({ method: 'GET', url: '/login' });
      expect(home.body).toContain('PipSense web');
      expect(page.headers['content-security-policy']).toBe(home.headers['content-security-policy']);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");

      const missing = await app.app.inject({ method: 'GET', url: `${API_DOCS}/nothing-here` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    } finally {
      await app.close();
    }
  });
});
