import type { TradeItem } from '@pipsense/contract';
import { SyncedList } from '../../../components/data/synced-list';
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
  return (
    <SyncedList
      list={useTradeHistory(base, page)}
      what="trades"
      empty={{
        title: 'No trades found',
        hint: 'Press Sync to fetch your trade history from OANDA; it shows here newest first.',
      }}
      page={page}
      onPageChange={onPageChange}
      table={(trades, busy) => <TradesTable trades={trades} busy={busy} onView={onView} />}
    />
  );
}
