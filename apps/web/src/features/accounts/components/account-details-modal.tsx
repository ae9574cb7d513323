import type { AccountItem } from '@pipsense/contract';
import { DetailList } from '../../../components/data/detail-list';
import { DetailsModal } from '../../../components/data/details-modal';
import { accountDetails } from '../model/account-fields';

interface AccountDetailsModalProps {
  visible: boolean;
  /** Kept while the modal fades out, so its content does not vanish mid-animation. */
  account: AccountItem | null;
  onClose: () => void;
}

/**
 * docs/PRODUCT.md, Account list: 'Account Details', every field of the account except the internal id, user id and
 * version.
 */
export function AccountDetailsModal({ visible, account, onClose }: AccountDetailsModalProps) {
  return (
    <DetailsModal title="Account Details" visible={visible} onClose={onClose}>
      {account && <DetailList items={accountDetails(account)} />}
    </DetailsModal>
  );
}
