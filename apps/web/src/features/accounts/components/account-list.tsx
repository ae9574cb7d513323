import type { AccountItem } from '@pipsense/contract';
import { SyncedList } from '../../../components/data/synced-list';
import { useAccounts } from '../api/accounts-api';
import { AccountsTable } from './accounts-table';

interface AccountListProps {
  base: string;
  page: number;
  onPageChange: (page: number) => void;
  onView: (account: AccountItem) => void;
}

/** One page of the synced accounts with its loading, empty, error and 'configure OANDA' states. */
export function AccountList({ base, page, onPageChange, onView }: AccountListProps) {
  return (
    <SyncedList
      list={useAccounts(base, page)}
      what="accounts"
      empty={{
        title: 'No accounts found',
        hint: 'Press Sync to fetch the accounts of your OANDA token with their balances.',
      }}
      page={page}
      onPageChange={onPageChange}
      table={(accounts, busy) => <AccountsTable accounts={accounts} busy={busy} onView={onView} />}
    />
  );
}
