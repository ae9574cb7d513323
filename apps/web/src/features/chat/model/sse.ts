/** One server-sent event (WHATWG HTML §9.2 "event stream" format). */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * An incremental event-stream parser: feed it text in chunks of any size (a line or a CRLF may be split across
 * chunks) and it reports each complete event. Comments and unknown fields are ignored; an event without data is
 * not dispatched, as browsers do.
 */
export function createSseParser(onEvent: (event: SseEvent) => void) {
  let buffer = '';
  let eventType = '';
  let data: string[] = [];

  function dispatch() {
    if (data.length > 0) onEvent({ event: eventType || 'message', data: data.join('\n') });
    eventType = '';
    data = [];
  }

  function processLine(line: string) {
    if (line === '') return dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') eventType = value;
    else if (field === 'data') data.push(value);
  }

  return {
    push(chunk: string) {
      buffer += chunk;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const ch = buffer[i];
        if (ch !== '\n' && ch !== '\r') continue;
        // A CR at the very end may be the first half of a CRLF still in flight.
        if (ch === '\r' && i === buffer.length - 1) break;
        processLine(buffer.slice(start, i));
        if (ch === '\r' && buffer[i + 1] === '\n') i++;
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    /** The stream ended: a trailing event without its blank line is incomplete and dropped, per the standard. */
    end() {
      buffer = '';
      eventType = '';
      data = [];
    },
  };
}

/** Reads a response body as an event stream until it ends. */
export async function readEventStream(body: ReadableStream<Uint8Array>, onEvent: (event: SseEvent) => void) {
  const parser = createSseParser(onEvent);
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
  } finally {
    parser.end();
    reader.releaseLock();
  }
}
