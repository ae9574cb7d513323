import type { IncomingMessage } from 'node:http';

export interface DrainLimits {
  /** Bytes read and dropped at most; past that the connection is closed (the client may then see a reset). */
  maxBytes: number;
  /** Milliseconds waited at most for the client to finish sending. */
  maxMs?: number;
}

/**
 * Reads the rest of a refused request and drops it, so that the answer (a 413, a 401…) reaches the client: a server
 * that closes the connection while the client is still sending makes the client's kernel see a reset, and most
 * clients then report the reset instead of the answer (SECURITY.md, Oversized bodies). Bounded: past `maxBytes` or
 * `maxMs` the connection is closed instead. Resolves once the request has ended or the connection is closed.
 */
export async function drainRequest(raw: IncomingMessage, { maxBytes, maxMs = 30_000 }: DrainLimits): Promise<void> {
  if (raw.readableEnded || raw.destroyed) return;
  const declared = Number(raw.headers['content-length'] ?? 0);
  if (declared === 0 && raw.headers['transfer-encoding'] === undefined) return;
  if (Number.isFinite(declared) && declared > maxBytes) return;
  raw.unpipe();
  let seen = 0;
  await new Promise<void>((resolve) => {
    const giveUp = () => {
      raw.socket.once('close', done);
      raw.socket.end();
    };
    const timer = setTimeout(giveUp, maxMs);
    const done = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) giveUp();
    };
    raw.on('data', onData);
    raw.once('end', done);
    raw.once('error', done);
    raw.once('close', done);
    raw.resume();
  });
}
