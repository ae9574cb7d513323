import { useMemo, useState } from 'react';
import { CFormSwitch } from '@coreui/react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { playbooksQuery } from '../../../lib/playbooks-query';
import { SyncedListScreen } from '../../../components/data/synced-list';
import { queryKeys } from '../../../lib/query-keys';
import { tradeHistoryQuery, type TradeListPage } from '../api/trade-history-api';
import { nextSort, viewFromParams, viewToParams, viewToQuery, type TradeView } from '../model/trade-filters';
import { toggleSelection, type Selection } from '../model/trade-selection';
import { BulkPlaybookBar } from './bulk-playbook-bar';
import { BulkTagBar } from './bulk-tag-bar';
import { ExportButton } from './export-button';
import { TradeDetailsModal } from './trade-details-modal';
import { TradeFiltersBar } from './trade-filters-bar';
import { TradesTable } from './trades-table';

const NOTHING_SELECTED: Selection = new Map();
/** Where the browser remembers whether the trader keeps the journal columns on. */
const JOURNAL_COLUMNS_KEY = 'pipsense.trades.journalColumns';
const journalColumnsSaved = () => {
  try {
    return localStorage.getItem(JOURNAL_COLUMNS_KEY) === 'on';
  } catch {
    return false;
  }
};

/**
 * docs/PRODUCT.md, Trade list: the synced trade history of the chosen platform, ten a page, with a Sync button; the
 * journal adds the filters and sort (kept in the URL), the journal columns behind a switch (off: exactly the spec's
 * columns), bulk tagging of checked rows and the CSV export.
 */
export function TradesPage() {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const view = useMemo(() => viewFromParams(new URLSearchParams(search)), [search]);
  const query = useMemo(() => viewToQuery(view), [view]);
  const filterKey = viewToParams(view).toString();
  const [selection, setSelection] = useState<Selection>(NOTHING_SELECTED);
  const [journal, setJournal] = useState(journalColumnsSaved);
  const playbooks = useQuery({ ...playbooksQuery(), enabled: journal });
  const showJournal = (on: boolean) => {
    setJournal(on);
    if (!on) setSelection(NOTHING_SELECTED);
    try {
      localStorage.setItem(JOURNAL_COLUMNS_KEY, on ? 'on' : 'off');
    } catch {
      // Private mode: the choice lasts for this page only.
    }
  };
  // A new URL entry per change, so the back button returns to the previous view.
  const apply = (next: TradeView) => setParams(viewToParams(next));
  const hasFilters = filterKey.replace(/(^|&)(sort|order)=[^&]*/g, '') !== '';

  return (
    <SyncedListScreen<TradeListPage>
      title="Trades"
      listKey={queryKeys.tradeHistory.all}
      listQuery={(base, page, platform) => tradeHistoryQuery(base, page, { ...query, ...platform })}
      filterKey={filterKey}
      // GET {trading host}/api/v1/trade/sync_trade: the server reads OANDA and answers with what it did.
      syncPath="/api/v1/trade/sync_trade"
      filtered={hasFilters}
      empty={
        hasFilters
          ? { title: 'No trades found', hint: 'No trade matches these filters: change them, or press Clear filters.' }
          : {
              title: 'No trades found',
              hint: 'Press Sync to fetch your trade history from OANDA; it shows here newest first.',
            }
      }
      toolbar={(base, scope) => (
        <>
          <CFormSwitch
            id="trades-journal-columns"
            label="Journal columns"
            checked={journal}
            onChange={(event) => showJournal(event.target.checked)}
            className="mb-0 text-nowrap"
          />
          <ExportButton base={base} filters={{ ...query, ...scope.params }} />
        </>
      )}
      above={(base) =>
        base !== null && (
          <>
            {/* Keyed by the URL, so the back button also resets what the form shows. */}
            <TradeFiltersBar key={filterKey} view={view} onApply={apply} />
            {selection.size > 0 && (
              <>
                <BulkTagBar
                  selection={selection}
                  onDone={() => setSelection(NOTHING_SELECTED)}
                  onClear={() => setSelection(NOTHING_SELECTED)}
                />
                <BulkPlaybookBar selection={selection} onDone={() => setSelection(NOTHING_SELECTED)} />
              </>
            )}
          </>
        )
      }
      table={(trades, busy, onView) => (
        <TradesTable
          trades={trades}
          busy={busy}
          onView={onView}
          sort={view}
          onSort={(field) => apply({ ...view, ...nextSort(view, field) })}
          selected={new Set(selection.keys())}
          onSelect={(rows, checked) => setSelection((s) => toggleSelection(s, rows, checked))}
          journal={journal}
          playbooks={playbooks.data}
        />
      )}
      details={({ row, ...modal }) => <TradeDetailsModal trade={row} {...modal} />}
    />
  );
}
