import { randomUUID } from 'node:crypto';
import type { Attachment, Chat, ChatTopic, ConversationMessage } from '@pipsense/contract';
import { notFound } from '../../lib/errors';
import type { ChatRepository } from './chat.repository';
import type { MessageRepository } from './message.repository';
import { strictlyAfter, toChat, toMessage } from './message-mapping';

export interface ChatServiceDeps {
  chats: ChatRepository;
  messages: MessageRepository;
  now: () => Date;
}

export const CHAT_NOT_FOUND = 'Chat not found.';

export interface NewMessage {
  role: 'user' | 'assistant';
  content: string;
  provider?: ConversationMessage['provider'];
  model?: string | null;
  attachments?: Attachment[];
  failed?: boolean;
}

/** Chats and their threads, every call scoped by the signed-in user. */
export function createChatService({ chats, messages, now }: ChatServiceDeps) {
  async function owned(userId: string, chatId: string) {
    const row = await chats.find(userId, chatId);
    if (!row) throw notFound(CHAT_NOT_FOUND);
    return row;
  }

  return {
    async list(userId: string, topic: ChatTopic): Promise<Chat[]> {
      return (await chats.list(userId, topic)).map(toChat);
    },

    async create(userId: string, title: string, topic: ChatTopic): Promise<Chat> {
      // Strictly increasing creation times keep "newest first" exact: the web app selects the first chat.
      const at = strictlyAfter(now(), await chats.latestCreatedAt(userId));
      const row = { id: randomUUID(), user_id: userId, title, topic, created_at: at, updated_at: at };
      await chats.insert(row);
      return toChat(row);
    },

    async rename(userId: string, chatId: string, title: string): Promise<Chat> {
      if (!(await chats.rename(userId, chatId, title, now().toISOString()))) throw notFound(CHAT_NOT_FOUND);
      return toChat(await owned(userId, chatId));
    },

    async remove(userId: string, chatId: string): Promise<void> {
      if (!(await chats.remove(userId, chatId))) throw notFound(CHAT_NOT_FOUND);
    },

    /** The user's chat, or a 404 'Chat not found.'. */
    async get(userId: string, chatId: string): Promise<Chat> {
      return toChat(await owned(userId, chatId));
    },

    /** The whole thread, oldest first. */
    async conversation(userId: string, chatId: string): Promise<ConversationMessage[]> {
      await owned(userId, chatId);
      return (await messages.list(userId, chatId)).map(toMessage);
    },

    /** The last `limit` messages, oldest first: the bounded context of an answer. */
    async recent(userId: string, chatId: string, limit: number): Promise<ConversationMessage[]> {
      return (await messages.recent(userId, chatId, limit)).map(toMessage);
    },

    /** Appends a message to the user's chat (the caller has checked ownership). */
    async append(userId: string, chatId: string, message: NewMessage): Promise<ConversationMessage> {
      const at = strictlyAfter(now(), await messages.latestCreatedAt(userId, chatId));
      const row = {
        id: randomUUID(),
        chat_id: chatId,
        user_id: userId,
        role: message.role,
        content: message.content,
        provider: message.provider ?? null,
        model: message.model ?? null,
        attachments: JSON.stringify(message.attachments ?? []),
        failed: message.failed ? 1 : 0,
        created_at: at,
      };
      await messages.insert(row);
      await chats.touch(userId, chatId, at);
      return toMessage(row);
    },
  };
}
export type ChatService = ReturnType<typeof createChatService>;
