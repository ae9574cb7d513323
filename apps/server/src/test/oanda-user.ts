import type { AiPlatformId, InfoRecord, Mode } from '@pipsense/contract';

/*
 * The one set-up of "a user with a connected OANDA account": the user's info record saved with OANDA credentials
 * (the simulator's token), then accounts and trades synced, through the public API as a user would.
 * Route tests and the benchmarks reach the API through app.inject (test/harness.ts, bench/support/bench-app.ts),
 * the end-to-end tests through the browser's request context (e2e/support.ts): each hands these functions an
 * ApiCall for one signed-in user. The simulator itself is @pipsense/oanda-sim's (startOandaSim, or its CLI).
 */

/** One request to the API as a signed-in user; resolves to the status and the body text. */
export type ApiCall = (request: {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}) => Promise<{ status: number; text: string }>;

export interface OandaUserOptions {
  /** The default AI platform; openai unless told. */
  ai?: AiPlatformId | undefined;
  /** The OANDA connection to save (account '' = every account the token sees; demo mode unless told); null: none. */
  oanda: { accessToken: string; accountId?: string | undefined; mode?: Mode | undefined } | null;
}

/** What a sync covers: accounts, then trades ('all'), or accounts alone. */
export type SyncScope = 'all' | 'accounts';

/** The info record (POST /api/v1/account/update_info) for these options. */
export function oandaInfoRecord({ ai = 'openai', oanda }: OandaUserOptions): InfoRecord {
  return {
    default_ai_platfrom: ai,
    default_trading_platfrom: oanda ? 'OANDA' : '',
    oanda: oanda
      ? { accessToken: oanda.accessToken, accountId: oanda.accountId ?? '', mode: oanda.mode ?? 'demo' }
      : { accessToken: '', accountId: '', mode: '' },
  };
}

async function expectOk(call: ApiCall, method: 'GET' | 'POST', path: string, body?: unknown): Promise<string> {
  const res = await call({ method, path, ...(body === undefined ? {} : { body }) });
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
  return res.text;
}

/** Saves the user's info record with these options. */
export async function saveOanda(call: ApiCall, options: OandaUserOptions): Promise<void> {
  await expectOk(call, 'POST', '/api/v1/account/update_info', oandaInfoRecord(options));
}

/** Syncs the user's OANDA accounts, then (scope 'all') their trades. */
export async function syncOanda(call: ApiCall, scope: SyncScope = 'all'): Promise<void> {
  await expectOk(call, 'GET', '/api/v1/account/sync_account');
  if (scope === 'all') await expectOk(call, 'GET', '/api/v1/trade/sync_trade');
}

/** Saves the info record, then syncs what `sync` says (everything unless told; nothing without OANDA). */
export async function connectOanda(
  call: ApiCall,
  options: OandaUserOptions & { sync?: SyncScope | 'none' | undefined },
): Promise<void> {
  await saveOanda(call, options);
  const sync = options.sync ?? 'all';
  if (options.oanda && sync !== 'none') await syncOanda(call, sync);
}

/** An ApiCall over real HTTP to a server at `url` (another process, or a listening instance), with a bearer token. */
export function httpApi(url: string, token?: string): ApiCall {
  return async ({ method, path, body }) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, text: await res.text() };
  };
}
