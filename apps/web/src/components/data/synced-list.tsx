import { useEffect, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { PAGE_SIZE } from '@pipsense/contract';
import { ConfigureOandaState, EmptyState, FetchingOverlay, LoadErrorState } from './data-states';
import { ListFooter } from './list-card';
import { ListPagination } from './list-pagination';
import { pageCount } from './page-window';
import { useErrorToast } from './use-error-toast';
import { isOandaNotConfigured, useOandaConnection } from './use-oanda-connection';

interface SyncedListProps<T> {
  /** One page of the list, as `usePagedList` answers it. */
  list: UseQueryResult<{ data: T[]; pages: number; total?: number | undefined }>;
  /** Plural noun: 'trades'. */
  what: string;
  empty: { title: string; hint: string };
  page: number;
  onPageChange: (page: number) => void;
  /** The table: `rows` null while nothing is there to show (placeholder rows). */
  table: (rows: T[] | null, busy: boolean) => ReactNode;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** One page of a synced list with its loading, empty, error and 'configure OANDA' states. */
export function SyncedList<T>({ list, what, empty: emptyText, page, onPageChange, table }: SyncedListProps<T>) {
  const empty = list.data !== undefined && list.data.data.length === 0;
  const connection = useOandaConnection(empty);
  useErrorToast(what, list.error, list.errorUpdatedAt);
  const pages = pageCount(list.data?.pages);

  // A sync can shrink the list; a page past the end moves back to the last page.
  const pastEnd = list.data !== undefined && !list.isPlaceholderData && page > pages;
  useEffect(() => {
    if (pastEnd) onPageChange(pages);
  }, [pastEnd, pages, onPageChange]);

  if (list.isError) {
    if (isOandaNotConfigured(list.error)) return <ConfigureOandaState message={list.error.message} />;
    return <LoadErrorState what={what} message={list.error.message} onRetry={() => void list.refetch()} />;
  }
  // An empty list waits for the connection check (placeholder rows) so it does not flash 'No … found' first.
  if (empty && !connection.isPending) {
    if (connection.data === false) return <ConfigureOandaState />;
    return <EmptyState title={emptyText.title} hint={emptyText.hint} />;
  }

  const rows = empty ? null : (list.data?.data ?? null);
  const busy = list.isFetching;
  return (
    <>
      <div className="position-relative">
        {table(rows, busy)}
        {busy && rows !== null && <FetchingOverlay label={`Loading ${what}`} />}
      </div>
      {rows === null ? (
        <span className="visually-hidden" role="status">
          Loading {what}
        </span>
      ) : (
        <ListFooter page={page} pageSize={PAGE_SIZE} shown={rows.length} total={list.data?.total} what={what}>
          <ListPagination page={page} pages={pages} onChange={onPageChange} label={`${capitalised(what)} pages`} />
        </ListFooter>
      )}
    </>
  );
}
