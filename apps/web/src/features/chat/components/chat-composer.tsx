import { useLayoutEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { CButton, CFormTextarea, CSpinner } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilMediaStop, cilSend } from '@coreui/icons';

/** docs/PRODUCT.md, Constants: the textarea grows with its text up to this height, then scrolls. */
const MAX_INPUT_HEIGHT = 150;

interface ChatComposerProps {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  /** docs/PRODUCT.md, AI chat: the send button exists only once the topic has a chat. */
  showSend: boolean;
  sending: boolean;
  /** An answer of this chat is being written: Stop ends it, keeping the text written so far. */
  onStop?: (() => void) | undefined;
  stopping?: boolean;
  inputRef?: RefObject<HTMLTextAreaElement | null>;
}

export function ChatComposer({
  value,
  onChange,
  onSend,
  showSend,
  sending,
  onStop,
  stopping = false,
  inputRef,
}: ChatComposerProps) {
  const ownRef = useRef<HTMLTextAreaElement>(null);
  const ref = inputRef ?? ownRef;

  // Measured after every change of the text, typed or filled in from an example prompt.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.style.height = 'auto';
    const height = Math.min(element.scrollHeight, MAX_INPUT_HEIGHT);
    if (height > 0) element.style.height = `${height}px`;
    element.style.overflowY = element.scrollHeight > MAX_INPUT_HEIGHT ? 'auto' : 'hidden';
  }, [value, ref]);

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter while an input method composes a character confirms the character, it does not send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    onSend();
  }

  return (
    <div className="chat-composer">
      <CFormTextarea
        ref={ref}
        rows={1}
        placeholder="Ask AI"
        aria-label="Ask AI"
        className="chat-input"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
      />
      {onStop && (
        <CButton
          color="danger"
          variant="outline"
          shape="rounded-circle"
          className="chat-stop"
          aria-label="Stop the answer"
          title="Stop the answer (what is written so far is kept)"
          disabled={stopping}
          onClick={onStop}
        >
          <CIcon icon={cilMediaStop} aria-hidden="true" />
        </CButton>
      )}
      {showSend && (
        <CButton
          color="primary"
          shape="rounded-circle"
          className="chat-send"
          aria-label="Send message"
          title="Send (Enter)"
          disabled={sending}
          onClick={onSend}
        >
          {sending ? <CSpinner size="sm" aria-hidden="true" /> : <CIcon icon={cilSend} aria-hidden="true" />}
        </CButton>
      )}
    </div>
  );
}
