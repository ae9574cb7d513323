import { Link, useLocation, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import CIcon from '@coreui/icons-react';
import { cilArrowLeft } from '@coreui/icons';
import type { AccountItem } from '@pipsense/contract';
import { platformOfAccountId, platformScope } from '../../../components/data/platform-scope';
import { paths } from '../../../config/paths';
import { accountsOfPlatformQuery } from '../../../lib/accounts-query';
import { accountMoneyTitle } from '../model/account-money';
import { BalanceSection } from './balance-section';
import { CashFlowsSection } from './cash-flows-section';
import { ReturnsSection } from './returns-section';
import '../account-money.css';

/** What the Accounts screen hands the page with its link: the account as listed, so the title needs no request. */
export interface AccountMoneyLinkState {
  account: AccountItem;
}

/**
 * docs/PRODUCT.md, Account money: one account's returns, balance and equity over time, and deposits and withdrawals,
 * by the id the API knows it by (`/accounts/{accountId}/money`). The account itself (alias, currency) comes with the
 * link from the Accounts screen, or is looked up among the platform's accounts when the page is opened directly.
 */
export function AccountMoneyPage() {
  const accountId = useParams().accountId ?? '';
  const linked = (useLocation().state as Partial<AccountMoneyLinkState> | null)?.account;
  const scope = platformScope(platformOfAccountId(accountId));
  const base = scope.base ?? '';
  const fromLink = linked?.oandaAccountId === accountId ? linked : undefined;
  const lookup = useQuery({ ...accountsOfPlatformQuery(base, scope.params.platform), enabled: !fromLink });
  const account = fromLink ?? lookup.data?.data.find((a) => a.oandaAccountId === accountId);

  return (
    <div className="account-money">
      <Link to={paths.accounts} className="money-back">
        <CIcon icon={cilArrowLeft} aria-hidden="true" />
        Back to accounts
      </Link>
      <h2 className="h5 money-title">
        {/* Each part stays whole: a narrow screen wraps the title between them, never inside an id. */}
        {accountMoneyTitle(accountId, account).map((part, index) => (
          <span key={index}>
            {index > 0 && ' · '}
            <span className="text-nowrap">{part}</span>
          </span>
        ))}
      </h2>
      <div className="money-grid">
        <ReturnsSection base={base} accountId={accountId} />
        <BalanceSection base={base} accountId={accountId} />
      </div>
      <CashFlowsSection base={base} accountId={accountId} />
    </div>
  );
}
