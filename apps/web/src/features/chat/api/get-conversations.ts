import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ConversationMessage, GetConversationsResponse } from '@pipsense/contract';
import { authRequest, unwrap } from '../../../lib/api';
import { chatKeys } from './chat-keys';

export const getConversations = (base: string, chatId: string, signal?: AbortSignal): Promise<ConversationMessage[]> =>
  unwrap(
    authRequest<GetConversationsResponse>(
      'GET',
      `${base}/api/v1/conversation/get_conversations/${encodeURIComponent(chatId)}`,
      undefined,
      signal,
    ),
  ).then((body) => body.conversations);

/** SPEC §8: a failed conversation fetch is only logged; the thread shows empty. */
export const conversationQuery = (base: string, chatId: string | null) =>
  queryOptions({
    queryKey: chatKeys.conversation(base, chatId ?? ''),
    queryFn: async ({ signal }) => {
      try {
        return await getConversations(base, chatId ?? '', signal);
      } catch (error) {
        if (!signal.aborted)
          console.error('Failed to load the conversation:', error instanceof Error ? error.message : error);
        throw error;
      }
    },
    enabled: chatId !== null,
  });

export const useConversation = (base: string, chatId: string | null) => useQuery(conversationQuery(base, chatId));
