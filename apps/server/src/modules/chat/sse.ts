import type { ServerResponse } from 'node:http';

/**
 * Server-sent events on a raw response: `event: <name>` then `data: <JSON>` and a blank line. JSON
 * never contains a raw newline, so each payload is one `data:` line.
 */
export function openEventStream(res: ServerResponse, headers: Record<string, unknown> = {}) {
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Proxies such as nginx would otherwise hold the deltas back.
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  return {
    send(event: string, data: unknown): void {
      if (res.writableEnded || res.destroyed) return;
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end(): void {
      if (!res.writableEnded) res.end();
    },
  };
}
