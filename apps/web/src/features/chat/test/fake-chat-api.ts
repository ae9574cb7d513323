import { vi } from 'vitest';
import type { AiPlatformId, Chat, ChatTopic, ConversationMessage, GetInfoResponse } from '@pipsense/contract';
import { chatRecord, jsonResponse, messageRecord, sseEvent, sseResponse } from './chat-fixtures';

export interface RecordedCall {
  method: string;
  path: string;
  search: URLSearchParams;
  body: Record<string, unknown> | undefined;
  headers: Record<string, string>;
}

type QueryHandler = (body: Record<string, unknown>, kind: string) => Response | Promise<Response>;

/**
 * An in-memory stand-in for the PipSense API behind `fetch`, answering the chat screen's calls with contract-shaped
 * bodies: chats newest first, conversations per chat, and streamed answers that it stores as the server does.
 */
export function createFakeChatApi(
  seed: { chats?: Chat[]; conversations?: Record<string, ConversationMessage[]> } = {},
) {
  const state = {
    chats: [...(seed.chats ?? [])],
    conversations: { ...(seed.conversations ?? {}) } as Record<string, ConversationMessage[]>,
    platform: 'openai' as AiPlatformId,
    configured: { openai: true, vertexai: true },
    /** Paths (without query) whose next call answers HTTP 500. */
    failing: new Set<string>(),
  };
  const calls: RecordedCall[] = [];
  let nextId = 1;

  const store = (chatId: string, message: ConversationMessage) => {
    state.conversations[chatId] = [...(state.conversations[chatId] ?? []), message];
  };

  /** The default answer: stores both messages and streams the answer in two deltas. */
  let onQuery: QueryHandler = (body) => {
    const chatId = String(body.chatId);
    store(chatId, messageRecord(`u${nextId++}`, chatId, 'user', String(body.query)));
    const answer = messageRecord(`a${nextId++}`, chatId, 'assistant', `**Answer** to: ${String(body.query)}`);
    store(chatId, answer);
    return sseResponse([
      sseEvent('delta', { text: '**Answer** to: ' }),
      sseEvent('delta', { text: String(body.query) }),
      sseEvent('done', { success: true, message: 'Answered', data: answer }),
    ]);
  };

  const info = (): GetInfoResponse => ({
    success: true,
    message: 'Info',
    data: {
      default_ai_platfrom: state.platform,
      default_trading_platfrom: 'OANDA',
      oanda: { accessToken: '••••4f2a', accountId: '101-001-1234567-001', mode: 'demo' },
    },
    providers: {
      openai: { configured: state.configured.openai, detail: '' },
      vertexai: { configured: state.configured.vertexai, detail: '' },
    },
  });

  async function route(call: RecordedCall): Promise<Response> {
    const { method, path, search, body = {} } = call;
    if (state.failing.delete(path))
      return jsonResponse({ success: false, message: 'Server exploded.', code: 'INTERNAL', requestId: 'r1' }, 500);

    if (method === 'GET' && path === '/api/v1/account/get_info') return jsonResponse(info());
    if (method === 'GET' && path === '/api/v1/chat/get_chats') {
      const topic = search.get('topic') as ChatTopic;
      return jsonResponse({ success: true, message: 'Chats', data: state.chats.filter((c) => c.topic === topic) });
    }
    if (method === 'POST' && path === '/api/v1/chat/create_chat') {
      const chat = chatRecord(`new${nextId++}`, String(body.title), body.topic as ChatTopic);
      state.chats.unshift(chat);
      return jsonResponse({ success: true, message: 'Chat created', data: chat });
    }
    let m = /^\/api\/v1\/chat\/edit_chat\/(.+)$/.exec(path);
    if (method === 'POST' && m) {
      const chat = state.chats.find((c) => c._id === m?.[1]);
      if (!chat)
        return jsonResponse({ success: false, message: 'Chat not found.', code: 'NOT_FOUND', requestId: 'r' }, 404);
      chat.title = String(body.title);
      return jsonResponse({ success: true, message: 'Chat updated', data: chat });
    }
    m = /^\/api\/v1\/chat\/delete_chat\/(.+)$/.exec(path);
    if (method === 'GET' && m) {
      state.chats = state.chats.filter((c) => c._id !== m?.[1]);
      delete state.conversations[m[1] ?? ''];
      return jsonResponse({ success: true, message: 'Chat deleted' });
    }
    m = /^\/api\/v1\/conversation\/get_conversations\/(.+)$/.exec(path);
    if (method === 'GET' && m)
      return jsonResponse({
        success: true,
        message: 'Conversation',
        conversations: state.conversations[m[1] ?? ''] ?? [],
      });
    m = /^\/api\/v1\/query\/oanda\/(trade|account|candle)$/.exec(path);
    if (method === 'POST' && m) return onQuery(body, m[1] ?? '');
    return jsonResponse(
      { success: false, message: `No route ${method} ${path}`, code: 'NOT_FOUND', requestId: 'r' },
      404,
    );
  }

  const fetch = vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : input, 'http://localhost');
    const call: RecordedCall = {
      method: (init.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      search: url.searchParams,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined,
      headers: { ...(init.headers as Record<string, string> | undefined) },
    };
    calls.push(call);
    return route(call);
  });

  return {
    fetch,
    state,
    calls,
    /** Replace how query calls are answered. */
    onQuery(handler: QueryHandler) {
      onQuery = handler;
    },
    store,
    callsTo: (method: string, path: string | RegExp) =>
      calls.filter((c) => c.method === method && (typeof path === 'string' ? c.path === path : path.test(c.path))),
  };
}

export type FakeChatApi = ReturnType<typeof createFakeChatApi>;
