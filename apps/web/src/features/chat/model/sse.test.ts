import { describe, expect, it } from 'vitest';
import { createSseParser, readEventStream, type SseEvent } from './sse';

function parseAll(chunks: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createSseParser((e) => events.push(e));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return events;
}

describe('createSseParser', () => {
  it('reads named events with JSON data', () => {
    expect(parseAll(['event: delta\ndata: {"text":"Hel"}\n\nevent: done\ndata: {"success":true}\n\n'])).toEqual([
      { event: 'delta', data: '{"text":"Hel"}' },
      { event: 'done', data: '{"success":true}' },
    ]);
  });

  it('reassembles events split anywhere across chunks, CRLF included', () => {
    const stream = 'event: delta\r\ndata: {"text":"a b"}\r\n\r\nevent: error\r\ndata: {"message":"x"}\r\n\r\n';
    const whole = parseAll([stream]);
    for (let cut = 1; cut < stream.length; cut++) {
      expect(parseAll([stream.slice(0, cut), stream.slice(cut)])).toEqual(whole);
    }
    expect(parseAll(stream.split(''))).toEqual(whole);
    expect(whole).toHaveLength(2);
  });

  it('joins multi-line data, defaults the event name, ignores comments and unknown fields', () => {
    expect(parseAll([': keep-alive\n\nid: 7\nretry: 10\ndata: line 1\ndata:line 2\n\n'])).toEqual([
      { event: 'message', data: 'line 1\nline 2' },
    ]);
  });

  it('does not dispatch an event without data, nor one cut off by the end of the stream', () => {
    expect(parseAll(['event: ping\n\nevent: delta\ndata: {"text":"late"}'])).toEqual([]);
  });
});

describe('readEventStream', () => {
  it('decodes UTF-8 split between byte chunks', async () => {
    const bytes = new TextEncoder().encode('event: delta\ndata: {"text":"¥ 150.25 – ok"}\n\n');
    const split = bytes.indexOf(0xc2) + 1; // inside the two bytes of '¥'
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, split));
        controller.enqueue(bytes.slice(split));
        controller.close();
      },
    });
    const events: SseEvent[] = [];
    await readEventStream(body, (e) => events.push(e));
    expect(events).toEqual([{ event: 'delta', data: '{"text":"¥ 150.25 – ok"}' }]);
  });
});
