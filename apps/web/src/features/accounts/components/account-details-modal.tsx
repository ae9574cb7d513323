import { useId } from 'react';
import { CButton, CModal, CModalBody, CModalFooter, CModalHeader, CModalTitle } from '@coreui/react';
import type { AccountItem } from '@pipsense/contract';
import { DetailList } from '../../../components/data/detail-list';
import { accountDetails } from '../model/account-fields';

export interface AccountDetailsModalProps {
  visible: boolean;
  /** Kept while the modal fades out, so its content does not vanish mid-animation. */
  account: AccountItem | null;
  onClose: () => void;
}

/** SPEC §2: 'Account Details', every field of the account except the internal id, user id and version. */
export function AccountDetailsModal({ visible, account, onClose }: AccountDetailsModalProps) {
  const titleId = useId();
  return (
    <CModal
      visible={visible && account !== null}
      onClose={onClose}
      size="lg"
      fullscreen="sm"
      scrollable
      alignment="center"
      aria-labelledby={titleId}
    >
      <CModalHeader>
        <CModalTitle id={titleId}>Account Details</CModalTitle>
      </CModalHeader>
      {account && (
        <CModalBody>
          <DetailList items={accountDetails(account)} />
        </CModalBody>
      )}
      <CModalFooter>
        <CButton color="secondary" onClick={onClose}>
          Close
        </CButton>
      </CModalFooter>
    </CModal>
  );
}
