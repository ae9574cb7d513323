import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ChatTopic } from '@pipsense/contract';
import { queryKeys } from '../../../lib/query-keys';
import { sendQuery, type QueryBody, type SendResult } from './send-query';

export interface PendingExchange {
  chatId: string;
  query: string;
  /** The answer as streamed so far. */
  answer: string;
  /** Ids of the stored question and answer, once the server has started the answer. */
  questionId?: string;
  answerId?: string;
}

/**
 * Sends a message and streams its answer into `pending`; then (docs/PRODUCT.md, Chat flow) reloads the conversation,
 * and only once the reloaded thread holds the stored messages is `pending` cleared, so nothing flickers. A failure is
 * logged (docs/PRODUCT.md, Messages). Leaving the screen stops listening only: the server finishes the answer, and the
 * conversation shows it.
 */
export function useSendQuery(base: string) {
  const client = useQueryClient();
  const [pending, setPending] = useState<PendingExchange | null>(null);
  const inFlight = useRef<AbortController | null>(null);

  useEffect(() => () => inFlight.current?.abort(), []);

  const send = useCallback(
    async (topic: ChatTopic, body: QueryBody): Promise<SendResult | null> => {
      const controller = new AbortController();
      inFlight.current = controller;
      setPending({ chatId: body.chatId, query: body.query, answer: '' });
      try {
        const result = await sendQuery(base, topic, body, {
          signal: controller.signal,
          onStart: ({ question, answer }) =>
            setPending((p) => p && { ...p, questionId: question._id, answerId: answer._id }),
          onDelta: (text) => setPending((p) => p && { ...p, answer: p.answer + text }),
        });
        if (!result.ok) console.error('Message send failed:', result.message);
        await client.invalidateQueries({ queryKey: queryKeys.conversation(base, body.chatId) });
        return result;
      } catch (error) {
        // Aborted: the screen is gone, nobody is waiting for this answer.
        if (controller.signal.aborted) return null;
        console.error('Message send failed:', error);
        return { ok: false, accepted: false, message: error instanceof Error ? error.message : 'An error occurred' };
      } finally {
        if (inFlight.current === controller) inFlight.current = null;
        setPending(null);
      }
    },
    [base, client],
  );

  return { send, pending, sending: pending !== null };
}
