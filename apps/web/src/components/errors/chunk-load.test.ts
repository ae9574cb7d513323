import { afterEach, describe, expect, it, vi } from 'vitest';
import { addressInMessage, CHUNK_LOAD_TIMEOUT_MS, ChunkLoadError, chunkAddress, loadChunk } from './chunk-load';

const CHUNK_URL = 'http://localhost:3000/static/js/trades-page-a1b2c3.js';
const importFailure = () => new TypeError(`Failed to fetch dynamically imported module: ${CHUNK_URL}`);

/** The listing the build writes into index.html (vite.config.ts). */
function listChunks(files: Record<string, string>) {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = 'chunk-files';
  script.textContent = JSON.stringify(files);
  document.head.append(script);
}

afterEach(() => {
  document.getElementById('chunk-files')?.remove();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('loadChunk', () => {
  it('hands back the module when the chunk loads', async () => {
    await expect(loadChunk('trades-page', () => Promise.resolve({ ok: 1 }))).resolves.toEqual({ ok: 1 });
  });

  it("reports a chunk the server no longer has as 'missing', with the script address", async () => {
    const fetch = vi.fn().mockResolvedValue(new Response(null, { status: 404 }));
    vi.stubGlobal('fetch', fetch);
    const cause = importFailure();
    const error = await loadChunk('trades-page', () => Promise.reject(cause)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(error).toMatchObject({
      name: 'ChunkLoadError',
      chunkId: 'trades-page',
      type: 'missing',
      request: CHUNK_URL,
    });
    expect((error as Error).message).toBe(`Loading chunk trades-page failed.\n(missing: ${CHUNK_URL})`);
    expect((error as Error).cause).toBe(cause);
    expect(fetch).toHaveBeenCalledWith(CHUNK_URL, { method: 'HEAD', cache: 'no-store' });
  });

  it("reports a request that gets no answer as 'error'", async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const error = await loadChunk('trades-page', () => Promise.reject(importFailure())).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`Loading chunk trades-page failed.\n(error: ${CHUNK_URL})`);
  });

  it('takes the address from the build listing when the browser names none (a failed preload, Safari)', async () => {
    listChunks({ 'trades-page': 'static/js/trades-page-a1b2c3.js' });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(null, { status: 404 })));
    const error = await loadChunk('trades-page', () =>
      Promise.reject(new TypeError('Importing a module script failed.')),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({
      type: 'missing',
      request: new URL('static/js/trades-page-a1b2c3.js', document.baseURI).href,
    });
  });

  it(`times out after ${CHUNK_LOAD_TIMEOUT_MS} ms with the chunk's address from the build listing`, async () => {
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    listChunks({ 'chat-page': 'static/js/chat-page-d4e5f6.js' });
    vi.useFakeTimers();
    let outcome: unknown = 'pending';
    loadChunk('chat-page', () => new Promise<never>(() => {})).catch((e: unknown) => (outcome = e));
    await vi.advanceTimersByTimeAsync(119_999);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    const address = new URL('static/js/chat-page-d4e5f6.js', document.baseURI).href;
    expect(outcome).toMatchObject({ type: 'timeout', request: address });
    expect((outcome as Error).message).toBe(`Loading chunk chat-page failed.\n(timeout: ${address})`);
  });

  it('ignores a load that settles after the time-out', async () => {
    vi.useFakeTimers();
    let finish!: (value: { late: true }) => void;
    const result = loadChunk('chat-page', () => new Promise<{ late: true }>((resolve) => (finish = resolve)), {
      timeoutMs: 10,
    }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    finish({ late: true });
    expect(await result).toMatchObject({ type: 'timeout', request: 'chat-page' });
  });
});

describe('chunkAddress', () => {
  it('resolves a listed chunk against the page and knows nothing without a listing', () => {
    expect(chunkAddress('faq-page')).toBeUndefined();
    listChunks({ 'faq-page': 'static/js/faq-page-x.js' });
    expect(chunkAddress('faq-page')).toBe(new URL('/static/js/faq-page-x.js', document.baseURI).href);
    expect(chunkAddress('other')).toBeUndefined();
  });
});

describe('addressInMessage', () => {
  it("finds the address in Chromium's and Firefox's import errors and in Vite's preload error", () => {
    expect(addressInMessage(importFailure())).toBe(CHUNK_URL);
    expect(addressInMessage(new TypeError(`error loading dynamically imported module: ${CHUNK_URL}`))).toBe(CHUNK_URL);
    const css = 'http://localhost:3000/static/media/chat-page-x1.css';
    expect(addressInMessage(new Error(`Unable to preload CSS for ${css}`))).toBe(css);
    expect(addressInMessage(new TypeError('Importing a module script failed.'))).toBeUndefined();
  });
});
