import { Link } from 'react-router';
import { CButton } from '@coreui/react';
import type { AccountItem } from '@pipsense/contract';
import { accountMoneyPath } from '../../../config/paths';
import type { AccountMoneyLinkState } from './account-money-page';

/**
 * docs/PRODUCT.md, Account money: the way to an account's money page from the Accounts table ('Money') and from its
 * details ('Money over time'). The account goes with the link, so the page is titled at once.
 */
export function MoneyLink({ account, label = 'Money' }: { account: AccountItem; label?: string }) {
  const state: AccountMoneyLinkState = { account };
  return (
    <CButton
      as={Link}
      to={accountMoneyPath(account.oandaAccountId)}
      state={state}
      size="sm"
      color="primary"
      variant="ghost"
      className="text-nowrap"
    >
      {label}
    </CButton>
  );
}
