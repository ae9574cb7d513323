import type { ReactNode } from 'react';
import { CButton, CTable, CTableBody, CTableDataCell, CTableHead, CTableHeaderCell, CTableRow } from '@coreui/react';
import { PAGE_SIZE } from '@pipsense/contract';
import { PlaceholderRows } from './placeholder-rows';

export interface DataColumn {
  label: string;
  /** Numbers are right-aligned so their decimals line up. */
  numeric: boolean;
  /** What the header shows instead of the label (a sort button, a select-all checkbox). */
  header?: ReactNode;
  /** The column's sort, for screen readers (`aria-sort`) on a sortable column. */
  sorted?: 'ascending' | 'descending' | 'none';
  /** A column that gives way on narrower screens (`col-secondary`, styles.css): its cells carry the same class. */
  secondary?: boolean;
}

interface DataTableProps<T> {
  label: string;
  columns: readonly DataColumn[];
  /** Null while the first page loads: placeholder rows keep the table's shape. */
  rows: readonly T[] | null;
  busy: boolean;
  rowKey: (row: T) => string;
  /** The cells of one row, in column order. */
  renderCells: (row: T) => ReactNode;
  /** Marks a row as selected (a checked row of a list with selection). */
  isSelected?: (row: T) => boolean;
}

/** The list tables of Trades and Accounts: headers, placeholder rows while loading, one row per item. */
export function DataTable<T>({ label, columns, rows, busy, rowKey, renderCells, isSelected }: DataTableProps<T>) {
  return (
    <CTable responsive hover align="middle" className="mb-0 data-table" aria-busy={busy} aria-label={label}>
      <CTableHead>
        <CTableRow>
          {columns.map(({ label: name, numeric, header, sorted, secondary }) => (
            <CTableHeaderCell
              key={name}
              scope="col"
              className={[numeric && 'text-end', secondary && 'col-secondary'].filter(Boolean).join(' ') || undefined}
              aria-sort={sorted}
            >
              {header ?? name}
            </CTableHeaderCell>
          ))}
        </CTableRow>
      </CTableHead>
      <CTableBody>
        {rows === null ? (
          <PlaceholderRows columns={columns.length} rows={PAGE_SIZE} />
        ) : (
          rows.map((row) => (
            <CTableRow key={rowKey(row)} active={isSelected?.(row) ?? false}>
              {renderCells(row)}
            </CTableRow>
          ))
        )}
      </CTableBody>
    </CTable>
  );
}

/** The Actions cell: 'View Trade', 'View Account', and the row's other actions after it (`children`). */
export function ViewCell({ label, onClick, children }: { label: string; onClick: () => void; children?: ReactNode }) {
  const view = (
    <CButton size="sm" color="primary" variant="outline" className="text-nowrap" onClick={onClick}>
      {label}
    </CButton>
  );
  return (
    <CTableDataCell>
      {children ? (
        <div className="row-actions">
          {view}
          {children}
        </div>
      ) : (
        view
      )}
    </CTableDataCell>
  );
}
