import { useId, type ReactNode } from 'react';
import { CButton, CModal, CModalBody, CModalFooter, CModalHeader, CModalTitle } from '@coreui/react';

interface DetailsModalProps {
  title: string;
  visible: boolean;
  onClose: () => void;
  /** The body; null while there is nothing to show (the modal stays closed). */
  children: ReactNode | null;
}

/** 'Trade Details' / 'Account Details': large, full screen on phones, scrollable, with a Close button. */
export function DetailsModal({ title, visible, onClose, children }: DetailsModalProps) {
  const titleId = useId();
  return (
    <CModal
      visible={visible && children !== null}
      onClose={onClose}
      size="lg"
      fullscreen="sm"
      scrollable
      alignment="center"
      aria-labelledby={titleId}
    >
      <CModalHeader>
        <CModalTitle id={titleId}>{title}</CModalTitle>
      </CModalHeader>
      {children !== null && <CModalBody>{children}</CModalBody>}
      <CModalFooter>
        <CButton color="secondary" onClick={onClose}>
          Close
        </CButton>
      </CModalFooter>
    </CModal>
  );
}
