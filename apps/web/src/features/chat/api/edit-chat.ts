import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Chat, Envelope } from '@pipsense/contract';
import { toast } from 'react-toastify';
import { authRequest, unwrap } from '../../../lib/api';
import { chatKeys } from './chat-keys';

type ChatBody = Envelope & { data?: Chat };

export const editChat = (base: string, chatId: string, title: string) =>
  unwrap(authRequest<ChatBody>('POST', `${base}/api/v1/chat/edit_chat/${encodeURIComponent(chatId)}`, { title }));

export function useEditChat(base: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ chatId, title }: { chatId: string; title: string }) => editChat(base, chatId, title),
    onSuccess: async () => {
      toast.success('Chat title updated.');
      await client.invalidateQueries({ queryKey: chatKeys.allChats(base) });
    },
    onError: (error) => {
      console.error('Rename chat failed:', error.message);
      toast.error('Failed to update chat title.');
    },
  });
}
