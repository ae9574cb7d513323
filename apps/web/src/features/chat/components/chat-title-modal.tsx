import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import {
  CButton,
  CForm,
  CFormInput,
  CModal,
  CModalBody,
  CModalFooter,
  CModalHeader,
  CModalTitle,
  CSpinner,
} from '@coreui/react';
import { chatTitle } from '@pipsense/contract';

interface ChatTitleModalProps {
  visible: boolean;
  /** Create a chat, or rename the one whose title is given. */
  kind: 'create' | 'edit';
  initialTitle: string;
  pending: boolean;
  /** Why the server refused the last attempt. */
  serverError: string | null;
  onSubmit: (title: string) => void;
  onClose: () => void;
}

/**
 * docs/PRODUCT.md, AI chat: 'Start a New Chat' / 'Edit Chat Title', with the contract's title rule checked before
 * sending.
 */
export function ChatTitleModal({
  visible,
  kind,
  initialTitle,
  pending,
  serverError,
  onSubmit,
  onClose,
}: ChatTitleModalProps) {
  const titleId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const focusField = useRef(false);
  return (
    <CModal
      visible={visible}
      onClose={onClose}
      onShow={() => {
        focusField.current = true;
        inputRef.current?.focus();
      }}
      // Once the modal has entered, its focus trap focuses the dialog itself: hand that first focus to the field.
      onFocus={(event) => {
        if (focusField.current && event.target === event.currentTarget) {
          focusField.current = false;
          inputRef.current?.focus();
        }
      }}
      alignment="center"
      aria-labelledby={titleId}
    >
      <CModalHeader>
        <CModalTitle id={titleId}>{kind === 'create' ? 'Start a New Chat' : 'Edit Chat Title'}</CModalTitle>
      </CModalHeader>
      <TitleForm
        // A fresh form each time the modal opens for another purpose or chat.
        key={`${kind}:${initialTitle}`}
        kind={kind}
        initialTitle={initialTitle}
        pending={pending}
        serverError={serverError}
        inputRef={inputRef}
        onSubmit={onSubmit}
        onCancel={onClose}
      />
    </CModal>
  );
}

interface TitleFormProps {
  kind: 'create' | 'edit';
  initialTitle: string;
  pending: boolean;
  serverError: string | null;
  inputRef: RefObject<HTMLInputElement | null>;
  onSubmit: (title: string) => void;
  onCancel: () => void;
}

function TitleForm({ kind, initialTitle, pending, serverError, inputRef, onSubmit, onCancel }: TitleFormProps) {
  const [title, setTitle] = useState(initialTitle);
  const [problem, setProblem] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = chatTitle.safeParse(title);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Chat Title is required.');
      return;
    }
    setProblem(null);
    onSubmit(parsed.data);
  }

  const error = problem ?? serverError;
  return (
    <CForm onSubmit={submit} noValidate>
      <CModalBody>
        <CFormInput
          ref={inputRef}
          id="chat-title"
          label="Chat Title"
          placeholder="Enter chat title"
          autoComplete="off"
          value={title}
          invalid={error !== null}
          feedbackInvalid={error ?? undefined}
          onChange={(e) => {
            setTitle(e.target.value);
            setProblem(null);
          }}
        />
      </CModalBody>
      <CModalFooter>
        <CButton color="secondary" variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </CButton>
        <CButton type="submit" color="primary" disabled={pending}>
          {pending && <CSpinner size="sm" className="me-2" aria-hidden="true" />}
          {kind === 'create' ? 'Create' : 'Save'}
        </CButton>
      </CModalFooter>
    </CForm>
  );
}
