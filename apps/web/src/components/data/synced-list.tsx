import { useEffect, useState, type ReactNode } from 'react';
import { CSpinner } from '@coreui/react';
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { PAGE_SIZE } from '@pipsense/contract';
import {
  ConfigureOandaState,
  EmptyState,
  FetchingOverlay,
  importedEmptyText,
  LoadErrorState,
  NotConnectedState,
} from './data-states';
import { ImportButton } from './import-button';
import { ListCard, ListFooter } from './list-card';
import { ListPagination } from './list-pagination';
import { PlatformDropdown } from './platform-dropdown';
import { SyncButton } from './sync-button';
import { SyncStatusLine } from './sync-status-line';
import { syncStatusQuery } from './sync-status-query';
import { pageCount } from './page-window';
import { useErrorToast } from './use-error-toast';
import type { PlatformParams, PlatformScope } from './platform-scope';
import { usePlatformPaging } from './use-platform-paging';
import { useSync } from './use-sync';
import { isOandaNotConfigured, useOandaConnection } from './use-oanda-connection';

interface Page {
  data: unknown[];
  pages: number;
  total?: number | undefined;
}

interface SyncedListProps<P extends Page> {
  /** The query of one page of the list (`pagedListQuery`). */
  query: UseQueryOptions<P, Error, P, QueryKey>;
  /** Plural noun: 'Trades'. */
  title: string;
  empty: { title: string; hint: string };
  /** The platform's data is imported: no OANDA connection to check, an Import button when empty. */
  imported: boolean;
  page: number;
  onPageChange: (page: number) => void;
  /** The table: `rows` null while nothing is there to show (placeholder rows). */
  table: (rows: P['data'] | null, busy: boolean) => ReactNode;
}

/** One page of a synced list with its loading, empty, error and 'configure OANDA' states. */
function SyncedList<P extends Page>({
  query,
  title,
  empty: emptyText,
  imported,
  page,
  onPageChange,
  table,
}: SyncedListProps<P>) {
  const list = useQuery(query);
  const what = title.toLowerCase();
  const empty = list.data !== undefined && list.data.data.length === 0;
  const connection = useOandaConnection(empty && !imported);
  useErrorToast(what, list.error, list.errorUpdatedAt);
  const pages = pageCount(list.data?.pages);

  // A sync can shrink the list; a page past the end moves back to the last page.
  const pastEnd = list.data !== undefined && !list.isPlaceholderData && page > pages;
  useEffect(() => {
    if (pastEnd) onPageChange(pages);
  }, [pastEnd, pages, onPageChange]);

  if (list.isError) {
    if (!imported && isOandaNotConfigured(list.error)) return <ConfigureOandaState message={list.error.message} />;
    return <LoadErrorState what={what} message={list.error.message} onRetry={() => void list.refetch()} />;
  }
  if (empty && imported) return <EmptyState title={emptyText.title} hint={emptyText.hint} action={<ImportButton />} />;
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
          <ListPagination page={page} pages={pages} onChange={onPageChange} label={`${title} pages`} />
        </ListFooter>
      )}
    </>
  );
}

interface SyncedListScreenProps<P extends Page> {
  /** The screen's noun: 'Trades' titles '{platform} Trades'; in lower case it names the rows elsewhere. */
  title: string;
  /** Every cached page of the list: cleared on a platform switch, refetched after a sync. */
  listKey: QueryKey;
  /** One page of the list on a platform's service, asked with the platform's `params` (`platform=metatrader`). */
  listQuery: (base: string, page: number, params: PlatformParams) => UseQueryOptions<P, Error, P, QueryKey>;
  /** The Sync call's path on the platform's service. */
  syncPath: string;
  /** What an empty list says on a synced platform (an imported one says 'No MetaTrader trades yet' by itself). */
  empty: { title: string; hint: string };
  /** Whether the list is narrowed by filters: then an imported platform's empty list says the synced `empty` too. */
  filtered?: boolean;
  table: (rows: P['data'] | null, busy: boolean, onView: (row: P['data'][number]) => void) => ReactNode;
  /** The details modal of the row last viewed. */
  details: (props: {
    row: P['data'][number] | null;
    visible: boolean;
    base: string | null;
    onClose: () => void;
  }) => ReactNode;
  /** More toolbar controls after Sync (an export button), given the platform's service and scope. */
  toolbar?: (base: string | null, scope: PlatformScope) => ReactNode;
  /** Shown between the header and the list (filters, a selection bar), given the platform's service. */
  above?: (base: string | null) => ReactNode;
  /** The list's filters: a change goes back to page 1. */
  filterKey?: string;
}

/**
 * docs/PRODUCT.md, Trade list and Account list: the synced list of the chosen platform, ten a page, with the platform
 * switch, a Sync button and a details modal. MetaTrader's list is imported, so it has an Import button instead of Sync.
 */
export function SyncedListScreen<P extends Page>(props: SyncedListScreenProps<P>) {
  const what = props.title.toLowerCase();
  const { platform, ready, base, scope, page, setPage, setPlatform } = usePlatformPaging(
    props.listKey,
    props.filterKey,
  );
  const empty = scope.imported && !props.filtered ? importedEmptyText(platform, what) : props.empty;
  const sync = useSync(base, props.syncPath, props.listKey);
  // A sync the server runs for this user (the background sync, another tab's Sync) holds the button as this tab's
  // own does; the status is polled every few seconds while it runs (sync-status-query.ts).
  const synced = ready && platform === 'OANDA' && base !== null;
  const status = useQuery({ ...syncStatusQuery, enabled: synced });
  const running = sync.isPending || (synced && Boolean(status.data?.running));
  const [selected, setSelected] = useState<P['data'][number] | null>(null);
  const [visible, setVisible] = useState(false);
  const view = (row: P['data'][number]) => {
    setSelected(row);
    setVisible(true);
  };

  // The platform is the trader's default once get_info has answered: until then a loading state, so that OANDA's
  // empty list never shows first to a MetaTrader trader.
  if (!ready) {
    return (
      <ListCard title={props.title} toolbar={null}>
        <div className="data-state text-center" role="status" aria-label={`Loading ${what}`}>
          <CSpinner color="primary" aria-hidden="true" />
        </div>
      </ListCard>
    );
  }

  return (
    <ListCard
      title={`${platform} ${props.title}`}
      toolbar={
        <>
          <PlatformDropdown value={platform} onChange={setPlatform} />
          {scope.imported ? (
            <ImportButton />
          ) : (
            <SyncButton what={what} syncing={running} disabled={base === null} onSync={() => sync.mutate()} />
          )}
          {props.toolbar?.(base, scope)}
        </>
      }
    >
      {platform === 'OANDA' && base !== null && <SyncStatusLine listKey={props.listKey} />}
      {props.above?.(base)}
      {base === null ? (
        <NotConnectedState platform={platform} what={what} onShowOanda={() => setPlatform('OANDA')} />
      ) : (
        // Keyed by platform so a switch starts from an empty list rather than the previous platform's rows.
        <SyncedList
          key={platform}
          query={props.listQuery(base, page, scope.params)}
          title={props.title}
          empty={empty}
          imported={scope.imported}
          page={page}
          onPageChange={setPage}
          table={(rows, busy) => props.table(rows, busy, view)}
        />
      )}
      {props.details({ row: selected, visible, base, onClose: () => setVisible(false) })}
    </ListCard>
  );
}
