import { generateKeyPairSync, sign as rsaSign } from 'node:crypto';
import type { TestApp } from '../test/harness';
import { fillPath, jwtPayload, makeJwt, type ApiRoute } from './attack-support';

/*
 * The bad bearer tokens every protected route must answer 401 to (tokens.attack.test.ts). Each case builds its
 * Authorization header from a genuine session of the app; a case returning `undefined` sends no header at all.
 * Revocation cases (a token from before a password change, logout everywhere, account deletion) make their token
 * through the app's session routes (`ctx.t`): they belong in `revokedTokenCases` below, which the test runs like
 * the forged ones; `routesAccepting` checks any other token against every protected route.
 */

export interface TokenContext {
  /** The app under attack (a revocation case signs a user in, revokes, and returns the old token). */
  t: TestApp;
  /** The app's JWT secret (DATA_DIR/jwt-secret or JWT_SECRET). */
  secret: string;
  /** A genuine, current token of a signed-in user. */
  token: string;
  /** The id of another user (for a payload rewritten to impersonate them). */
  otherUserId: string;
  /** The app's now, in seconds. */
  nowSeconds: number;
}

export interface TokenCase {
  name: string;
  /** The whole Authorization header to send, or undefined for none. */
  header(ctx: TokenContext): Promise<string | undefined> | string | undefined;
}

const bearer = (token: string) => `Bearer ${token}`;
const claims = (ctx: TokenContext) => {
  const { sub, username } = jwtPayload(ctx.token);
  return { sub, username, iat: ctx.nowSeconds - 10, exp: ctx.nowSeconds + 3600 };
};

/** A key pair whose public half an attacker could present as the "key" in an RS256/HS256 confusion. */
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rsaPublicPem = rsa.publicKey.export({ type: 'spki', format: 'pem' });

export const forgedTokenCases: TokenCase[] = [
  { name: 'no Authorization header', header: () => undefined },
  { name: 'empty Authorization header', header: () => '' },
  { name: 'Bearer with no token', header: () => 'Bearer ' },
  { name: 'another scheme (Basic)', header: (ctx) => `Basic ${ctx.token}` },
  { name: 'not a JWT', header: () => bearer('not-a-jwt') },
  { name: 'two parts only', header: (ctx) => bearer(ctx.token.split('.').slice(0, 2).join('.')) },
  { name: 'garbage base64', header: () => bearer('eyJ!!!.eyJ???.sig') },
  { name: 'header not JSON', header: (ctx) => bearer(`bm90IGpzb24.${ctx.token.split('.').slice(1).join('.')}`) },
  { name: 'very long token', header: () => bearer(`${'a'.repeat(8000)}.${'b'.repeat(8000)}.${'c'.repeat(100)}`) },
  { name: 'alg none, no signature', header: (ctx) => bearer(makeJwt({ alg: 'none', typ: 'JWT' }, claims(ctx), null)) },
  {
    name: 'alg none, genuine signature kept',
    header: (ctx) => {
      const forged = makeJwt({ alg: 'none', typ: 'JWT' }, claims(ctx), null);
      return bearer(`${forged}${ctx.token.split('.')[2]}`);
    },
  },
  {
    name: 'alg "None" (case trick)',
    header: (ctx) => bearer(makeJwt({ alg: 'None', typ: 'JWT' }, claims(ctx), null)),
  },
  {
    name: 'signed with another key',
    header: (ctx) => bearer(makeJwt({ alg: 'HS256', typ: 'JWT' }, claims(ctx), 'another-secret-entirely')),
  },
  {
    name: 'signed with an empty key',
    header: (ctx) => bearer(makeJwt({ alg: 'HS256', typ: 'JWT' }, claims(ctx), '')),
  },
  {
    name: 'algorithm switched to HS512 (same secret)',
    header: (ctx) => bearer(makeJwt({ alg: 'HS512', typ: 'JWT' }, claims(ctx), ctx.secret)),
  },
  {
    name: 'algorithm switched to HS384 (same secret)',
    header: (ctx) => bearer(makeJwt({ alg: 'HS384', typ: 'JWT' }, claims(ctx), ctx.secret)),
  },
  {
    name: 'RS256 header, HMAC-signed with a public key (key confusion)',
    header: (ctx) => {
      const head = `${Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url')}`;
      const forged = makeJwt({ alg: 'HS256', typ: 'JWT' }, claims(ctx), rsaPublicPem);
      return bearer(`${head}.${forged.split('.').slice(1).join('.')}`);
    },
  },
  {
    name: 'RS256, really signed with an attacker RSA key',
    header: (ctx) => {
      const head = `${Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url')}.${Buffer.from(
        JSON.stringify(claims(ctx)),
      ).toString('base64url')}`;
      return bearer(`${head}.${rsaSign('sha256', Buffer.from(head), rsa.privateKey).toString('base64url')}`);
    },
  },
  {
    name: 'payload tampered (sub of another user), signature kept',
    header: (ctx) => {
      const [head, , sig] = ctx.token.split('.');
      const payload = { ...jwtPayload(ctx.token), sub: ctx.otherUserId };
      return bearer(`${head}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`);
    },
  },
  {
    name: 'payload tampered (exp pushed back), signature kept',
    header: (ctx) => {
      const [head, , sig] = ctx.token.split('.');
      const payload = { ...jwtPayload(ctx.token), exp: ctx.nowSeconds + 10 * 365 * 86400 };
      return bearer(`${head}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`);
    },
  },
  {
    name: 'signature stripped',
    header: (ctx) => bearer(`${ctx.token.split('.').slice(0, 2).join('.')}.`),
  },
  {
    name: 'expired (right key)',
    header: (ctx) =>
      bearer(
        makeJwt(
          { alg: 'HS256', typ: 'JWT' },
          { ...claims(ctx), iat: ctx.nowSeconds - 7200, exp: ctx.nowSeconds - 3600 },
          ctx.secret,
        ),
      ),
  },
  {
    name: 'no exp (right key)',
    header: (ctx) => {
      const { exp: _exp, ...rest } = claims(ctx);
      return bearer(makeJwt({ alg: 'HS256', typ: 'JWT' }, rest, ctx.secret));
    },
  },
  {
    name: 'exp not a number (right key)',
    header: (ctx) => bearer(makeJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims(ctx), exp: 'never' }, ctx.secret)),
  },
  {
    name: 'no sub (right key)',
    header: (ctx) => {
      const { sub: _sub, ...rest } = claims(ctx);
      return bearer(makeJwt({ alg: 'HS256', typ: 'JWT' }, rest, ctx.secret));
    },
  },
  {
    name: 'not valid before a future nbf (right key)',
    header: (ctx) =>
      bearer(makeJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims(ctx), nbf: ctx.nowSeconds + 3600 }, ctx.secret)),
  },
];

/**
 * Cases that need a session revoked through the app's routes (password change, logout everywhere, deletion):
 * the sessions work adds them here; tokens.attack.test.ts runs every case in both lists.
 */
export const revokedTokenCases: TokenCase[] = [
  revoked('revoked by a password change', async (t, u) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/account/update_password',
      headers: { authorization: bearer(u.token) },
      payload: { current_password: u.password, new_password: 'a brand new secret' },
    }),
  ),
  revoked('revoked by logout', (t, u) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { authorization: bearer(u.token) } }),
  ),
  revoked('revoked by logout everywhere (another session of the user)', async (t, u) => {
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { username: u.username, password: u.password },
    });
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout_all',
      headers: { authorization: bearer(other.json<{ token: string }>().token) },
    });
  }),
  revoked('of a deleted account', (t, u) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/account/delete_account',
      headers: { authorization: bearer(u.token) },
      payload: { password: u.password },
    }),
  ),
];

/** A case whose token is a new user's, taken before `revoke` (which must answer 200) ended its session. */
function revoked(
  name: string,
  revoke: (
    t: TestApp,
    u: { token: string; username: string; password: string },
  ) => Promise<{ statusCode: number; body: string }>,
): TokenCase {
  return {
    name,
    async header({ t }) {
      const u = await t.user('revoked');
      const res = await revoke(t, u);
      if (res.statusCode !== 200) throw new Error(`${name}: the revocation answered ${res.statusCode} ${res.body}`);
      return bearer(u.token);
    },
  };
}

/**
 * Sends this Authorization header (none when undefined) to every protected route; returns the routes that did not
 * answer 401 with the sign-in envelope, as `METHOD /path: status body` lines (empty when all refused it).
 */
export async function routesAccepting(t: TestApp, routes: ApiRoute[], header: string | undefined): Promise<string[]> {
  const wrong: string[] = [];
  for (const route of routes.filter((r) => !r.public)) {
    const res = await t.app.inject({
      method: route.method,
      url: fillPath(route.url),
      headers: header === undefined ? {} : { authorization: header },
      // A plausible body, so that nothing but the token can be the reason for a refusal.
      ...(route.method === 'GET' ? {} : { payload: {} }),
    });
    const body = res.body;
    const envelope = res.statusCode === 401 && /"code":"UNAUTHORIZED"/.test(body) && /"success":false/.test(body);
    if (!envelope) wrong.push(`${route.key}: ${res.statusCode} ${body.slice(0, 200)}`);
  }
  return wrong;
}
