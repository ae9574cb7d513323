import { useEffect } from 'react';
import type { AccountItem } from '@pipsense/contract';
import { PAGE_SIZE } from '@pipsense/contract';
import { ConfigureOandaState, EmptyState, FetchingOverlay, LoadErrorState } from '../../../components/data/data-states';
import { ListFooter } from '../../../components/data/list-card';
import { ListPagination } from '../../../components/data/list-pagination';
import { pageCount } from '../../../components/data/page-window';
import { useErrorToast } from '../../../components/data/use-error-toast';
import { isOandaNotConfigured, useOandaConnection } from '../../../components/data/use-oanda-connection';
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
  const list = useAccounts(base, page);
  const empty = list.data !== undefined && list.data.data.length === 0;
  const connection = useOandaConnection(empty);
  useErrorToast('accounts', list.error, list.errorUpdatedAt);
  const pages = pageCount(list.data?.pages);

  // A sync can shrink the list; a page past the end moves back to the last page.
  const pastEnd = list.data !== undefined && !list.isPlaceholderData && page > pages;
  useEffect(() => {
    if (pastEnd) onPageChange(pages);
  }, [pastEnd, pages, onPageChange]);

  if (list.isError) {
    if (isOandaNotConfigured(list.error)) return <ConfigureOandaState message={list.error.message} />;
    return <LoadErrorState what="accounts" message={list.error.message} onRetry={() => void list.refetch()} />;
  }
  // An empty list waits for the connection check (placeholder rows) so it does not flash 'No … found' first.
  if (empty && !connection.isPending) {
    if (connection.data === false) return <ConfigureOandaState />;
    return (
      <EmptyState
        title="No accounts found"
        hint="Press Sync to fetch the accounts of your OANDA token with their balances."
      />
    );
  }

  const accounts = empty ? null : (list.data?.data ?? null);
  const busy = list.isFetching;
  return (
    <>
      <div className="position-relative">
        <AccountsTable accounts={accounts} busy={busy} onView={onView} />
        {busy && accounts !== null && <FetchingOverlay label="Loading accounts" />}
      </div>
      {accounts === null ? (
        <span className="visually-hidden" role="status">
          Loading accounts
        </span>
      ) : (
        <ListFooter page={page} pageSize={PAGE_SIZE} shown={accounts.length} total={list.data?.total} what="accounts">
          <ListPagination page={page} pages={pages} onChange={onPageChange} label="Accounts pages" />
        </ListFooter>
      )}
    </>
  );
}
