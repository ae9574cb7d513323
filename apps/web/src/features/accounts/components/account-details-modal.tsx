import type { AccountItem } from '@pipsense/contract';
import { DetailList } from '../../../components/data/detail-list';
import { DetailsModal } from '../../../components/data/details-modal';
import { accountDetails } from '../model/account-fields';
import { BalanceOperations } from './balance-operations';
import { MoneyLink } from './money-link';

interface AccountDetailsModalProps {
  visible: boolean;
  /** Kept while the modal fades out, so its content does not vanish mid-animation. */
  account: AccountItem | null;
  /** The trading service the balance operations come from. */
  base: string | null;
  onClose: () => void;
}

/**
 * docs/PRODUCT.md, Account list: 'Account Details', every field of the account except the internal id, user id and
 * version, with the way to its money page; for an imported (MetaTrader) account its balance operations below.
 */
export function AccountDetailsModal({ visible, account, base, onClose }: AccountDetailsModalProps) {
  return (
    <DetailsModal title="Account Details" visible={visible} onClose={onClose}>
      {account && (
        <>
          <div className="d-flex justify-content-end mb-2">
            <MoneyLink account={account} label="Money over time" />
          </div>
          <DetailList items={accountDetails(account)} />
          {account.platform === 'metatrader' && base !== null && (
            <BalanceOperations key={account.oandaAccountId} base={base} accountId={account.oandaAccountId} />
          )}
        </>
      )}
    </DetailsModal>
  );
}
