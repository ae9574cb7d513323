import type { ConversationMessage } from '@pipsense/contract';

/**
 * How often a page follows an answer that is still being written on the server (docs/PRODUCT.md, Chat flow;
 * docs/decisions/015-chat-answers-outlive-the-page.md).
 */
export const FOLLOW_EVERY_MS = 1000;

/**
 * The answer of the thread still being written on the server, or null. A page opened (or reloaded) while an answer
 * streams shows its text so far and follows it until it is complete.
 */
export function answerBeingWritten(messages: readonly ConversationMessage[]): ConversationMessage | null {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i]!;
    if (m.role === 'assistant' && m.status === 'streaming') return m;
  }
  return null;
}

/** The conversation's polling interval: every FOLLOW_EVERY_MS while an answer is being written, otherwise none. */
export const followInterval = (messages: readonly ConversationMessage[] | undefined): number | false =>
  messages && answerBeingWritten(messages) ? FOLLOW_EVERY_MS : false;

/** The note under an answer the trader stopped (the text above it is what was written until then). */
export const STOPPED_NOTE = 'The answer was cancelled before it was complete.';

/** A note under the text of a stopped answer; none when the text is already the explanation. */
export const noteOf = (message: Pick<ConversationMessage, 'status' | 'failed'>): string | null =>
  message.status === 'cancelled' && !message.failed ? STOPPED_NOTE : null;

/**
 * The stored thread without the messages the page is showing itself while it streams them (the question and the
 * answer of the exchange in flight), so that a reload of the conversation mid-stream shows nothing twice.
 */
export function withoutInFlight(
  messages: readonly ConversationMessage[],
  inFlight: { questionId?: string | undefined; answerId?: string | undefined } | null,
): readonly ConversationMessage[] {
  if (!inFlight || (!inFlight.questionId && !inFlight.answerId)) return messages;
  return messages.filter((m) => m._id !== inFlight.questionId && m._id !== inFlight.answerId);
}
