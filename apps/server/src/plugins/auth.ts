import fp from 'fastify-plugin';
import jwt from '@fastify/jwt';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../lib/errors';
import { createLru } from '../lib/lru';

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string; username: string };
    user: { sub: string; username: string; exp: number; iat: number };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    requireUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

export interface AuthOptions {
  secret: string;
  ttlSeconds: number;
}

type User = FastifyRequest['user'];

/** Verified tokens remembered per instance, and for how long at most (never past the token's own `exp`). */
const VERIFIED_TOKENS = 10_000;
const VERIFIED_FOR_MS = 60_000;

/**
 * HS256 only, `exp` always set; `requireUser` guards every protected route. A verified token is remembered for a
 * minute, by the whole Authorization header (an exact match: another header is verified on its own), and never past
 * its `exp`: the signature is checked once, not on every request, and a remembered one costs a map lookup instead
 * of the plugin's decode, hash and cache lookup (bench/api.bench.ts). There is no revocation list to consult.
 */
export const authPlugin = fp<AuthOptions>(async (app, { secret, ttlSeconds }) => {
  await app.register(jwt, {
    secret,
    sign: { algorithm: 'HS256', expiresIn: ttlSeconds },
    verify: { algorithms: ['HS256'] },
  });
  const verified = createLru<{ user: User; until: number }>({ maxEntries: VERIFIED_TOKENS });
  app.decorate('requireUser', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (!header) throw unauthorized('Please sign in to continue.');
    const now = Date.now();
    const known = verified.get(header);
    if (known && known.until > now) {
      request.user = known.user;
      return;
    }
    try {
      await request.jwtVerify();
    } catch {
      if (known) verified.delete(header);
      throw unauthorized();
    }
    const user = Object.freeze({ ...request.user });
    verified.set(header, { user, until: Math.min(now + VERIFIED_FOR_MS, user.exp * 1000) });
  });
});

/** The signed-in user's id; only valid behind `requireUser`. */
export const userId = (request: FastifyRequest): string => request.user.sub;
