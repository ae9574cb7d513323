import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { Redis } from 'ioredis';
import { AppError } from '../lib/errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** Per-IP and per-username limits for sign-in and registration. */
    credentialLimits: preHandlerAsyncHookHandler;
  }
}

export interface RateLimitOptions {
  redisUrl?: string | undefined;
  /** Attempts per window, per IP and per username. */
  max?: number;
  windowMs?: number;
}

const usernameOf = (request: FastifyRequest): string => {
  const body = request.body as { username?: unknown } | undefined;
  return typeof body?.username === 'string' ? body.username.trim().toLowerCase() : '';
};

/** In memory for one instance; shared through Redis when REDIS_URL is set (several instances). */
export async function registerRateLimits(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 })
    : undefined;
  if (redis) {
    redis.on('error', (error: Error) => app.log.warn({ err: error }, 'rate-limit store (Redis) unavailable'));
    app.addHook('onClose', async () => void (await redis.quit()));
  }
  // If Redis is down, sign-in keeps working (fail open) rather than locking every user out.
  await app.register(rateLimit, {
    global: false,
    skipOnError: true,
    ...(redis ? { redis, nameSpace: 'pipsense-rl-' } : {}),
  });
  const limits = { max: options.max ?? 20, timeWindow: options.windowMs ?? 60_000 };
  // Two counters per request: the plugin's route hook runs only one limiter per request, so check both here.
  const byIp = app.createRateLimit({ ...limits, keyGenerator: (req) => `ip:${req.ip}` });
  const byUser = app.createRateLimit({ ...limits, keyGenerator: (req) => `user:${usernameOf(req)}` });
  app.decorate('credentialLimits', async (request: FastifyRequest) => {
    const checks = [await byIp(request)];
    if (usernameOf(request)) checks.push(await byUser(request));
    const exceeded = checks.find((c) => !c.isAllowed && c.isExceeded);
    if (exceeded && !exceeded.isAllowed) {
      const seconds = Math.max(1, exceeded.ttlInSeconds);
      throw new AppError(429, 'RATE_LIMITED', `Too many attempts. Please wait ${seconds} seconds and try again.`, {
        'retry-after': String(seconds),
      });
    }
  });
}
