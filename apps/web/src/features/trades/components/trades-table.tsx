import {
  CBadge,
  CButton,
  CTable,
  CTableBody,
  CTableDataCell,
  CTableHead,
  CTableHeaderCell,
  CTableRow,
} from '@coreui/react';
import type { TradeItem } from '@pipsense/contract';
import { PAGE_SIZE } from '@pipsense/contract';
import { formatInstrument, plClass } from '../../../components/data/format';
import { PlaceholderRows } from '../../../components/data/placeholder-rows';
import { formatPL, formatPrice, formatUnits, tradeState } from '../model/trade-format';

/** SPEC §2's columns, in order; numbers are right-aligned so their decimals line up. */
export const TRADE_COLUMNS = [
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

export interface TradesTableProps {
  /** Null while the first page loads: placeholder rows keep the table's shape. */
  trades: readonly TradeItem[] | null;
  busy: boolean;
  onView: (trade: TradeItem) => void;
}

export function TradesTable({ trades, busy, onView }: TradesTableProps) {
  return (
    <CTable responsive hover align="middle" className="mb-0 data-table" aria-busy={busy} aria-label="Trades">
      <CTableHead>
        <CTableRow>
          {TRADE_COLUMNS.map(({ label, numeric }) => (
            <CTableHeaderCell key={label} scope="col" className={numeric ? 'text-end' : undefined}>
              {label}
            </CTableHeaderCell>
          ))}
        </CTableRow>
      </CTableHead>
      <CTableBody>
        {trades === null ? (
          <PlaceholderRows columns={TRADE_COLUMNS.length} rows={PAGE_SIZE} />
        ) : (
          trades.map((trade) => {
            const state = tradeState(trade.state);
            return (
              <CTableRow key={`${trade.accountId}:${trade.tradeId}`}>
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
                <CTableDataCell>
                  <CButton
                    size="sm"
                    color="primary"
                    variant="outline"
                    className="text-nowrap"
                    onClick={() => onView(trade)}
                  >
                    View Trade
                  </CButton>
                </CTableDataCell>
              </CTableRow>
            );
          })
        )}
      </CTableBody>
    </CTable>
  );
}
