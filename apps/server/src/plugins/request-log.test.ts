import { Writable } from 'node:stream';
import Fastify, { LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandling, registerRequestLog } from './error-handler';
import { lazyRequestLogger } from '../lib/request-logger';
import { registerSecurityHeaders } from './security';

/** A Fastify app at LOG_LEVEL info whose log lines are collected, configured as app.ts configures it. */
async function appLogging(slowMs: number) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({
    logger: { level: 'info', stream },
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
  });
  // Counts the request loggers made (Fastify asks the app's logger for a child per request).
  const made = { children: 0 };
  const child = app.log.child.bind(app.log);
  app.log.child = (...args: Parameters<typeof child>) => {
    made.children += 1;
    return child(...args);
  };
  registerErrorHandling(app);
  registerRequestLog(app, slowMs);
  await registerSecurityHeaders(app);
  app.get('/fast', () => ({ ok: true }));
  app.get('/slow', async () => {
    await new Promise((r) => setTimeout(r, 120));
    return { ok: true };
  });
  app.get('/boom', () => {
    throw new Error('kaput');
  });
  return { app, lines, made };
}

describe('request log', () => {
  it('logs slow responses and server errors at warn, not every request', async () => {
    const { app, lines } = await appLogging(100);
    for (let i = 0; i < 5; i++) expect((await app.inject({ url: '/fast' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/missing' })).statusCode).toBe(404);
    expect(lines).toEqual([]);

    expect((await app.inject({ url: '/slow' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/boom' })).statusCode).toBe(500);
    const requests = lines.filter((l) => l.msg === 'slow request' || l.msg === 'request failed');
    expect(requests.map((l) => [l.msg, l.url, l.statusCode, l.level])).toEqual([
      ['slow request', '/slow', 200, 40],
      ['request failed', '/boom', 500, 40],
    ]);
    expect(requests[0]!.responseTime).toBeGreaterThanOrEqual(100);
    // The error itself is still logged, with its stack, by the error handler.
    expect(lines.some((l) => l.level === 50 && (l.err as { message?: string } | undefined)?.message === 'kaput')).toBe(
      true,
    );
    await app.close();
  });

  it("makes a request's logger only for a request that writes a line, and its lines carry the request's id", async () => {
    const { app, lines, made } = await appLogging(100);
    for (let i = 0; i < 5; i++) expect((await app.inject({ url: '/fast' })).statusCode).toBe(200);
    expect(made.children).toBe(0);
    const failed = await app.inject({ url: '/boom' });
    expect(failed.statusCode).toBe(500);
    expect(made.children).toBe(1);
    const { requestId } = failed.json<{ requestId: string }>();
    const ids = lines.filter((l) => l.msg === 'request failed' || l.level === 50).map((l) => l.reqId);
    expect(ids).toEqual([requestId, requestId]);
    await app.close();
  });

  it('logs every response at info when SLOW_REQUEST_MS is 0', async () => {
    const { app, lines } = await appLogging(0);
    await app.inject({ url: '/fast' });
    await app.inject({ url: '/missing' });
    expect(lines.map((l) => [l.msg, l.url, l.statusCode, l.level])).toEqual([
      ['request completed', '/fast', 200, 30],
      ['request completed', '/missing', 404, 30],
    ]);
    await app.close();
  });
});

describe('security headers', () => {
  it("sends helmet's headers on answers, errors and 404s alike", async () => {
    const { app } = await appLogging(1000);
    for (const url of ['/fast', '/boom', '/missing']) {
      const res = await app.inject({ url });
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    await app.close();
  });
});
