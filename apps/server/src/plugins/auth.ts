import fp from 'fastify-plugin';
import jwt from '@fastify/jwt';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../lib/errors';

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

/** HS256 only, `exp` always set; `requireUser` guards every protected route. */
export const authPlugin = fp<AuthOptions>(async (app, { secret, ttlSeconds }) => {
  await app.register(jwt, {
    secret,
    sign: { algorithm: 'HS256', expiresIn: ttlSeconds },
    // A verified token is remembered (fast-jwt's cache, keyed by the token, never past its `exp`) for a minute:
    // the signature is checked once, not on every request. There is no revocation list to consult.
    // A token without `exp` or `sub` is refused even when signed with our key (only ours are issued, all with both).
    verify: { algorithms: ['HS256'], requiredClaims: ['exp', 'sub'], cache: 1000, cacheTTL: 60_000 },
  });
  app.decorate('requireUser', async (request: FastifyRequest) => {
    if (!request.headers.authorization) throw unauthorized('Please sign in to continue.');
    try {
      await request.jwtVerify();
    } catch {
      throw unauthorized();
    }
    if (typeof request.user.sub !== 'string' || request.user.sub === '') throw unauthorized();
  });
});

/** The signed-in user's id; only valid behind `requireUser`. */
export const userId = (request: FastifyRequest): string => request.user.sub;
