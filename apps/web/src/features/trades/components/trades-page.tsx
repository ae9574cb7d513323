import { SyncedListScreen } from '../../../components/data/synced-list';
import { queryKeys } from '../../../lib/query-keys';
import { tradeHistoryQuery } from '../api/trade-history-api';
import { TradeDetailsModal } from './trade-details-modal';
import { TradesTable } from './trades-table';

/** SPEC §2 Trades: the synced trade history of the chosen platform, ten a page, with a Sync button. */
export function TradesPage() {
  return (
    <SyncedListScreen
      title="Trades"
      listKey={queryKeys.tradeHistory.all}
      listQuery={tradeHistoryQuery}
      // GET {trading host}/api/v1/trade/sync_trade: the server reads OANDA and answers with what it did.
      syncPath="/api/v1/trade/sync_trade"
      empty={{
        title: 'No trades found',
        hint: 'Press Sync to fetch your trade history from OANDA; it shows here newest first.',
      }}
      table={(trades, busy, onView) => <TradesTable trades={trades} busy={busy} onView={onView} />}
      details={({ row, ...modal }) => <TradeDetailsModal trade={row} {...modal} />}
    />
  );
}
