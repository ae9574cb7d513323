import type { TradeRecord } from './trade-content';

/*
 * Trade records on their way to the SQLite writer thread (sqlite-trade-writer.ts) in bulk: JSON in transferred
 * buffers, built a slice at a time. Structured cloning 100,000 record objects in one postMessage held the event loop
 * for over half a second; a transferred buffer is moved, not copied. No imports beyond types: the thread loads this.
 */

/** Records per packed slice; a write of more records than this is packed (SqliteWriteRequest.packed). */
export const PACK_SLICE = 2000;

/** The records as JSON arrays of PACK_SLICE each, in buffers to transfer, the event loop getting a turn between. */
export async function pack(records: readonly TradeRecord[]): Promise<ArrayBuffer[]> {
  const encoder = new TextEncoder();
  const out: ArrayBuffer[] = [];
  for (let at = 0; at < records.length; at += PACK_SLICE) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    const bytes = encoder.encode(JSON.stringify(records.slice(at, at + PACK_SLICE)));
    // Its own buffer, exactly: only the bytes of this slice are moved to the thread.
    const own = bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength;
    out.push(own ? bytes.buffer : bytes.slice().buffer);
  }
  return out;
}

/** The records of a request, packed or not (in the thread). */
export function unpackRecords(m: { records: TradeRecord[]; packed?: ArrayBuffer[] | undefined }): TradeRecord[] {
  if (!m.packed) return m.records;
  const decoder = new TextDecoder();
  return m.packed.flatMap((buffer) => JSON.parse(decoder.decode(buffer)) as TradeRecord[]);
}
