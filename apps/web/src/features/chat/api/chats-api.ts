import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  Chat,
  ChatTopic,
  ConversationMessage,
  Envelope,
  GetChatsResponse,
  GetConversationsResponse,
  QueryResponse,
} from '@pipsense/contract';
import { toast } from 'react-toastify';
import { authRequest } from '../../../lib/api';
import { useInfo } from '../../../lib/info-query';
import { queryKeys } from '../../../lib/query-keys';
import { followInterval } from '../model/answer-status';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : error);

/**
 * get_info, read for the chat screen: the default platforms (breadcrumb, AI host) and whether the server can reach
 * the chosen provider (model label). A failure is logged; the screen keeps the spec's defaults (OpenAI, OANDA).
 */
export function useChatInfo() {
  const info = useInfo();
  const { error } = info;
  useEffect(() => {
    if (error) console.error('Failed to load the AI platform:', error.message);
  }, [error]);
  return info;
}

/** docs/PRODUCT.md, Messages: a failed list or conversation fetch is only logged; the screen shows it empty. */
async function logged<T>(what: string, signal: AbortSignal, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!signal.aborted) console.error(`Failed to load ${what}:`, messageOf(error));
    throw error;
  }
}

/** GET {ai}/api/v1/chat/get_chats?topic. */
export const useChats = (base: string, topic: ChatTopic, enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.chats.of(base, topic),
    queryFn: ({ signal }): Promise<Chat[]> =>
      logged('chats', signal, () =>
        authRequest<GetChatsResponse>('GET', `${base}/api/v1/chat/get_chats`, { topic }, signal).then((b) => b.data),
      ),
    enabled,
  });

/**
 * GET {ai}/api/v1/conversation/get_conversations/{chatId}. While an answer of the thread is still being written on
 * the server (a page reloaded or reopened mid-answer), it is read again every second until the answer has ended,
 * unless `follow` is off (this page is streaming that answer itself).
 */
export const useConversation = (base: string, chatId: string | null, follow = true) =>
  useQuery({
    queryKey: queryKeys.conversation(base, chatId ?? ''),
    queryFn: ({ signal }): Promise<ConversationMessage[]> =>
      logged('the conversation', signal, () =>
        authRequest<GetConversationsResponse>(
          'GET',
          `${base}/api/v1/conversation/get_conversations/${encodeURIComponent(chatId ?? '')}`,
          undefined,
          signal,
        ).then((b) => b.conversations),
      ),
    enabled: chatId !== null,
    refetchInterval: (query) => (follow ? followInterval(query.state.data) : false),
  });

/**
 * POST {ai}/api/v1/query/cancel/{messageId}: the trader's Stop. The server keeps the text written so far; the
 * conversation is then read again. A failure is only logged, as a failed send is (docs/PRODUCT.md, Messages), and Stop
 * stays offered.
 */
export function useStopAnswer(base: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId }: { chatId: string; messageId: string }) =>
      authRequest<QueryResponse>('POST', `${base}/api/v1/query/cancel/${encodeURIComponent(messageId)}`),
    onSuccess: (_body, { chatId }) => client.invalidateQueries({ queryKey: queryKeys.conversation(base, chatId) }),
    onError: (error) => console.error('Stop answer failed:', error.message),
  });
}

/**
 * A chat mutation with the spec's toasts (docs/PRODUCT.md, Messages): the success text, or the failure text with the
 * cause logged.
 */
function useChatMutation<V, R>(
  mutationFn: (variables: V) => Promise<R>,
  text: { done: string; failed: string; log: string },
  refresh: (client: QueryClient, variables: V) => Promise<void>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (_body, variables) => {
      toast.success(text.done);
      await refresh(client, variables);
    },
    onError: (error) => {
      console.error(`${text.log} failed:`, error.message);
      toast.error(text.failed);
    },
  });
}

/**
 * POST {ai}/api/v1/chat/create_chat. docs/PRODUCT.md, Chat flow: creating a chat reloads the list; the caller then
 * selects it.
 */
export const useCreateChat = (base: string) =>
  useChatMutation(
    ({ title, topic }: { title: string; topic: ChatTopic }) =>
      authRequest<Envelope & { data?: Chat }>('POST', `${base}/api/v1/chat/create_chat`, { title, topic }),
    { done: 'Chat created successfully!', failed: 'Failed to create chat.', log: 'Create chat' },
    (client, { topic }) => client.invalidateQueries({ queryKey: queryKeys.chats.of(base, topic) }),
  );

/** POST {ai}/api/v1/chat/edit_chat/{chatId}. */
export const useEditChat = (base: string) =>
  useChatMutation(
    ({ chatId, title }: { chatId: string; title: string }) =>
      authRequest<Envelope & { data?: Chat }>('POST', `${base}/api/v1/chat/edit_chat/${encodeURIComponent(chatId)}`, {
        title,
      }),
    { done: 'Chat title updated.', failed: 'Failed to update chat title.', log: 'Rename chat' },
    (client) => client.invalidateQueries({ queryKey: queryKeys.chats.all(base) }),
  );

/** GET {ai}/api/v1/chat/delete_chat/{chatId}: drops the chat and its thread from the cache at once, then reloads. */
export const useDeleteChat = (base: string) =>
  useChatMutation(
    (chat: Chat) => authRequest<Envelope>('GET', `${base}/api/v1/chat/delete_chat/${encodeURIComponent(chat._id)}`),
    { done: 'Chat deleted.', failed: 'Failed to delete chat.', log: 'Delete chat' },
    async (client, chat) => {
      const key = queryKeys.chats.of(base, chat.topic);
      client.setQueryData<Chat[]>(key, (list) => list?.filter((c) => c._id !== chat._id));
      client.removeQueries({ queryKey: queryKeys.conversation(base, chat._id) });
      await client.invalidateQueries({ queryKey: key });
    },
  );
