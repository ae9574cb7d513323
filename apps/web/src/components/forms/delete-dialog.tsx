import type { ReactNode } from 'react';
import { CAlert, CButton, CModal, CModalBody, CModalFooter, CModalHeader, CModalTitle, CSpinner } from '@coreui/react';
import { useId } from 'react';
import { failureMessage } from '../../lib/api';

interface DeleteDialogProps {
  title: string;
  /** What goes and what stays. */
  children: ReactNode;
  confirm: string;
  pending: boolean;
  error: Error | null;
  failure: string;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * The confirmation before something of the trader's is deleted (a tag, a rule set, a playbook, a missed trade): what
 * goes and what stays, then "This cannot be undone.", with the server's message when the deletion fails.
 */
export function DeleteDialog({
  title,
  children,
  confirm,
  pending,
  error,
  failure,
  onConfirm,
  onClose,
}: DeleteDialogProps) {
  const titleId = useId();
  return (
    <CModal visible onClose={onClose} alignment="center" aria-labelledby={titleId}>
      <CModalHeader>
        <CModalTitle id={titleId}>{title}</CModalTitle>
      </CModalHeader>
      <CModalBody>
        <p className="mb-0">{children} This cannot be undone.</p>
        {error && (
          <CAlert color="danger" className="mt-3 mb-0 py-2" role="alert">
            {failureMessage(error, failure)}
          </CAlert>
        )}
      </CModalBody>
      <CModalFooter>
        <CButton color="secondary" variant="outline" onClick={onClose}>
          Cancel
        </CButton>
        <CButton color="danger" onClick={onConfirm} disabled={pending}>
          {pending && <CSpinner size="sm" className="me-2" aria-hidden="true" />}
          {confirm}
        </CButton>
      </CModalFooter>
    </CModal>
  );
}
