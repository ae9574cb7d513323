import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CSpinner, CTable } from '@coreui/react';
import type { BalanceOperationType } from '@pipsense/contract';
import { EMPTY_CELL, formatDateTime, plClass } from '../../../components/data/format';
import { ListPagination } from '../../../components/data/list-pagination';
import { balanceOperationsQuery } from '../api/accounts-api';
import { formatMoney } from '../model/account-fields';
import { CashTableHead } from './cash-table-head';

const TYPE_LABELS: Record<BalanceOperationType, string> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  credit: 'Credit',
  bonus: 'Bonus',
  correction: 'Correction',
  other: 'Other',
};

/**
 * docs/PRODUCT.md, Account list: an imported account's balance operations in its details, newest first: time (local),
 * type, amount with the account's currency, comment. The money put in and taken out, apart from the trades.
 */
export function BalanceOperations({ base, accountId }: { base: string; accountId: string }) {
  const [page, setPage] = useState(1);
  const query = useQuery(balanceOperationsQuery(base, accountId, page));
  const body = query.data;
  return (
    <section className="mt-4" aria-label="Balance operations">
      <h3 className="h6 fw-semibold mb-2">Balance operations</h3>
      {query.isError ? (
        <p className="text-danger mb-0" role="alert">
          The balance operations could not be loaded: {query.error.message}
        </p>
      ) : !body ? (
        <CSpinner size="sm" color="primary" aria-label="Loading balance operations" />
      ) : body.total === 0 ? (
        <p className="text-body-secondary mb-0">
          No deposits, withdrawals or credits in the imported reports of this account.
        </p>
      ) : (
        <>
          <CTable small hover responsive className="mb-2" aria-label="Balance operations">
            <CashTableHead />
            <tbody>
              {body.data.map((op) => (
                <tr key={op.id}>
                  <td title={`Server time ${op.serverTime.replace('T', ' ')}`}>{formatDateTime(op.time)}</td>
                  <td title={op.type === 'other' ? op.printedType : undefined}>{TYPE_LABELS[op.type]}</td>
                  <td className={`text-end text-nowrap ${plClass(op.amount)}`}>
                    {formatMoney(op.amount)}
                    {op.currency ? ` ${op.currency}` : ''}
                  </td>
                  <td>{op.comment ?? EMPTY_CELL}</td>
                </tr>
              ))}
            </tbody>
          </CTable>
          {body.pages > 1 && (
            <ListPagination page={page} pages={body.pages} onChange={setPage} label="Balance operations pages" />
          )}
        </>
      )}
    </section>
  );
}
