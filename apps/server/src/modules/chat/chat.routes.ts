import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  chatIdParams,
  chatResponse,
  createChatBody,
  editChatBody,
  envelope,
  getChatsQuery,
  getChatsResponse,
  getConversationsResponse,
} from '@pipsense/contract';
import { userId } from '../../plugins/auth';
import type { ChatService } from './chat.service';

/** The chat and conversation calls (docs/PRODUCT.md, HTTP calls); deletion is a GET, as the product has it. */
export const chatRoutes: FastifyPluginAsyncZod<{ chats: ChatService }> = async (app, { chats }) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/api/v1/chat/get_chats',
    { schema: { querystring: getChatsQuery, response: { 200: getChatsResponse } } },
    async (request) => ({
      success: true,
      message: 'Chats loaded.',
      data: await chats.list(userId(request), request.query.topic),
    }),
  );

  app.post(
    '/api/v1/chat/create_chat',
    { schema: { body: createChatBody, response: { 200: chatResponse } } },
    async (request) => ({
      success: true,
      message: 'Chat created successfully!',
      data: await chats.create(userId(request), request.body.title, request.body.topic),
    }),
  );

  app.post(
    '/api/v1/chat/edit_chat/:chatId',
    { schema: { params: chatIdParams, body: editChatBody, response: { 200: chatResponse } } },
    async (request) => ({
      success: true,
      message: 'Chat title updated.',
      data: await chats.rename(userId(request), request.params.chatId, request.body.title),
    }),
  );

  app.get(
    '/api/v1/chat/delete_chat/:chatId',
    { schema: { params: chatIdParams, response: { 200: envelope } } },
    async (request) => {
      await chats.remove(userId(request), request.params.chatId);
      return { success: true, message: 'Chat deleted.' };
    },
  );

  app.get(
    '/api/v1/conversation/get_conversations/:chatId',
    { schema: { params: chatIdParams, response: { 200: getConversationsResponse } } },
    async (request) => ({
      success: true,
      message: 'Conversation loaded.',
      conversations: await chats.conversation(userId(request), request.params.chatId),
    }),
  );
};
