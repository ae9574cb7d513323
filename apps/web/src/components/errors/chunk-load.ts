/** docs/PRODUCT.md, Code chunks: a code chunk that has not loaded after this long has failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** Why a chunk did not load: the server answered without it, nothing came in time, or the request failed. */
export type ChunkFailureType = 'missing' | 'timeout' | 'error';

/**
 * docs/PRODUCT.md, Code chunks: a code chunk that could not be loaded. The message is 'Loading chunk {id} failed.' plus
 * the failure type and the script address, as `(missing: https://…/static/js/trades-page-a1b2c3.js)`.
 */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';

  constructor(
    readonly chunkId: string,
    readonly type: ChunkFailureType,
    /** The address of the script that failed. */
    readonly request: string,
    options?: ErrorOptions,
  ) {
    super(`Loading chunk ${chunkId} failed.\n(${type}: ${request})`, options);
  }
}

export const isChunkLoadError = (error: unknown): error is ChunkLoadError => error instanceof ChunkLoadError;

/** The id of the element in which the build lists each lazily loaded chunk's file (see vite.config.ts). */
const CHUNK_FILES_ELEMENT_ID = 'chunk-files';

/**
 * The address of a chunk as this page's build named it: the page keeps the build it was loaded with, so after a
 * deploy this is the file the tab asks for (and the server may no longer have). Undefined where the build lists
 * nothing (the dev server).
 */
export function chunkAddress(chunkId: string, doc: Document = document): string | undefined {
  const listing = doc.getElementById(CHUNK_FILES_ELEMENT_ID)?.textContent;
  if (!listing) return undefined;
  try {
    const file = (JSON.parse(listing) as Record<string, unknown>)[chunkId];
    return typeof file === 'string' ? new URL(file, doc.baseURI).href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The address a browser names in a failed dynamic import ('Failed to fetch dynamically imported module: …') or Vite
 * names in a failed preload ('Unable to preload CSS for …'), if it names one. Vite announces a failed preload with a
 * `vite:preloadError` event and, unless a listener prevents it, rethrows it from the import: nothing prevents it here,
 * so it reaches loadChunk and the screen's boundary like any other chunk failure (no silent reload loop).
 */
export function addressInMessage(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  return /\b(?:https?|file):\/\/[^\s'"()<>]+/.exec(message)?.[0];
}

/** 'missing' when the server answers the script's address with an error status, otherwise 'error'. */
async function failureType(address: string): Promise<ChunkFailureType> {
  try {
    const response = await fetch(address, { method: 'HEAD', cache: 'no-store' });
    return response.ok ? 'error' : 'missing';
  } catch {
    return 'error';
  }
}

export interface LoadChunkOptions {
  timeoutMs?: number;
  doc?: Document;
}

/**
 * Runs a dynamic import as a chunk load: a failure or no answer within CHUNK_LOAD_TIMEOUT_MS (dynamic import has no
 * time-out of its own) becomes a ChunkLoadError naming the chunk, the failure type and the script address.
 */
export function loadChunk<M>(chunkId: string, load: () => Promise<M>, options: LoadChunkOptions = {}): Promise<M> {
  const { timeoutMs = CHUNK_LOAD_TIMEOUT_MS, doc = document } = options;
  const known = () => chunkAddress(chunkId, doc);
  return new Promise<M>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      reject(new ChunkLoadError(chunkId, 'timeout', known() ?? chunkId));
    }, timeoutMs);
    load().then(
      (module) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(module);
      },
      async (cause: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const address = addressInMessage(cause) ?? known();
        const type = address ? await failureType(address) : 'error';
        reject(new ChunkLoadError(chunkId, type, address ?? chunkId, { cause }));
      },
    );
  });
}
