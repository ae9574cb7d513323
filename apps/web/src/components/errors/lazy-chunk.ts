import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { loadChunk } from './chunk-load';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component, whatever its props
type AnyComponent = ComponentType<any>;

/**
 * React.lazy for one export of a code chunk, loaded through loadChunk: a chunk that fails or times out throws a
 * ChunkLoadError to the nearest error boundary. `chunkId` is the chunk's name in the build (its file's base name).
 */
export function lazyChunk<M extends Record<K, AnyComponent>, K extends keyof M>(
  chunkId: string,
  load: () => Promise<M>,
  exportName: K,
): LazyExoticComponent<M[K]> {
  return lazy(() => loadChunk(chunkId, load).then((module) => ({ default: module[exportName] })));
}
