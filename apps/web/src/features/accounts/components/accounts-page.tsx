import { SyncedListScreen } from '../../../components/data/synced-list';
import { queryKeys } from '../../../lib/query-keys';
import { accountsQuery } from '../api/accounts-api';
import { AccountDetailsModal } from './account-details-modal';
import { AccountsTable } from './accounts-table';

/** docs/PRODUCT.md, Account list: the synced accounts of the chosen platform with their summaries, ten a page. */
export function AccountsPage() {
  return (
    <SyncedListScreen
      title="Accounts"
      listKey={queryKeys.accounts.all}
      listQuery={accountsQuery}
      // GET {trading host}/api/v1/account/sync_account: every account the token can see, with its summary.
      syncPath="/api/v1/account/sync_account"
      empty={{
        title: 'No accounts found',
        hint: 'Press Sync to fetch the accounts of your OANDA token with their balances.',
      }}
      table={(accounts, busy, onView) => <AccountsTable accounts={accounts} busy={busy} onView={onView} />}
      details={({ row, ...modal }) => <AccountDetailsModal account={row} {...modal} />}
    />
  );
}
