import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { Redis } from 'ioredis';
import { tooManyRequests } from '../lib/errors';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Sign-in and registration: counts the attempt against the client's IP, then refuses a username locked by its
     * recent password failures. An attempt refused for its IP is not counted against the username.
     */
    credentialLimits: preHandlerAsyncHookHandler;
    /** Counts one real password failure against the username (after the password was checked and was wrong). */
    recordPasswordFailure: (request: FastifyRequest) => Promise<void>;
    /** The username and email availability checks: per IP, each route its own counter. */
    checkLimits: preHandlerAsyncHookHandler;
  }
}

export interface RateLimitOptions {
  redisUrl?: string | undefined;
  /** Attempts per window, per IP; password failures per window, per username. */
  max?: number;
  windowMs?: number;
  /** Availability checks per window, per IP and route. */
  checkMax?: number;
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
  // req.ip is the socket's address unless TRUST_PROXY names the proxies believed about X-Forwarded-For (app.ts).
  await app.register(rateLimit, {
    global: false,
    skipOnError: true,
    ...(redis ? { redis, nameSpace: 'pipsense-rl-' } : {}),
  });
  const windowMs = options.windowMs ?? 60_000;
  const limits = { max: options.max ?? 20, timeWindow: windowMs };
  const byIp = app.createRateLimit({ ...limits, keyGenerator: (req) => `ip:${req.ip}` });
  const byUser = app.createRateLimit({ ...limits, keyGenerator: (req) => `user:${usernameOf(req)}` });
  const checks = app.createRateLimit({
    max: options.checkMax ?? 30,
    timeWindow: windowMs,
    keyGenerator: (req) => `check:${req.routeOptions.url ?? req.url}:${req.ip}`,
  });
  const tooMany = (what: string, ttlInSeconds: number) => {
    const seconds = Math.max(1, ttlInSeconds);
    return tooManyRequests(`${what} Please wait ${seconds} seconds and try again.`, 'RATE_LIMITED', seconds);
  };

  app.decorate('credentialLimits', async (request: FastifyRequest) => {
    const ip = await byIp(request);
    // Refused for its IP: stops here, so a blocked client cannot keep counting against someone's username.
    if (!ip.isAllowed && ip.isExceeded) throw tooMany('Too many attempts.', ip.ttlInSeconds);
    if (!usernameOf(request)) return;
    // Only read: the username's counter moves on real password failures (recordPasswordFailure), not attempts.
    const user = await byUser(request, { increment: false });
    if (!user.isAllowed && user.remaining === 0 && user.ttl > 0) throw tooMany('Too many attempts.', user.ttlInSeconds);
  });
  app.decorate('recordPasswordFailure', async (request: FastifyRequest) => {
    if (usernameOf(request)) await byUser(request);
  });
  app.decorate('checkLimits', async (request: FastifyRequest) => {
    const result = await checks(request);
    if (!result.isAllowed && result.isExceeded)
      throw tooMany('Too many username or email checks from your network.', result.ttlInSeconds);
  });
}
