import { randomUUID } from 'node:crypto';
import type { AnswerStatus, Attachment, Chat, ChatTopic, ConversationMessage } from '@pipsense/contract';
import type { ChatMessagesTable } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { CANCELLED_MESSAGE, INTERRUPTED_MESSAGE, withNote } from './answer-failure';
import type { ChatRepository } from './chat.repository';
import type { MessageRepository } from './message.repository';
import { strictlyAfter, toChat, toMessage } from './message-mapping';

export interface ChatServiceDeps {
  chats: ChatRepository;
  messages: MessageRepository;
  now: () => Date;
  /**
   * Age after which an answer still marked streaming can no longer be running (every answer stops at its time
   * budget): its instance died, so it reads as failed with a note. Default: 45 s budget + 30 s.
   */
  staleAfterMs?: number;
}

const CHAT_NOT_FOUND = 'Chat not found.';
const MESSAGE_NOT_FOUND = 'Message not found.';
const DEFAULT_STALE_AFTER_MS = 75_000;

/** How an answer being written ends. */
export interface AnswerEnd {
  status: 'complete' | 'failed' | 'cancelled';
  content: string;
  /** The content explains why there is no answer (default: when the status is failed). */
  failed?: boolean;
  provider?: ConversationMessage['provider'];
  model?: string | null;
  attachments?: Attachment[];
}

export interface NewMessage {
  role: 'user' | 'assistant';
  content: string;
  provider?: ConversationMessage['provider'];
  model?: string | null;
  attachments?: Attachment[];
  failed?: boolean;
}

/** Chats and their threads, every call scoped by the signed-in user. */
export function createChatService({ chats, messages, now, staleAfterMs = DEFAULT_STALE_AFTER_MS }: ChatServiceDeps) {
  async function owned(userId: string, chatId: string) {
    const row = await chats.find(userId, chatId);
    if (!row) throw notFound(CHAT_NOT_FOUND);
    return row;
  }

  /** A message as stored, except an answer left streaming by an instance that died: failed, with a note. */
  function read(row: ChatMessagesTable): ConversationMessage {
    const message = toMessage(row);
    if (message.status !== 'streaming' || now().getTime() - Date.parse(row.created_at) <= staleAfterMs) return message;
    return { ...message, status: 'failed', failed: true, content: withNote(message.content, INTERRUPTED_MESSAGE) };
  }

  async function insert(userId: string, chatId: string, message: NewMessage, status: AnswerStatus) {
    const at = strictlyAfter(now(), await messages.latestCreatedAt(userId, chatId));
    const row: ChatMessagesTable = {
      id: randomUUID(),
      chat_id: chatId,
      user_id: userId,
      role: message.role,
      content: message.content,
      provider: message.provider ?? null,
      model: message.model ?? null,
      attachments: JSON.stringify(message.attachments ?? []),
      failed: status === 'failed' ? 1 : 0,
      status,
      created_at: at,
      updated_at: status === 'streaming' ? at : null,
    };
    await messages.insert(row);
    await chats.touch(userId, chatId, at);
    return row;
  }

  /** The stored message once its change is written (undefined when its chat was deleted meanwhile). */
  async function reread(userId: string, messageId: string): Promise<ConversationMessage | undefined> {
    const row = await messages.find(userId, messageId);
    return row && read(row);
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
      return (await messages.list(userId, chatId)).map(read);
    },

    /**
     * The last `limit` messages, oldest first: the bounded context of an answer. Answers still being written are
     * left out (they are not answers yet), and so are empty ones.
     */
    async recent(userId: string, chatId: string, limit: number): Promise<ConversationMessage[]> {
      return (await messages.recent(userId, chatId, limit))
        .map(read)
        .filter((m) => m.status !== 'streaming' && m.content.trim() !== '');
    },

    /** Appends a finished message to the user's chat (the caller has checked ownership). */
    async append(userId: string, chatId: string, message: NewMessage): Promise<ConversationMessage> {
      return toMessage(await insert(userId, chatId, message, message.failed ? 'failed' : 'complete'));
    },

    /** Stores the assistant's message as the answer starts: empty, status streaming. */
    async startAnswer(
      userId: string,
      chatId: string,
      who: Pick<NewMessage, 'provider' | 'model'>,
    ): Promise<ConversationMessage> {
      return toMessage(await insert(userId, chatId, { role: 'assistant', content: '', ...who }, 'streaming'));
    },

    /** Saves the text written so far; false when the answer is no longer streaming (stopped elsewhere, chat gone). */
    saveText: (messageId: string, content: string): Promise<boolean> =>
      messages.updateWhile(messageId, 'streaming', { content, updated_at: now().toISOString() }),

    /**
     * Writes how an answer ended, if it still has the status `from` (streaming; cancelled when the Stop came from
     * another instance and only the final text is left to save). Returns the stored message (undefined when its
     * chat was deleted meanwhile).
     */
    async endAnswer(
      userId: string,
      messageId: string,
      from: 'streaming' | 'cancelled',
      end: AnswerEnd,
    ): Promise<ConversationMessage | undefined> {
      await messages.updateWhile(messageId, from, {
        content: end.content,
        status: end.status,
        failed: (end.failed ?? end.status === 'failed') ? 1 : 0,
        ...(end.provider !== undefined ? { provider: end.provider } : {}),
        ...(end.model !== undefined ? { model: end.model } : {}),
        ...(end.attachments ? { attachments: JSON.stringify(end.attachments) } : {}),
        updated_at: now().toISOString(),
      });
      return reread(userId, messageId);
    },

    /** The user's message, or a 404 'Message not found.'. */
    async message(userId: string, messageId: string): Promise<ConversationMessage> {
      const found = await reread(userId, messageId);
      if (!found) throw notFound(MESSAGE_NOT_FOUND);
      return found;
    },

    /**
     * The trader's Stop, as the database sees it: a streaming answer becomes cancelled, keeping the text saved so
     * far (or saying it was cancelled when none was). An answer that has already ended is left as it is.
     */
    async cancel(userId: string, messageId: string): Promise<ConversationMessage> {
      const row = await messages.find(userId, messageId);
      if (!row || row.role !== 'assistant') throw notFound(MESSAGE_NOT_FOUND);
      if (row.status === 'streaming') {
        const kept = row.content.trim() !== '';
        await messages.updateWhile(messageId, 'streaming', {
          status: 'cancelled',
          content: kept ? row.content : CANCELLED_MESSAGE,
          failed: kept ? 0 : 1,
          updated_at: now().toISOString(),
        });
      }
      const found = await reread(userId, messageId);
      if (!found) throw notFound(MESSAGE_NOT_FOUND);
      return found;
    },
  };
}
export type ChatService = ReturnType<typeof createChatService>;
