import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { Redis } from 'ioredis';

declare module 'fastify' {
  interface FastifyInstance {
    /** Per-IP and per-username limits for sign-in and registration. */
    credentialLimits: preHandlerAsyncHookHandler[];
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
  const redis = options.redisUrl ? new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false }) : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));
  await app.register(rateLimit, { global: false, ...(redis ? { redis, nameSpace: 'pipsense-rl-' } : {}) });
  const max = options.max ?? 20;
  const timeWindow = options.windowMs ?? 60_000;
  const errorResponseBuilder = (_req: FastifyRequest, ctx: { after: string; statusCode: number }) => {
    const error = new Error(`Too many attempts. Please wait ${ctx.after} and try again.`) as Error & { statusCode: number };
    error.statusCode = ctx.statusCode;
    return error;
  };
  app.decorate('credentialLimits', [
    app.rateLimit({ max, timeWindow, keyGenerator: (req) => `ip:${req.ip}`, errorResponseBuilder }),
    app.rateLimit({
      max,
      timeWindow,
      keyGenerator: (req) => `user:${usernameOf(req)}`,
      errorResponseBuilder,
    }),
  ]);
}
