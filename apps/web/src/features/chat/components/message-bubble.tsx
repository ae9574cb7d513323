import CIcon from '@coreui/icons-react';
import { cilWarning } from '@coreui/icons';
import type { Attachment } from '@pipsense/contract';
import { stripMarkdown } from '../model/strip-markdown';
import { MessageAttachments } from './message-attachments';

interface MessageBubbleProps {
  role: 'user' | 'assistant';
  content: string;
  /** The assistant explains a failure instead of answering. */
  failed?: boolean;
  /** Small print under the text: time, and who answered. */
  meta?: string | null;
  attachments?: readonly Attachment[];
  /** The answer is still being written. */
  streaming?: boolean;
  /** A line under the text, e.g. that the trader stopped the answer there. */
  note?: string | null;
}

/**
 * docs/PRODUCT.md, AI chat: the user's messages on the right, the assistant's on the left, markdown symbols removed.
 */
export function MessageBubble({
  role,
  content,
  failed = false,
  meta,
  attachments = [],
  streaming = false,
  note = null,
}: MessageBubbleProps) {
  const text = stripMarkdown(content);
  const classes = [
    'chat-message',
    role === 'user' ? 'chat-message-user' : 'chat-message-assistant',
    failed ? 'chat-message-failed' : '',
    attachments.length > 0 ? 'chat-message-wide' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={`chat-row ${role === 'user' ? 'justify-content-end' : 'justify-content-start'}`}>
      <div className={classes} aria-busy={streaming || undefined} data-role={role}>
        {failed && (
          <div className="chat-failed-title">
            <CIcon icon={cilWarning} size="sm" className="me-1" aria-hidden="true" />
            The assistant could not answer
          </div>
        )}
        {text && <div className="chat-text">{text}</div>}
        {note && <div className="chat-note small text-body-secondary fst-italic mt-1">{note}</div>}
        {streaming && (
          <span className="chat-typing" role="status" aria-label={text ? 'Writing the answer' : 'Thinking'}>
            <span />
            <span />
            <span />
          </span>
        )}
        <MessageAttachments attachments={attachments} />
        {meta && <div className="chat-meta">{meta}</div>}
      </div>
    </div>
  );
}
