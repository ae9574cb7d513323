import { useState } from 'react';
import type { AccountItem } from '@pipsense/contract';
import { NotConnectedState } from '../../../components/data/data-states';
import { ListCard } from '../../../components/data/list-card';
import { PlatformDropdown } from '../../../components/data/platform-dropdown';
import { SyncButton } from '../../../components/data/sync-button';
import { usePlatformPaging } from '../../../components/data/use-platform-paging';
import { queryKeys } from '../../../lib/query-keys';
import { useSyncAccounts } from '../api/accounts-api';
import { AccountDetailsModal } from './account-details-modal';
import { AccountList } from './account-list';

/** SPEC §2 Accounts: the synced accounts of the chosen platform with their summaries, ten a page. */
export function AccountsPage() {
  const { platform, base, page, setPage, setPlatform } = usePlatformPaging(queryKeys.accounts.all);
  const sync = useSyncAccounts(base);
  const [selected, setSelected] = useState<AccountItem | null>(null);
  const [visible, setVisible] = useState(false);
  const view = (account: AccountItem) => {
    setSelected(account);
    setVisible(true);
  };

  return (
    <ListCard
      title={`${platform} Accounts`}
      toolbar={
        <>
          <PlatformDropdown value={platform} onChange={setPlatform} />
          <SyncButton what="accounts" syncing={sync.isPending} disabled={base === null} onSync={() => sync.mutate()} />
        </>
      }
    >
      {base === null ? (
        <NotConnectedState platform={platform} what="accounts" onShowOanda={() => setPlatform('OANDA')} />
      ) : (
        // Keyed by platform so a switch starts from an empty list rather than the previous platform's rows.
        <AccountList key={platform} base={base} page={page} onPageChange={setPage} onView={view} />
      )}
      <AccountDetailsModal visible={visible} account={selected} onClose={() => setVisible(false)} />
    </ListCard>
  );
}
