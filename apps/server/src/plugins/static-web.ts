import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const looksLikeFile = (path: string) => /\.[a-z0-9]+$/i.test(path);
const isApi = (path: string) => path === '/api' || path.startsWith('/api/');

/**
 * Serves the built web app. Files are looked up on each request (a rebuilt app is served without a restart), and
 * every client-side route gets index.html. The build writes a brotli and a gzip copy beside each text file
 * (apps/web/vite.config.ts, `precompress`): a browser that accepts them gets the copy with its Content-Encoding,
 * any other client the file itself; `Vary: Accept-Encoding` keeps caches from mixing them up. Returns the fallback for
 * the not-found handler: true when it answered.
 */
export async function registerStaticWeb(
  app: FastifyInstance,
  webDist: string,
): Promise<(request: FastifyRequest, reply: FastifyReply) => boolean> {
  if (!existsSync(webDist)) {
    app.log.warn(`web app not built at ${webDist}; serving the API only`);
    return () => false;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: true,
    index: ['index.html'],
    cacheControl: false,
    preCompressed: true,
    // Source maps are never served, even from a build that made them (SECURITY.md, Attacks through the browser).
    allowedPath: (pathName) => !pathName.endsWith('.map'),
    setHeaders(res, path) {
      // Hashed chunk names change with their content, so they can be cached for good.
      res.setHeader('cache-control', path.includes('/static/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      res.setHeader('vary', 'Accept-Encoding');
    },
  });
  return (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (request.method !== 'GET' || isApi(path) || looksLikeFile(path)) return false;
    if (!existsSync(join(webDist, 'index.html'))) return false;
    void reply.header('cache-control', 'no-cache').sendFile('index.html');
    return true;
  };
}
