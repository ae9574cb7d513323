import { createHash, randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import jwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../lib/errors';

declare module '@fastify/jwt' {
  interface FastifyJWT {
    /** `sv`: the user's session version when signed; `jti`: this token's id (logout revokes it). */
    payload: { sub: string; username: string; sv?: number; jti?: string };
    user: { sub: string; username: string; exp: number; iat: number; sv?: number; jti?: string };
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
  /**
   * Issue 12: is this verified token still a live session (not signed out, its session version current)? Answered
   * from an in-process cache (modules/auth/session-guard.ts), not the database, on the hot path.
   */
  isLive?: (claims: SessionClaims) => boolean | Promise<boolean>;
}

/** What the session check reads of a verified token; `tokenId` is its `jti` (or a hash of a token without one). */
export interface SessionClaims {
  userId: string;
  version: number;
  tokenId: string;
}

/** HS256 only, `exp` always set; `requireUser` guards every protected route. */
export const authPlugin = fp<AuthOptions>(async (app, { secret, ttlSeconds, isLive }) => {
  await app.register(jwt, {
    secret,
    sign: { algorithm: 'HS256', expiresIn: ttlSeconds },
    // A verified token is remembered (fast-jwt's cache, keyed by the token, never past its `exp`) for a minute:
    // the signature is checked once, not on every request; `isLive` then says whether the session was revoked.
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
    if (isLive && !(await isLive(sessionClaims(request))))
      throw unauthorized('Your session has ended. Please sign in again.');
  });
});

/** The signed-in token's session claims; only valid behind `requireUser`. */
export function sessionClaims(request: FastifyRequest): SessionClaims {
  const { sub, sv, jti } = request.user;
  const tokenId =
    jti ?? createHash('sha256').update(String(request.headers.authorization)).digest('base64url').slice(0, 32);
  return { userId: sub, version: typeof sv === 'number' ? sv : 0, tokenId };
}

/** A session token for this user at its current session version, with an id of its own. */
export const signSession = (
  app: FastifyInstance,
  user: { id: string; username: string; session_version: number },
): string => app.jwt.sign({ sub: user.id, username: user.username, sv: user.session_version, jti: randomUUID() });

/** The signed-in user's id; only valid behind `requireUser`. */
export const userId = (request: FastifyRequest): string => request.user.sub;
