import type { AiPlatformId, Chat, ChatTopic, ConversationMessage, InfoRecord } from '@pipsense/contract';
import { failure, fakeApi, ok, type Reply, type Route } from '../../../test/fake-api';
import { GET_INFO, infoBody } from '../../../test/info-fixtures';
import { chatRecord, messageRecord, sseEvent, sseResponse } from './chat-fixtures';

type QueryHandler = (body: Record<string, unknown>, kind: string) => Reply | Promise<Reply>;

/**
 * The chat screen's server on the shared fake API, with contract-shaped bodies: chats newest first, conversations per
 * chat, and streamed answers that it stores as the server does.
 */
export function chatApi(seed: { chats?: Chat[]; conversations?: Record<string, ConversationMessage[]> } = {}) {
  const state = {
    chats: [...(seed.chats ?? [])],
    conversations: { ...(seed.conversations ?? {}) } as Record<string, ConversationMessage[]>,
    platform: 'openai' as AiPlatformId,
    /** The info record's default trading platform (the breadcrumb's 'Querying: …'). */
    tradingPlatform: 'OANDA' as InfoRecord['default_trading_platfrom'],
    configured: { openai: true, vertexai: true },
    /** Paths (without query) whose next call answers HTTP 500. */
    failing: new Set<string>(),
  };
  let nextId = 1;

  const store = (chatId: string, message: ConversationMessage) => {
    state.conversations[chatId] = [...(state.conversations[chatId] ?? []), message];
  };

  /** Changes a stored message (an answer the server is still writing, stopped, or finished). */
  const update = (chatId: string, id: string, patch: Partial<ConversationMessage>) => {
    state.conversations[chatId] = (state.conversations[chatId] ?? []).map((m) =>
      m._id === id ? { ...m, ...patch } : m,
    );
  };

  /** The default answer: stores both messages and streams the answer in two deltas. */
  let onQuery: QueryHandler = (body) => {
    const chatId = String(body.chatId);
    const question = messageRecord(`u${nextId++}`, chatId, 'user', String(body.query));
    store(chatId, question);
    const answer = messageRecord(`a${nextId++}`, chatId, 'assistant', `**Answer** to: ${String(body.query)}`);
    store(chatId, answer);
    return sseResponse([
      sseEvent('start', { question, answer: { ...answer, content: '', status: 'streaming' } }),
      sseEvent('delta', { text: '**Answer** to: ' }),
      sseEvent('delta', { text: String(body.query) }),
      sseEvent('done', { success: true, message: 'Answered', data: answer }),
    ]);
  };

  const failable =
    (route: Route): Route =>
    (call) =>
      state.failing.delete(call.path) ? failure(500, 'Server exploded.', 'INTERNAL') : route(call);

  const api = fakeApi({
    [`GET ${GET_INFO}`]: failable(() =>
      ok(
        infoBody(
          {
            default_ai_platfrom: state.platform,
            default_trading_platfrom: state.tradingPlatform,
            oanda: { accessToken: '••••4f2a', accountId: '101-001-1234567-001', mode: 'demo' },
          },
          {
            openai: { configured: state.configured.openai, detail: '' },
            vertexai: { configured: state.configured.vertexai, detail: '' },
          },
        ),
      ),
    ),
    'GET /api/v1/chat/get_chats': failable(({ search }) => {
      const topic = search.get('topic') as ChatTopic;
      return ok({ success: true, message: 'Chats', data: state.chats.filter((c) => c.topic === topic) });
    }),
    'POST /api/v1/chat/create_chat': failable(({ body = {} }) => {
      const chat = chatRecord(`new${nextId++}`, String(body.title), body.topic as ChatTopic);
      state.chats.unshift(chat);
      return ok({ success: true, message: 'Chat created', data: chat });
    }),
    'POST /api/v1/chat/edit_chat/:id': failable(({ params, body = {} }) => {
      const chat = state.chats.find((c) => c._id === params.id);
      if (!chat) return failure(404, 'Chat not found.', 'NOT_FOUND');
      chat.title = String(body.title);
      return ok({ success: true, message: 'Chat updated', data: chat });
    }),
    'GET /api/v1/chat/delete_chat/:id': failable(({ params }) => {
      state.chats = state.chats.filter((c) => c._id !== params.id);
      delete state.conversations[params.id ?? ''];
      return ok({ success: true, message: 'Chat deleted' });
    }),
    'GET /api/v1/conversation/get_conversations/:id': failable(({ params }) =>
      ok({ success: true, message: 'Conversation', conversations: state.conversations[params.id ?? ''] ?? [] }),
    ),
    'POST /api/v1/query/oanda/:kind': failable(({ params, body = {} }) => onQuery(body, params.kind ?? '')),
    // The Stop: a streaming answer becomes cancelled, keeping its text.
    'POST /api/v1/query/cancel/:id': failable(({ params }) => {
      for (const [chatId, messages] of Object.entries(state.conversations)) {
        const found = messages.find((m) => m._id === params.id && m.role === 'assistant');
        if (!found) continue;
        if (found.status === 'streaming') update(chatId, found._id, { status: 'cancelled' });
        const data = state.conversations[chatId]!.find((m) => m._id === params.id)!;
        return ok({ success: true, message: 'Answer stopped.', data });
      }
      return failure(404, 'Message not found.', 'NOT_FOUND');
    }),
  });

  return {
    ...api,
    state,
    store,
    update,
    /** Replace how query calls are answered. */
    onQuery(handler: QueryHandler) {
      onQuery = handler;
    },
  };
}

export type ChatApi = ReturnType<typeof chatApi>;
