import { useState } from 'react';
import type { TradeItem } from '@pipsense/contract';
import { NotConnectedState } from '../../../components/data/data-states';
import { ListCard } from '../../../components/data/list-card';
import { PlatformDropdown } from '../../../components/data/platform-dropdown';
import { SyncButton } from '../../../components/data/sync-button';
import { usePlatformPaging } from '../../../components/data/use-platform-paging';
import { queryKeys } from '../../../lib/query-keys';
import { useSyncTrades } from '../api/trade-history-api';
import { TradeDetailsModal } from './trade-details-modal';
import { TradeHistory } from './trade-history';

/** SPEC §2 Trades: the synced trade history of the chosen platform, ten a page, with a Sync button. */
export function TradesPage() {
  const { platform, base, page, setPage, setPlatform } = usePlatformPaging(queryKeys.tradeHistory.all);
  const sync = useSyncTrades(base);
  const [selected, setSelected] = useState<TradeItem | null>(null);
  const [visible, setVisible] = useState(false);
  const view = (trade: TradeItem) => {
    setSelected(trade);
    setVisible(true);
  };

  return (
    <ListCard
      title={`${platform} Trades`}
      toolbar={
        <>
          <PlatformDropdown value={platform} onChange={setPlatform} />
          <SyncButton what="trades" syncing={sync.isPending} disabled={base === null} onSync={() => sync.mutate()} />
        </>
      }
    >
      {base === null ? (
        <NotConnectedState platform={platform} what="trades" onShowOanda={() => setPlatform('OANDA')} />
      ) : (
        // Keyed by platform so a switch starts from an empty list rather than the previous platform's rows.
        <TradeHistory key={platform} base={base} page={page} onPageChange={setPage} onView={view} />
      )}
      <TradeDetailsModal visible={visible} trade={selected} base={base} onClose={() => setVisible(false)} />
    </ListCard>
  );
}
