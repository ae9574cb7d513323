import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Chat, ChatTopic, GetChatsResponse } from '@pipsense/contract';
import { authRequest, unwrap } from '../../../lib/api';
import { chatKeys } from './chat-keys';

export const getChats = (base: string, topic: ChatTopic, signal?: AbortSignal): Promise<Chat[]> =>
  unwrap(authRequest<GetChatsResponse>('GET', `${base}/api/v1/chat/get_chats`, { topic }, signal)).then(
    (body) => body.data,
  );

/** SPEC §8: a failed list fetch is only logged; the screen shows an empty list. */
export const chatsQuery = (base: string, topic: ChatTopic, enabled: boolean) =>
  queryOptions({
    queryKey: chatKeys.chats(base, topic),
    queryFn: async ({ signal }) => {
      try {
        return await getChats(base, topic, signal);
      } catch (error) {
        if (!signal.aborted) console.error('Failed to load chats:', error instanceof Error ? error.message : error);
        throw error;
      }
    },
    enabled,
  });

export const useChats = (base: string, topic: ChatTopic, enabled: boolean) =>
  useQuery(chatsQuery(base, topic, enabled));
