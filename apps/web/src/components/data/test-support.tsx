import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { getInfoResponse } from '@pipsense/contract';

/** Renders a screen as the app does: a fresh query cache, a router and the toast container. */
export function renderScreen(ui: ReactElement, path = '/') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
  return {
    client,
    ...render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
        <ToastContainer />
      </QueryClientProvider>,
    ),
  };
}

export interface StubResponse {
  status?: number;
  body: unknown;
}
type Handler = (url: URL, init: RequestInit | undefined) => StubResponse | Promise<StubResponse>;

/**
 * Stubs `fetch` with handlers by path. Every call is recorded with its URL and headers; a path without a handler
 * fails the test loudly rather than hanging.
 */
export function stubApi(handlers: Record<string, Handler>) {
  const calls: { url: URL; headers: Record<string, string> }[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input, 'http://localhost');
    calls.push({ url, headers: { ...(init?.headers as Record<string, string> | undefined) } });
    const handler = handlers[url.pathname];
    if (!handler) throw new Error(`No stub for ${url.pathname}`);
    const { status = 200, body } = await handler(url, init);
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchStub);
  return {
    calls,
    /** The calls made to one path, in order. */
    to: (path: string) => calls.filter((call) => call.url.pathname === path),
  };
}

/** The server's error envelope (ARCHITECTURE: `{ success: false, message, code, requestId }`). */
export const errorBody = (message: string, code: string) => ({ success: false, message, code, requestId: 'req-test' });

/** A promise the test settles itself, to hold a request in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export const GET_INFO = '/api/v1/account/get_info';

/** get_info's answer: a saved OANDA token comes back masked, an unsaved one empty. */
export const infoBody = (accessToken: string) =>
  getInfoResponse.parse({
    success: true,
    message: 'Info fetched',
    data: {
      default_ai_platfrom: 'openai',
      default_trading_platfrom: accessToken ? 'OANDA' : '',
      oanda: { accessToken, accountId: '', mode: 'demo' },
    },
    providers: { openai: { configured: true, detail: '' }, vertexai: { configured: false, detail: '' } },
  });
