// Bearer tokens: which are valid in which environment, and which accounts each may see.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, LIVE_TOKEN, startOandaSim, type OandaSim } from './index';
import { FIXED_NOW, fixture, get } from './test-support';

const RESTRICTED = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';

let practice: OandaSim;
let live: OandaSim;

beforeAll(async () => {
  practice = await startOandaSim({
    seed: 5,
    tradesPerAccount: 50,
    now: () => FIXED_NOW,
    tokens: { [DEMO_TOKEN]: 'all', [RESTRICTED]: [1] },
  });
  live = await startOandaSim({ seed: 5, tradesPerAccount: 50, now: () => FIXED_NOW, environment: 'live' });
});
afterAll(async () => {
  await practice.close();
  await live.close();
});

describe('tokens', () => {
  it('look like OANDA personal access tokens', () => {
    for (const token of [DEMO_TOKEN, LIVE_TOKEN]) expect(token).toMatch(/^[0-9a-f]{32}-[0-9a-f]{32}$/);
    expect(DEMO_TOKEN).not.toBe(LIVE_TOKEN);
    expect(practice.token).toBe(DEMO_TOKEN);
    expect(live.token).toBe(LIVE_TOKEN);
  });

  it.each([
    ['no Authorization header', null],
    ['an unknown token', 'not-a-token'],
    ['the live token on the practice host', LIVE_TOKEN],
  ])('answers 401 for %s', async (_label, token) => {
    const res = await get(practice, `/v3/accounts/${practice.accountIds[0]}/summary`, { token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(fixture('errors/401.insufficient-authorization.json'));
  });

  it('answers 401 for the practice token on the live host, and serves the live token', async () => {
    expect((await get(live, '/v3/accounts', { token: DEMO_TOKEN })).status).toBe(401);
    const ok = await get<{ accounts: { id: string }[] }>(live, '/v3/accounts');
    expect(ok.status).toBe(200);
    expect(ok.body.accounts.map((a) => a.id)).toEqual(live.accountIds);
    expect(live.accountIds.every((id) => id.startsWith('001-'))).toBe(true);
    expect(practice.accountIds.every((id) => id.startsWith('101-'))).toBe(true);
  });

  it('shows a restricted token only its accounts and forbids the others', async () => {
    const visible = await get<{ accounts: { id: string }[] }>(practice, '/v3/accounts', { token: RESTRICTED });
    expect(visible.body.accounts.map((a) => a.id)).toEqual([practice.accountIds[1]]);
    const allowed = await get(practice, `/v3/accounts/${practice.accountIds[1]}/summary`, { token: RESTRICTED });
    expect(allowed.status).toBe(200);
    const denied = await get(practice, `/v3/accounts/${practice.accountIds[0]}/trades`, { token: RESTRICTED });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(fixture('errors/403.forbidden.json'));
  });

  it('answers 403 for an account that does not exist', async () => {
    const res = await get(practice, '/v3/accounts/101-004-00000000-009/summary');
    expect(res.status).toBe(403);
  });

  it('still requires a token for candles', async () => {
    const res = await get(practice, '/v3/instruments/EUR_USD/candles?granularity=M5&count=2', { token: null });
    expect(res.status).toBe(401);
  });

  it('answers 404 for paths OANDA does not have and 405 for other methods', async () => {
    expect((await get(practice, '/v3/nothing-here')).status).toBe(404);
    expect((await get(practice, `/v3/accounts/${practice.accountIds[0]}/summary`, { method: 'POST' })).status).toBe(
      405,
    );
    expect((await get(practice, `/v3/accounts/${practice.accountIds[0]}/trades/12/close`)).status).toBe(405);
  });

  it('logs every request with its status', async () => {
    practice.requestLog.length = 0;
    await get(practice, `/v3/accounts/${practice.accountIds[0]}/trades?state=ALL&count=5`);
    expect(practice.requestLog).toEqual([
      {
        method: 'GET',
        path: `/v3/accounts/${practice.accountIds[0]}/trades`,
        query: { state: 'ALL', count: '5' },
        status: 200,
      },
    ]);
  });
});
