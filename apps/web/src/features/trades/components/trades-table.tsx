import { CBadge, CTableDataCell } from '@coreui/react';
import type { TradeItem } from '@pipsense/contract';
import { formatInstrument, plClass } from '../../../components/data/format';
import { DataTable, ViewCell } from '../../../components/data/data-table';
import { formatPL, formatPrice, formatUnits, tradeState } from '../model/trade-format';

/** SPEC §2's columns, in order; numbers are right-aligned so their decimals line up. */
const TRADE_COLUMNS = [
  { label: 'Trade ID', numeric: false },
  { label: 'Instrument', numeric: false },
  { label: 'Price', numeric: true },
  { label: 'Initial Units', numeric: true },
  { label: 'Current Units', numeric: true },
  { label: 'Realized P/L', numeric: true },
  { label: 'Unrealized P/L', numeric: true },
  { label: 'State', numeric: false },
  { label: 'Actions', numeric: false },
] as const;

interface TradesTableProps<T extends TradeItem> {
  /** Null while the first page loads: placeholder rows keep the table's shape. */
  trades: readonly T[] | null;
  busy: boolean;
  onView: (trade: T) => void;
}

export function TradesTable<T extends TradeItem>({ trades, busy, onView }: TradesTableProps<T>) {
  return (
    <DataTable
      label="Trades"
      columns={TRADE_COLUMNS}
      rows={trades}
      busy={busy}
      rowKey={(trade) => `${trade.accountId}:${trade.tradeId}`}
      renderCells={(trade) => {
        const state = tradeState(trade.state);
        return (
          <>
            <CTableDataCell>{trade.tradeId}</CTableDataCell>
            <CTableDataCell className="fw-semibold">{formatInstrument(trade.instrument)}</CTableDataCell>
            <CTableDataCell className="text-end num">{formatPrice(trade.price)}</CTableDataCell>
            <CTableDataCell className="text-end num">{formatUnits(trade.initialUnits)}</CTableDataCell>
            <CTableDataCell className="text-end num">{formatUnits(trade.currentUnits)}</CTableDataCell>
            <CTableDataCell className={`text-end num ${plClass(trade.realizedPL)}`}>
              {formatPL(trade.realizedPL)}
            </CTableDataCell>
            <CTableDataCell className={`text-end num ${plClass(trade.unrealizedPL)}`}>
              {formatPL(trade.unrealizedPL)}
            </CTableDataCell>
            <CTableDataCell>
              <CBadge color={state.color} shape="rounded-pill">
                {state.label}
              </CBadge>
            </CTableDataCell>
            <ViewCell label="View Trade" onClick={() => onView(trade)} />
          </>
        );
      }}
    />
  );
}
