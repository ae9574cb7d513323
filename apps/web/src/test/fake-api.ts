import { vi } from 'vitest';

/** One request the app made, as the fake server saw it. */
export interface ApiCall {
  method: string;
  url: URL;
  path: string;
  search: URLSearchParams;
  headers: Record<string, string>;
  body: Record<string, unknown> | undefined;
  /** The values of a route's `:name` segments. */
  params: Record<string, string>;
  /** A multipart upload's fields (`authUpload`, sent through XMLHttpRequest). */
  form?: FormData;
}

/** A JSON answer (status 200 unless told), or a whole `Response` (a stream, say). */
export type Reply = { status?: number; body: unknown } | Response;
export type Route = (call: ApiCall) => Reply | Promise<Reply>;

/** The server's error envelope (ARCHITECTURE: `{ success: false, message, code, requestId }`). */
export const errorBody = (message: string, code = 'X') => ({ success: false, message, code, requestId: 'req-test' });
export const ok = (body: unknown): Reply => ({ status: 200, body });
export const failure = (status: number, message: string, code?: string): Reply => ({
  status,
  body: errorBody(message, code),
});
export const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A promise the test settles itself, to hold a request in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function matcher(key: string) {
  const [method, pattern] = key.includes(' ') ? (key.split(' ') as [string, string]) : [undefined, key];
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1));
      return '([^/]+)';
    })
    .join('/');
  const regex = new RegExp(`^${source}$`);
  return (call: ApiCall): Record<string, string> | null => {
    if (method && method !== call.method) return null;
    const m = regex.exec(call.path);
    return m ? Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(m[i + 1] ?? '')])) : null;
  };
}

/**
 * The web tests' stand-in for the PipSense services behind `fetch`. Routes are keyed `'METHOD /path'` or `'/path'`
 * (any method), where a `:name` segment matches one path segment; the first matching route answers. Every request is
 * recorded; one without a route answers 404 with the server's error envelope, so a test never hangs on it.
 */
export function fakeApi(routes: Record<string, Route> = {}) {
  const table = Object.entries(routes).map(([key, route]) => ({ key, match: matcher(key), route }));
  const calls: ApiCall[] = [];

  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : input.toString(), 'http://localhost');
    const call: ApiCall = {
      method: (init.method ?? 'GET').toUpperCase(),
      url,
      path: url.pathname,
      search: url.searchParams,
      headers: { ...(init.headers as Record<string, string> | undefined) },
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined,
      params: {},
    };
    calls.push(call);
    for (const { match, route } of table) {
      const params = match(call);
      if (!params) continue;
      call.params = params;
      const reply = await route(call);
      return reply instanceof Response ? reply : jsonResponse(reply.body, reply.status ?? 200);
    }
    return jsonResponse(errorBody(`No route ${call.method} ${call.path}`, 'NOT_FOUND'), 404);
  });
  vi.stubGlobal('fetch', fetch);

  // Uploads go through XMLHttpRequest (for their progress): the same routes answer them.
  let uploadGate: Promise<void> | null = null;
  const answer = async (call: ApiCall): Promise<Response> => {
    calls.push(call);
    for (const { match, route } of table) {
      const params = match(call);
      if (!params) continue;
      call.params = params;
      const reply = await route(call);
      return reply instanceof Response ? reply : jsonResponse(reply.body, reply.status ?? 200);
    }
    return jsonResponse(errorBody(`No route ${call.method} ${call.path}`, 'NOT_FOUND'), 404);
  };
  class FakeUploadTarget {
    onprogress: ((event: ProgressEvent) => void) | null = null;
    onload: (() => void) | null = null;
  }
  class FakeXhr {
    readonly upload = new FakeUploadTarget();
    status = 0;
    responseText = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private method = 'GET';
    private target = '';
    private headers: Record<string, string> = {};
    private aborted = false;
    open(method: string, url: string) {
      this.method = method.toUpperCase();
      this.target = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    abort() {
      this.aborted = true;
      this.onabort?.();
    }
    send(body: unknown) {
      const form = body instanceof FormData ? body : undefined;
      let total = 0;
      form?.forEach((value) => (total += typeof value === 'string' ? value.length : value.size));
      const progress = (loaded: number) =>
        this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
      const url = new URL(this.target, 'http://localhost');
      const call: ApiCall = {
        method: this.method,
        url,
        path: url.pathname,
        search: url.searchParams,
        headers: { ...this.headers },
        body: undefined,
        params: {},
        ...(form ? { form } : {}),
      };
      void (async () => {
        await Promise.resolve();
        progress(Math.floor(total / 2));
        if (uploadGate) await uploadGate;
        if (this.aborted) return;
        progress(total);
        this.upload.onload?.();
        const response = await answer(call);
        if (this.aborted) return;
        this.status = response.status;
        this.responseText = await response.text();
        this.onload?.();
      })();
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);

  return {
    /**
     * Holds every upload at half its bytes sent until the returned function is called (to see the progress bar and
     * the disabled button); the request reaches the routes only after.
     */
    holdUploads() {
      const gate = deferred<void>();
      uploadGate = gate.promise;
      return () => {
        uploadGate = null;
        gate.resolve();
      };
    },
    calls,
    /** The calls to one path (or paths matching a pattern), of one method if given, in order. */
    to: (path: string | RegExp, method?: string) =>
      calls.filter(
        (c) => (!method || c.method === method) && (typeof path === 'string' ? c.path === path : path.test(c.path)),
      ),
    /** Adds a route, or replaces the one with the same key. */
    route(key: string, route: Route) {
      const entry = { key, match: matcher(key), route };
      const at = table.findIndex((r) => r.key === key);
      if (at === -1) table.unshift(entry);
      else table[at] = entry;
    },
  };
}
