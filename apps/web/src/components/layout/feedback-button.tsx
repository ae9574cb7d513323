import { useState, type FormEvent } from 'react';
import {
  CButton,
  CForm,
  CFormTextarea,
  CModal,
  CModalBody,
  CModalFooter,
  CModalHeader,
  CModalTitle,
  CSpinner,
} from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilCommentBubble } from '@coreui/icons';
import { toast } from 'react-toastify';
import { FEEDBACK_MAX, type Envelope } from '@pipsense/contract';
import { config } from '../../config/env';
import { authRequest } from '../../lib/api';
import { useSubmit } from '../../lib/use-submit';

/** The in-app feedback button (header): a message to the team that runs this server. */
export function FeedbackButton() {
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const { busy, run } = useSubmit('Your feedback could not be sent.');
  const close = () => setOpen(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!message.trim()) {
      toast.error('Write a message first.');
      return;
    }
    await run(async () => {
      const result = await authRequest<Envelope>('POST', `${config.backend}/api/v1/support/feedback`, { message });
      toast.success(result.message);
      setMessage('');
      close();
    });
  }

  return (
    <>
      <CButton
        type="button"
        color="secondary"
        variant="ghost"
        className="d-flex align-items-center gap-2 me-2"
        onClick={() => setOpen(true)}
      >
        <CIcon icon={cilCommentBubble} />
        <span className="d-none d-sm-inline">Feedback</span>
      </CButton>
      <CModal visible={open} onClose={close} alignment="center" aria-labelledby="feedback-title">
        <CForm onSubmit={onSubmit} noValidate>
          <CModalHeader>
            <CModalTitle id="feedback-title">Send feedback</CModalTitle>
          </CModalHeader>
          <CModalBody>
            <CFormTextarea
              id="feedback-message"
              label="Your message"
              rows={6}
              maxLength={FEEDBACK_MAX}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              text="A problem, an idea, a question: it goes to the team that runs this server, who can reply by email."
            />
          </CModalBody>
          <CModalFooter>
            <CButton type="button" color="secondary" variant="outline" onClick={close}>
              Cancel
            </CButton>
            <CButton type="submit" color="primary" disabled={busy}>
              {busy && <CSpinner size="sm" className="me-2" aria-hidden="true" />}Send
            </CButton>
          </CModalFooter>
        </CForm>
      </CModal>
    </>
  );
}
