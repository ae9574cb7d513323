import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Chat, ChatTopic, Envelope } from '@pipsense/contract';
import { toast } from 'react-toastify';
import { authRequest, unwrap } from '../../../lib/api';
import { chatKeys } from './chat-keys';

type ChatBody = Envelope & { data?: Chat };

export const createChat = (base: string, title: string, topic: ChatTopic) =>
  unwrap(authRequest<ChatBody>('POST', `${base}/api/v1/chat/create_chat`, { title, topic }));

/** SPEC §4: creating a chat reloads the list; the caller then selects the new chat. */
export function useCreateChat(base: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ title, topic }: { title: string; topic: ChatTopic }) => createChat(base, title, topic),
    onSuccess: async (_body, { topic }) => {
      toast.success('Chat created successfully!');
      await client.invalidateQueries({ queryKey: chatKeys.chats(base, topic) });
    },
    onError: (error) => {
      console.error('Create chat failed:', error.message);
      toast.error('Failed to create chat.');
    },
  });
}
