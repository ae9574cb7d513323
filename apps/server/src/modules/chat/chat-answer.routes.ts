import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cancelAnswerParams,
  candleQueryBody,
  queryResponse,
  tradeQueryBody,
  type ChatTopic,
  type ConversationMessage,
  type QueryResponse,
} from '@pipsense/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { userId } from '../../plugins/auth';
import type { ChatQuestion, ChatAnswerService } from './chat-answer.service';
import { openEventStream } from './sse';

const body = (data: ConversationMessage): QueryResponse => ({
  success: true,
  message: data.failed ? 'The question could not be answered.' : 'Answer ready.',
  data,
});

const wantsStream = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/event-stream');

/** Questions per user and minute: each may cost several paid model calls and OANDA requests. */
export const QUESTIONS_PER_MINUTE = 30;
const rateLimit = {
  max: QUESTIONS_PER_MINUTE,
  timeWindow: 60_000,
  keyGenerator: (request: FastifyRequest) => `question:${userId(request)}`,
  errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) => {
    const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
    return new AppError(
      429,
      'RATE_LIMITED',
      `You are asking very fast. Please wait ${seconds} seconds and try again.`,
      {
        'retry-after': String(seconds),
      },
    );
  },
};

/**
 * The query calls (docs/PRODUCT.md, HTTP calls). JSON by default; with `Accept: text/event-stream` the answer streams
 * as server-sent events (`start` with the stored question and answer, `delta` …, then `done` with the JSON body, or
 * `error`). The answer does not depend on the request: a client that goes away (a reload, a closed tab, a dropped
 * connection) only stops listening; the answer is finished and stored, and the conversation shows it meanwhile.
 */
export const chatAnswerRoutes: FastifyPluginAsyncZod<{ answers: ChatAnswerService }> = async (app, { answers }) => {
  app.addHook('onRequest', app.requireUser);

  async function respond(request: FastifyRequest, reply: FastifyReply, input: ChatQuestion) {
    if (!wantsStream(request)) return body(await answers.answer(input));

    // Unknown chat or wrong topic still answer as plain JSON errors, before the stream opens.
    await answers.check(input.userId, input.chatId, input.topic);
    reply.hijack();
    const stream = openEventStream(reply.raw, reply.getHeaders());
    try {
      const message = await answers.answer(input, {
        onStart: (stored) => stream.send('start', stored),
        onText: (text) => stream.send('delta', { text }),
      });
      stream.send('done', body(message));
    } catch (error) {
      request.log.error({ err: error }, 'streamed answer failed');
      const message =
        error instanceof AppError && error.status < 500
          ? error.message
          : 'Something went wrong on our side. Please try again.';
      stream.send('error', { message });
    } finally {
      stream.end();
    }
    return undefined;
  }

  const input = (
    request: FastifyRequest,
    topic: ChatTopic,
    fields: Omit<ChatQuestion, 'userId' | 'topic'>,
  ): ChatQuestion => ({
    userId: userId(request),
    topic,
    ...fields,
  });

  app.post(
    '/api/v1/query/oanda/trade',
    { schema: { body: tradeQueryBody, response: { 200: queryResponse } }, config: { rateLimit } },
    (request, reply) => respond(request, reply, input(request, 'trading', request.body)),
  );

  app.post(
    '/api/v1/query/oanda/account',
    { schema: { body: tradeQueryBody, response: { 200: queryResponse } }, config: { rateLimit } },
    (request, reply) => respond(request, reply, input(request, 'accounts', request.body)),
  );

  // The trader's Stop: ends the answer, keeping what was written so far.
  app.post(
    '/api/v1/query/cancel/:messageId',
    { schema: { params: cancelAnswerParams, response: { 200: queryResponse } } },
    async (request) => {
      const data = await answers.cancel(userId(request), request.params.messageId);
      return {
        success: true,
        message: data.status === 'cancelled' ? 'Answer stopped.' : 'The answer had already ended.',
        data,
      };
    },
  );

  app.post(
    '/api/v1/query/oanda/candle',
    { schema: { body: candleQueryBody, response: { 200: queryResponse } }, config: { rateLimit } },
    (request, reply) => respond(request, reply, input(request, 'candles', request.body)),
  );
};
