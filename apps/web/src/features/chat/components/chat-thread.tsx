import { useEffect, useRef } from 'react';
import { CButton, CSpinner } from '@coreui/react';
import type { ChatTopic, ConversationMessage } from '@pipsense/contract';
import { answeredBy } from '../model/answerer';
import { examplePrompts } from '../model/chat-options';
import { noteOf } from '../model/answer-status';
import type { PendingExchange } from '../api/use-send-query';
import { MessageBubble } from './message-bubble';

interface ChatThreadProps {
  topic: ChatTopic;
  messages: readonly ConversationMessage[];
  /** The message being sent and its answer so far, until the reloaded conversation holds both. */
  pending: PendingExchange | null;
  /** An answer of `messages` still being written on the server (this page follows it): its text may grow. */
  following?: boolean;
  loading: boolean;
  hasChat: boolean;
  onPickPrompt: (prompt: string) => void;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

function metaOf(message: ConversationMessage): string | null {
  const at = Date.parse(message.createdAt);
  const time = Number.isNaN(at) ? null : timeFormat.format(at);
  const who = message.role === 'assistant' ? answeredBy(message) : null;
  return [time, who].filter(Boolean).join(' · ') || null;
}

function scrollToEnd(element: HTMLElement | null) {
  if (element) element.scrollTop = element.scrollHeight;
}

export function ChatThread({
  topic,
  messages,
  pending,
  following = false,
  loading,
  hasChat,
  onPickPrompt,
}: ChatThreadProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  // Whether the reader is at the newest message; someone scrolled up to read stays where they are.
  const atBottom = useRef(true);
  const pendingQuery = pending?.query;
  // The answer growing: streamed by this page, or followed after a reload.
  const last = messages.at(-1);
  const pendingAnswer = pending ? pending.answer : last?.status === 'streaming' ? last.content : undefined;

  // A new thread, a reloaded one or a message just sent: show the newest message.
  useEffect(() => {
    scrollToEnd(scroller.current);
    atBottom.current = true;
  }, [messages, pendingQuery]);

  // The answer streaming in, and charts that take their height once loaded, follow only a reader at the bottom.
  useEffect(() => {
    if (atBottom.current) scrollToEnd(scroller.current);
  }, [pendingAnswer]);
  useEffect(() => {
    const element = content.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) scrollToEnd(scroller.current);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const onScroll = () => {
    const element = scroller.current;
    if (element) atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
  };

  const empty = messages.length === 0 && !pending;
  return (
    <div
      ref={scroller}
      className="chat-thread"
      role="log"
      aria-label="Conversation"
      aria-busy={pending !== null || following}
      onScroll={onScroll}
    >
      <div ref={content} className="chat-thread-content">
        {loading && empty ? (
          <div className="chat-empty text-body-secondary">
            <CSpinner size="sm" className="me-2" aria-hidden="true" /> Loading messages…
          </div>
        ) : empty ? (
          <div className="chat-empty">
            <p className="mb-3 text-body-secondary">No messages yet. Try one of these:</p>
            <div className="d-flex flex-column align-items-center gap-2">
              {examplePrompts[topic].map((prompt) => (
                <CButton
                  key={prompt}
                  color="primary"
                  variant="outline"
                  shape="rounded-pill"
                  size="sm"
                  className="chat-prompt"
                  onClick={() => onPickPrompt(prompt)}
                >
                  {prompt}
                </CButton>
              ))}
            </div>
            {!hasChat && <p className="small text-body-secondary mt-3 mb-0">Create a chat with + New to send it.</p>}
          </div>
        ) : (
          <>
            {messages.map((m) => (
              <MessageBubble
                key={m._id}
                role={m.role === 'user' ? 'user' : 'assistant'}
                content={m.content}
                failed={m.role !== 'user' && m.failed}
                attachments={m.attachments}
                meta={metaOf(m)}
                streaming={m.role === 'assistant' && m.status === 'streaming'}
                note={m.role === 'assistant' ? noteOf(m) : null}
              />
            ))}
            {pending && (
              <>
                <MessageBubble role="user" content={pending.query} />
                <MessageBubble role="assistant" content={pending.answer} streaming />
              </>
            )}
          </>
        )}
      </div>
    </div>
  );
}
