import type { Attachment, Chat, ChatTopic, ConversationMessage } from '@pipsense/contract';

/** Contract-shaped records for the chat screen's tests. */
export function chatRecord(id: string, title: string, topic: ChatTopic = 'trading'): Chat {
  return { _id: id, title, topic, createdAt: '2025-05-01T10:00:00.000Z', updatedAt: '2025-05-01T10:00:00.000Z' };
}

export function messageRecord(
  id: string,
  chatId: string,
  role: 'user' | 'assistant',
  content: string,
  extra: Partial<ConversationMessage> = {},
): ConversationMessage {
  return {
    _id: id,
    chatId,
    role,
    content,
    createdAt: '2025-05-01T10:00:00.000Z',
    provider: role === 'assistant' ? 'openai' : null,
    model: role === 'assistant' ? 'gpt-4o' : null,
    attachments: [],
    failed: false,
    status: 'complete',
    ...extra,
  };
}

export const candlesAttachment: Attachment = {
  type: 'candles',
  instrument: 'EUR_USD',
  granularity: 'M5',
  candles: [
    {
      time: '2025-05-01T10:00:00.000000000Z',
      volume: 10,
      complete: true,
      mid: { o: '1.08000', h: '1.08100', l: '1.07950', c: '1.08050' },
    },
    {
      time: '2025-05-01T10:05:00.000000000Z',
      volume: 12,
      complete: true,
      mid: { o: '1.08050', h: '1.08120', l: '1.07990', c: '1.07990' },
    },
  ],
};

export const tradesAttachment: Attachment = {
  type: 'trades',
  title: 'Open trades',
  columns: [
    { key: 'id', label: 'Trade ID' },
    { key: 'instrument', label: 'Instrument' },
    { key: 'unrealizedPL', label: 'Unrealized P/L' },
    { key: 'openTime', label: 'Opened' },
  ],
  rows: [
    { id: '101', instrument: 'EUR_USD', unrealizedPL: '-12.5000', openTime: '2025-05-01T09:30:00.123456789Z' },
    { id: '102', instrument: 'USD_JPY', unrealizedPL: null, openTime: '2025-05-01T09:45:00.000000000Z' },
  ],
};

/** A `text/event-stream` response whose body arrives in the given chunks. */
export function sseResponse(chunks: string[], status = 200): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status, headers: { 'Content-Type': 'text/event-stream; charset=utf-8' } });
}

export const sseEvent = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
