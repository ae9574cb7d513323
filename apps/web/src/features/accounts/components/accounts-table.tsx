import { CTableDataCell } from '@coreui/react';
import type { AccountItem } from '@pipsense/contract';
import { EMPTY_CELL, formatCount, formatDateTime, plClass } from '../../../components/data/format';
import { DataTable, ViewCell } from '../../../components/data/data-table';
import { accountIdOf, formatAccountPL, formatMoney } from '../model/account-fields';
import { DateOverTime } from './date-over-time';
import { MoneyLink } from './money-link';

/** The columns of docs/PRODUCT.md, Account list, in order; numbers are right-aligned so their decimals line up. */
const ACCOUNT_COLUMNS = [
  { label: 'Alias', numeric: false },
  { label: 'Account ID', numeric: false },
  { label: 'Currency', numeric: false },
  { label: 'Balance', numeric: true },
  { label: 'NAV', numeric: true },
  { label: 'Unrealized P/L', numeric: true },
  { label: 'Trades', numeric: true },
  { label: 'Positions', numeric: true },
  { label: 'Added', numeric: false },
  { label: 'Actions', numeric: false },
] as const;

interface AccountsTableProps {
  /** Null while the first page loads: placeholder rows keep the table's shape. */
  accounts: readonly AccountItem[] | null;
  busy: boolean;
  onView: (account: AccountItem) => void;
}

export function AccountsTable({ accounts, busy, onView }: AccountsTableProps) {
  return (
    <DataTable
      label="Accounts"
      columns={ACCOUNT_COLUMNS}
      rows={accounts}
      busy={busy}
      rowKey={(account) => account.id}
      renderCells={(account) => (
        <>
          <CTableDataCell className="fw-semibold">{account.alias || EMPTY_CELL}</CTableDataCell>
          <CTableDataCell className="text-nowrap">{accountIdOf(account)}</CTableDataCell>
          <CTableDataCell>{account.currency ?? EMPTY_CELL}</CTableDataCell>
          <CTableDataCell className="text-end num">{formatMoney(account.balance)}</CTableDataCell>
          <CTableDataCell className="text-end num">{formatMoney(account.NAV)}</CTableDataCell>
          <CTableDataCell className={`text-end num ${plClass(account.unrealizedPL)}`}>
            {formatAccountPL(account.unrealizedPL)}
          </CTableDataCell>
          <CTableDataCell className="text-end num">{formatCount(account.openTradeCount)}</CTableDataCell>
          <CTableDataCell className="text-end num">{formatCount(account.openPositionCount)}</CTableDataCell>
          <CTableDataCell className="text-nowrap" title={formatDateTime(account.createdAt)}>
            <DateOverTime value={account.createdAt} />
          </CTableDataCell>
          <ViewCell label="View Account" onClick={() => onView(account)}>
            <MoneyLink account={account} />
          </ViewCell>
        </>
      )}
    />
  );
}
