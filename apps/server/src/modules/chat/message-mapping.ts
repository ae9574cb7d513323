import {
  ANSWER_STATUSES,
  type AnswerStatus,
  type Attachment,
  type Chat,
  type ChatTopic,
  type ConversationMessage,
} from '@pipsense/contract';
import type { ChatMessagesTable, ChatsTable } from '../../db/schema';

export const toChat = (row: ChatsTable): Chat => ({
  _id: row.id,
  title: row.title,
  topic: row.topic as ChatTopic,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

function parseAttachments(text: string): Attachment[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as Attachment[]) : [];
  } catch {
    return [];
  }
}

export const toMessage = (row: ChatMessagesTable): ConversationMessage => ({
  _id: row.id,
  chatId: row.chat_id,
  role: row.role === 'user' ? 'user' : 'assistant',
  content: row.content,
  createdAt: row.created_at,
  provider: (row.provider as ConversationMessage['provider']) ?? null,
  model: row.model,
  attachments: parseAttachments(row.attachments),
  failed: Number(row.failed) === 1,
  status: (ANSWER_STATUSES as readonly string[]).includes(row.status) ? (row.status as AnswerStatus) : 'complete',
});

/**
 * An instant strictly after `latest`: messages stored within one millisecond (or under a frozen clock)
 * still read back in the order they were written.
 */
export function strictlyAfter(now: Date, latest: string | undefined): string {
  const at = now.getTime();
  const floor = latest === undefined ? Number.NEGATIVE_INFINITY : Date.parse(latest) + 1;
  return new Date(Math.max(at, floor)).toISOString();
}
