import {
  answerStartEvent,
  type AnswerStartEvent,
  queryResponse,
  type CandleQueryBody,
  type ChatTopic,
  type ConversationMessage,
  type TradeQueryBody,
} from '@pipsense/contract';
import { authFetch, httpError, networkError } from '../../../lib/api';
import { queryPath } from '../model/chat-options';
import { readEventStream } from '../model/sse';

export type QueryBody = TradeQueryBody | CandleQueryBody;

export type SendResult =
  | { ok: true; answer: ConversationMessage }
  | {
      ok: false;
      message: string;
      /** The server took the message (it answered the stream), so the reloaded thread tells what happened. */
      accepted: boolean;
    };

interface SendOptions {
  /** The server stored the question and started the answer (its id is what Stop needs). */
  onStart?: (stored: AnswerStartEvent) => void;
  /** Each piece of the answer as it is written. */
  onDelta: (text: string) => void;
  signal?: AbortSignal;
}

const messageOf = (value: unknown): string | null => {
  const message = (value as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' && message ? message : null;
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function answerFrom(body: unknown): SendResult {
  const parsed = queryResponse.safeParse(body);
  if (parsed.success && parsed.data.success) return { ok: true, answer: parsed.data.data };
  return { ok: false, accepted: true, message: messageOf(body) ?? 'The answer could not be read.' };
}

/**
 * POST {ai}/api/v1/query/oanda/{trade|account|candle}, asking for server-sent events so the answer shows as it is
 * written (`start` {question, answer}, `delta` {text}, then `done` {the JSON body} or `error` {message}). A server
 * that answers with plain JSON is read the same way. Never throws except when aborted. Aborting only stops
 * listening: the server finishes and stores the answer anyway.
 */
export async function sendQuery(
  base: string,
  topic: ChatTopic,
  body: QueryBody,
  options: SendOptions,
): Promise<SendResult> {
  let response: Response;
  try {
    response = await authFetch(`${base}/api/v1/query/oanda/${queryPath[topic]}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify(body),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    return { ok: false, accepted: false, message: networkError(error).message };
  }

  if (response.status !== 200) {
    const text = await response.text().catch(() => '');
    return { ok: false, accepted: false, message: httpError(response.status, parseJson(text)).message };
  }

  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('text/event-stream') || !response.body) return answerFrom(parseJson(await response.text()));

  // Set from inside the reader's callback; an object keeps TypeScript from narrowing it to its initial null.
  const outcome: { result: SendResult | null } = { result: null };
  try {
    await readEventStream(response.body, ({ event, data }) => {
      if (outcome.result) return;
      const payload = parseJson(data);
      if (event === 'start') {
        const started = answerStartEvent.safeParse(payload);
        if (started.success) options.onStart?.(started.data);
      } else if (event === 'delta') {
        const text = (payload as { text?: unknown } | undefined)?.text;
        if (typeof text === 'string') options.onDelta(text);
      } else if (event === 'done') {
        outcome.result = answerFrom(payload);
      } else if (event === 'error') {
        outcome.result = { ok: false, accepted: true, message: messageOf(payload) ?? 'The answer failed.' };
      }
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    return {
      ok: false,
      accepted: true,
      message: `The answer stream broke off: ${(error instanceof Error && error.message) || 'unknown error'}`,
    };
  }
  return (
    outcome.result ?? { ok: false, accepted: true, message: 'The answer stream ended before the answer was complete.' }
  );
}
