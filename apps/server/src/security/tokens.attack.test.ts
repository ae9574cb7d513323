import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRouteDocs } from '@pipsense/contract';
import { createTestApp, type TestApp } from '../test/harness';
import { loadSecrets } from '../lib/secrets';
import { jwtPayload, routeRecorder, type ApiRoute } from './attack-support';
import { forgedTokenCases, revokedTokenCases, routesAccepting, type TokenContext } from './token-cases';

/*
 * Every protected route, as the app registers it (a new route is in this list without touching the test), refuses
 * every bad token with 401 and the sign-in envelope.
 */

let t: TestApp;
let routes: ApiRoute[];
let ctx: TokenContext;

beforeAll(async () => {
  const recorder = routeRecorder();
  t = await createTestApp({}, { onRoute: recorder.onRoute });
  routes = recorder.routes();
  const [a, b] = [await t.user('victim'), await t.user('other')];
  ctx = {
    t,
    secret: loadSecrets(t.env).jwtSecret,
    token: a.token,
    otherUserId: String(jwtPayload(b.token).sub),
    nowSeconds: Math.floor(Date.now() / 1000),
  };
});
afterAll(() => t?.close());

describe('bad tokens on every protected route', () => {
  it('enumerates the routes from the app, each documented, most of them protected', () => {
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) expect(apiRouteDocs[route.key], `${route.key} in apiRouteDocs`).toBeDefined();
    expect(routes.filter((r) => !r.public).length).toBeGreaterThan(35);
  });

  it('lets the genuine token through (the control)', async () => {
    const me = await t.call(ctx.token, { method: 'GET', url: '/api/v1/auth/me' });
    expect(me.statusCode).toBe(200);
  });

  it.each([...forgedTokenCases, ...revokedTokenCases].map((c) => [c.name, c] as const))(
    '%s → 401 everywhere',
    async (_name, tokenCase) => {
      const header = await tokenCase.header(ctx);
      expect(await routesAccepting(t, routes, header)).toEqual([]);
    },
  );

  it('still refuses a forged token sent again (a cached verification is not reused)', async () => {
    const forged = forgedTokenCases.find((c) => c.name === 'signed with another key')!;
    const header = await forgedTokenCases[0]!.header(ctx);
    expect(header).toBeUndefined();
    for (let i = 0; i < 3; i++) expect(await routesAccepting(t, routes, await forged.header(ctx))).toEqual([]);
  });
});
