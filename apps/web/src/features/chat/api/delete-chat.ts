import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Chat, Envelope } from '@pipsense/contract';
import { toast } from 'react-toastify';
import { authRequest, unwrap } from '../../../lib/api';
import { chatKeys } from './chat-keys';

export const deleteChat = (base: string, chatId: string) =>
  unwrap(authRequest<Envelope>('GET', `${base}/api/v1/chat/delete_chat/${encodeURIComponent(chatId)}`));

/** Deleting drops the chat and its thread from the cache at once, then reloads the list. */
export function useDeleteChat(base: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (chat: Chat) => deleteChat(base, chat._id),
    onSuccess: async (_body, chat) => {
      toast.success('Chat deleted.');
      client.setQueryData<Chat[]>(chatKeys.chats(base, chat.topic), (list) => list?.filter((c) => c._id !== chat._id));
      client.removeQueries({ queryKey: chatKeys.conversation(base, chat._id) });
      await client.invalidateQueries({ queryKey: chatKeys.chats(base, chat.topic) });
    },
    onError: (error) => {
      console.error('Delete chat failed:', error.message);
      toast.error('Failed to delete chat.');
    },
  });
}
