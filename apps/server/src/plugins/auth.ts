import { createHash, randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import jwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../lib/errors';
import { createLru } from '../lib/lru';

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
   * Is this verified token still a live session (not signed out, its session version current)? Answered
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

type User = FastifyRequest['user'];

/** Verified tokens remembered per instance, and for how long at most (never past the token's own `exp`). */
const VERIFIED_TOKENS = 10_000;
const VERIFIED_FOR_MS = 60_000;

/**
 * HS256 only, `exp` always set; `requireUser` guards every protected route. A verified token is remembered for a
 * minute, by the whole Authorization header (an exact match: another header is verified on its own), and never past
 * its `exp`: the signature is checked once, not on every request, and a remembered one costs a map lookup instead
 * of the plugin's decode, hash and cache lookup (bench/api.bench.ts). Whether the session is still live (not signed
 * out, its session version current) is asked on every request, remembered token or not (`isLive`).
 * A token without `exp` or `sub` is refused even when signed with our key (only ours are issued, all with both).
 */
export const authPlugin = fp<AuthOptions>(async (app, { secret, ttlSeconds, isLive }) => {
  await app.register(jwt, {
    secret,
    sign: { algorithm: 'HS256', expiresIn: ttlSeconds },
    verify: { algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] },
  });
  const verified = createLru<{ user: User; until: number }>({ maxEntries: VERIFIED_TOKENS });
  const live = async (request: FastifyRequest): Promise<void> => {
    if (isLive && !(await isLive(sessionClaims(request))))
      throw unauthorized('Your session has ended. Please sign in again.');
  };
  app.decorate('requireUser', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (!header) throw unauthorized('Please sign in to continue.');
    const now = Date.now();
    const known = verified.get(header);
    if (known && known.until > now) {
      request.user = known.user;
      return live(request);
    }
    try {
      await request.jwtVerify();
    } catch {
      if (known) verified.delete(header);
      throw unauthorized();
    }
    if (typeof request.user.sub !== 'string' || request.user.sub === '') throw unauthorized();
    const user = Object.freeze({ ...request.user });
    verified.set(header, { user, until: Math.min(now + VERIFIED_FOR_MS, user.exp * 1000) });
    await live(request);
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
