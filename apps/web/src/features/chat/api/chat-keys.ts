import type { ChatTopic } from '@pipsense/contract';

/** Query keys include the AI host so that a changed default platform never reads another host's cache. */
export const chatKeys = {
  chats: (base: string, topic: ChatTopic) => ['chat', base, 'chats', topic] as const,
  allChats: (base: string) => ['chat', base, 'chats'] as const,
  conversation: (base: string, chatId: string) => ['chat', base, 'conversation', chatId] as const,
};
