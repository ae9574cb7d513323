import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Serves the built web app, with index.html for every client-side route (never for /api or missing files). */
export async function registerStaticWeb(app: FastifyInstance, webDist: string): Promise<void> {
  if (!existsSync(join(webDist, 'index.html'))) {
    app.log.warn(`web app not built at ${webDist}; serving the API only`);
    return;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders(res, path) {
      // Hashed chunk names change with their content, so they can be cached for good.
      res.setHeader('cache-control', path.includes('/static/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/*', (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path === '/api' || path.startsWith('/api/') || /\.[a-z0-9]+$/i.test(path)) return reply.callNotFound();
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
