import { useId } from 'react';
import { CButton, CModal, CModalBody, CModalFooter, CModalHeader, CModalTitle, CSpinner } from '@coreui/react';

interface DeleteChatModalProps {
  visible: boolean;
  title: string;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Deleting a chat also deletes its messages, so it is confirmed first. */
export function DeleteChatModal({ visible, title, pending, onConfirm, onClose }: DeleteChatModalProps) {
  const titleId = useId();
  return (
    <CModal visible={visible} onClose={onClose} alignment="center" aria-labelledby={titleId}>
      <CModalHeader>
        <CModalTitle id={titleId}>Delete chat?</CModalTitle>
      </CModalHeader>
      <CModalBody>
        Delete <strong className="text-break">{title}</strong> and all of its messages? This cannot be undone.
      </CModalBody>
      <CModalFooter>
        <CButton color="secondary" variant="outline" onClick={onClose} disabled={pending}>
          Cancel
        </CButton>
        <CButton color="danger" onClick={onConfirm} disabled={pending}>
          {pending && <CSpinner size="sm" className="me-2" aria-hidden="true" />}
          Delete
        </CButton>
      </CModalFooter>
    </CModal>
  );
}
