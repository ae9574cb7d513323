import { useEffect } from 'react';
import type { TradeItem } from '@pipsense/contract';
import { PAGE_SIZE } from '@pipsense/contract';
import { ConfigureOandaState, EmptyState, FetchingOverlay, LoadErrorState } from '../../../components/data/data-states';
import { ListFooter } from '../../../components/data/list-card';
import { ListPagination } from '../../../components/data/list-pagination';
import { pageCount } from '../../../components/data/page-window';
import { useErrorToast } from '../../../components/data/use-error-toast';
import { isOandaNotConfigured, useOandaConnection } from '../../../components/data/use-oanda-connection';
import { useTradeHistory } from '../api/trade-history-api';
import { TradesTable } from './trades-table';

interface TradeHistoryProps {
  base: string;
  page: number;
  onPageChange: (page: number) => void;
  onView: (trade: TradeItem) => void;
}

/** One page of the synced trades with its loading, empty, error and 'configure OANDA' states. */
export function TradeHistory({ base, page, onPageChange, onView }: TradeHistoryProps) {
  const history = useTradeHistory(base, page);
  const empty = history.data !== undefined && history.data.data.length === 0;
  const connection = useOandaConnection(empty);
  useErrorToast('trades', history.error, history.errorUpdatedAt);
  const pages = pageCount(history.data?.pages);

  // A sync can shrink the history; a page past the end moves back to the last page.
  const pastEnd = history.data !== undefined && !history.isPlaceholderData && page > pages;
  useEffect(() => {
    if (pastEnd) onPageChange(pages);
  }, [pastEnd, pages, onPageChange]);

  if (history.isError) {
    if (isOandaNotConfigured(history.error)) return <ConfigureOandaState message={history.error.message} />;
    return <LoadErrorState what="trades" message={history.error.message} onRetry={() => void history.refetch()} />;
  }
  // An empty list waits for the connection check (placeholder rows) so it does not flash 'No … found' first.
  if (empty && !connection.isPending) {
    if (connection.data === false) return <ConfigureOandaState />;
    return (
      <EmptyState
        title="No trades found"
        hint="Press Sync to fetch your trade history from OANDA; it shows here newest first."
      />
    );
  }

  const trades = empty ? null : (history.data?.data ?? null);
  const busy = history.isFetching;
  return (
    <>
      <div className="position-relative">
        <TradesTable trades={trades} busy={busy} onView={onView} />
        {busy && trades !== null && <FetchingOverlay label="Loading trades" />}
      </div>
      {trades === null ? (
        <span className="visually-hidden" role="status">
          Loading trades
        </span>
      ) : (
        <ListFooter page={page} pageSize={PAGE_SIZE} shown={trades.length} total={history.data?.total} what="trades">
          <ListPagination page={page} pages={pages} onChange={onPageChange} label="Trades pages" />
        </ListFooter>
      )}
    </>
  );
}
