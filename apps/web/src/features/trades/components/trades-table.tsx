import { CBadge, CFormCheck, CTableDataCell } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilImage } from '@coreui/icons';
import type { Playbook, TradeListItem, TradeSortField } from '@pipsense/contract';
import { formatInstrument, formatR, plClass } from '../../../components/data/format';
import { DataTable, ViewCell, type DataColumn } from '../../../components/data/data-table';
import { RatingStars } from '../../../components/journal/rating-stars';
import { TagBadges } from '../../../components/journal/tag-badge';
import { formatPL, formatPrice, formatUnits, tradeState } from '../model/trade-format';
import type { TradeView } from '../model/trade-filters';
import { playbookName } from '../../../lib/playbooks-query';
import { tradeKey } from '../model/trade-selection';
import { REVIEW_BADGE, reviewState } from '../model/trade-review';

interface TradesTableProps {
  /** Null while the first page loads: placeholder rows keep the table's shape. */
  trades: readonly TradeListItem[] | null;
  busy: boolean;
  onView: (trade: TradeListItem) => void;
  /** The list's sort; the Instrument and Realized P/L headers change it. */
  sort: Pick<TradeView, 'sort' | 'order'>;
  onSort: (field: TradeSortField) => void;
  selected: ReadonlySet<string>;
  onSelect: (trades: readonly TradeListItem[], checked: boolean) => void;
  /**
   * The journal columns (selection, rating, tags, R); off, the table has exactly the columns of docs/PRODUCT.md, Trade
   * list.
   */
  journal: boolean;
  /** The trader's playbooks, to name a row's playbook (absent: not loaded yet). */
  playbooks?: readonly Playbook[];
}

/**
 * The row's playbook and review state under its instrument, so the table gains no column (390 px): the name cut short,
 * the state as the badge's colour and its words for screen readers and on hover.
 */
function PlaybookBadge({ trade, name }: { trade: TradeListItem; name: string | null }) {
  const state = reviewState(trade);
  if (state === 'none' || name === null) return null;
  const badge = REVIEW_BADGE[state];
  return (
    <CBadge
      color={badge.color}
      shape="rounded-pill"
      className="trade-playbook-badge"
      title={`${name}: ${badge.text.toLowerCase()}`}
    >
      {name}
      <span className="visually-hidden"> ({badge.text.toLowerCase()})</span>
    </CBadge>
  );
}

const SORT_LABELS: Partial<Record<TradeSortField, string>> = { instrument: 'instrument', realizedPL: 'realized P/L' };

function SortHeader({
  field,
  label,
  sort,
  onSort,
}: { field: TradeSortField; label: string } & Pick<TradesTableProps, 'sort' | 'onSort'>) {
  const active = sort.sort === field;
  return (
    <button
      type="button"
      // The arrow is drawn from data-sort (styles.css), so the header reads as its name alone.
      className={`sort-header${active ? ' active' : ''}`}
      data-sort={active ? sort.order : 'none'}
      onClick={() => onSort(field)}
      aria-label={`Sort by ${SORT_LABELS[field] ?? label}`}
    >
      {label}
    </button>
  );
}

/** A trade's screenshots, as a small mark beside its id (docs/PRODUCT.md, Beyond the base: Images). */
function ImageCount({ count }: { count: number }) {
  const label = count === 1 ? '1 screenshot' : `${count} screenshots`;
  return (
    <span className="ms-2 small text-body-secondary" title={label} aria-label={label} role="img">
      <CIcon icon={cilImage} size="sm" className="me-1 align-middle" aria-hidden />
      {count}
    </span>
  );
}

/**
 * The columns of docs/PRODUCT.md, Trade list, in order; with the journal columns on, a selection checkbox before them
 * and the journal's rating, tags and R before Actions (docs/decisions/011-journal-columns.md). Numbers are
 * right-aligned so their decimals line up.
 */
export function TradesTable({
  trades,
  busy,
  onView,
  sort,
  onSort,
  selected,
  onSelect,
  journal,
  playbooks,
}: TradesTableProps) {
  const rows = trades ?? [];
  const secondary = journal ? ' col-secondary' : '';
  const allChecked = rows.length > 0 && rows.every((trade) => selected.has(tradeKey(trade)));
  const sortedAs = (field: TradeSortField) =>
    sort.sort === field ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none';
  const selectColumn: DataColumn[] = [
    {
      label: 'Select',
      numeric: false,
      header: (
        <CFormCheck
          aria-label="Select all trades on this page"
          checked={allChecked}
          disabled={rows.length === 0}
          onChange={(event) => onSelect(rows, event.target.checked)}
        />
      ),
    },
  ];
  const journalColumns: DataColumn[] = [
    { label: 'Rating', numeric: false },
    { label: 'Tags', numeric: false },
    { label: 'R', numeric: true },
  ];
  const columns: DataColumn[] = [
    ...(journal ? selectColumn : []),
    { label: 'Trade ID', numeric: false },
    {
      label: 'Instrument',
      numeric: false,
      header: <SortHeader field="instrument" label="Instrument" sort={sort} onSort={onSort} />,
      sorted: sortedAs('instrument'),
    },
    { label: 'Price', numeric: true },
    { label: 'Initial Units', numeric: true },
    // With the journal columns on, these two give way on narrower screens (styles.css, col-secondary).
    { label: 'Current Units', numeric: true, secondary: journal },
    {
      label: 'Realized P/L',
      numeric: true,
      header: <SortHeader field="realizedPL" label="Realized P/L" sort={sort} onSort={onSort} />,
      sorted: sortedAs('realizedPL'),
    },
    { label: 'Unrealized P/L', numeric: true, secondary: journal },
    { label: 'State', numeric: false },
    ...(journal ? journalColumns : []),
    { label: 'Actions', numeric: false },
  ];
  return (
    <DataTable
      label="Trades"
      columns={columns}
      rows={trades}
      busy={busy}
      rowKey={tradeKey}
      isSelected={(trade) => selected.has(tradeKey(trade))}
      renderCells={(trade) => {
        const state = tradeState(trade.state);
        return (
          <>
            {journal && (
              <CTableDataCell>
                <CFormCheck
                  aria-label={`Select trade ${trade.tradeId}`}
                  checked={selected.has(tradeKey(trade))}
                  onChange={(event) => onSelect([trade], event.target.checked)}
                />
              </CTableDataCell>
            )}
            <CTableDataCell className="text-nowrap">
              {trade.tradeId}
              {trade.attachmentCount > 0 && <ImageCount count={trade.attachmentCount} />}
            </CTableDataCell>
            <CTableDataCell className="fw-semibold">
              {formatInstrument(trade.instrument)}
              {journal && <PlaybookBadge trade={trade} name={playbookName(playbooks, trade.playbookId)} />}
            </CTableDataCell>
            <CTableDataCell className="text-end num">{formatPrice(trade.price)}</CTableDataCell>
            <CTableDataCell className="text-end num">{formatUnits(trade.initialUnits)}</CTableDataCell>
            <CTableDataCell className={`text-end num${secondary}`}>{formatUnits(trade.currentUnits)}</CTableDataCell>
            <CTableDataCell className={`text-end num ${plClass(trade.realizedPL)}`}>
              {formatPL(trade.realizedPL)}
            </CTableDataCell>
            <CTableDataCell className={`text-end num ${plClass(trade.unrealizedPL)}${secondary}`}>
              {formatPL(trade.unrealizedPL)}
            </CTableDataCell>
            <CTableDataCell>
              <CBadge color={state.color} shape="rounded-pill">
                {state.label}
              </CBadge>
            </CTableDataCell>
            {journal && (
              <>
                <CTableDataCell className="text-nowrap">
                  <RatingStars value={trade.rating} label="Rating" />
                </CTableDataCell>
                <CTableDataCell className="tags-cell">
                  <TagBadges tags={trade.tags} />
                </CTableDataCell>
                <CTableDataCell className="text-end num text-nowrap">
                  {trade.initialRisk === null ? (
                    <span className="text-body-secondary small">no initial stop</span>
                  ) : (
                    formatR(trade.rMultiple)
                  )}
                </CTableDataCell>
              </>
            )}
            <ViewCell label="View Trade" onClick={() => onView(trade)} />
          </>
        );
      }}
    />
  );
}
