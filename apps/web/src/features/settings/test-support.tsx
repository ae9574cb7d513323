import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { ToastContainer } from 'react-toastify';
import type { GetInfoResponse, InfoRecord, ProvidersStatus } from '@pipsense/contract';
import { expect, vi } from 'vitest';

export interface Call {
  method: string;
  path: string;
  body: unknown;
}
type Reply = { status: number; body: unknown };
type Handler = (call: Call) => Reply;

/** A stand-in for the server behind `fetch`: contract-shaped replies per `METHOD path`, every call recorded. */
export function fakeServer(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input.toString(), 'http://localhost');
    const method = init?.method ?? 'GET';
    const call = {
      method,
      path: url.pathname,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    const handler = routes[`${method} ${url.pathname}`];
    const reply = handler
      ? handler(call)
      : { status: 404, body: { success: false, message: 'No such API route', code: 'NOT_FOUND', requestId: 'r' } };
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, posts: (path: string) => calls.filter((c) => c.method === 'POST' && c.path === path) };
}

export const providersFixture: ProvidersStatus = {
  openai: {
    configured: true,
    detail: 'Connected through api.openai.com: gpt-4o for trading, gpt-4o for accounts, gpt-3.5-turbo for candles.',
  },
  vertexai: {
    configured: false,
    detail: 'Not configured on this server (set VERTEX_API_KEY, or VERTEX_PROJECT with Google credentials).',
  },
};

export function infoBody(data: InfoRecord, providers = providersFixture): GetInfoResponse {
  return { success: true, message: 'Settings loaded.', data, providers };
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const failure = (status: number, message: string): Reply => ({
  status,
  body: { success: false, message, code: 'X', requestId: 'req-1' },
});

/** The info server: get_info answers the stored record, update_info stores what it is sent. */
export function infoServer(initial: InfoRecord, overrides: Record<string, Handler> = {}) {
  let stored = initial;
  return fakeServer({
    'GET /api/v1/account/get_info': () => ok(infoBody(stored)),
    'POST /api/v1/account/update_info': (call) => {
      stored = call.body as InfoRecord;
      return ok({ ...infoBody(stored), message: 'Configuration updated successfully' });
    },
    ...overrides,
  });
}

export function renderWithQuery(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      {ui}
      <ToastContainer />
    </QueryClientProvider>,
  );
}

/** The modal traps focus once its opening transition ends; typing before then could land in another field. */
export async function findOpenDialog() {
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => {
    expect(dialog).toHaveClass('show');
    expect(dialog.contains(document.activeElement)).toBe(true);
  });
  return dialog;
}
