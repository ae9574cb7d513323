import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CFormSwitch, CTable } from '@coreui/react';
import type { CashFlowItem } from '@pipsense/contract';
import { LoadErrorState } from '../../../components/data/data-states';
import { EMPTY_CELL, formatDateTime, formatSignedMoney, plClass } from '../../../components/data/format';
import { ListPagination } from '../../../components/data/list-pagination';
import { cashFlowsQuery } from '../api/money-api';
import { CASH_FLOW_LABELS, cashFlowTotal } from '../model/account-money';
import { CashTableHead } from './cash-table-head';
import { DateOverTime } from './date-over-time';
import { MoneySection, SectionLoading } from './money-section';

/** Cash flows a page of the table: most accounts' deposits and withdrawals fit one. */
const FLOWS_PER_PAGE = 25;

/** An exact total of one type, per currency (one for an account), '0.00' with the account's code when there is none. */
function Total({
  label,
  flows,
  type,
  currency,
}: {
  label: string;
  flows: readonly CashFlowItem[];
  type: CashFlowItem['type'];
  currency: string | null;
}) {
  const sums = cashFlowTotal(flows, type);
  const text =
    sums.length === 0
      ? formatSignedMoney('0', currency)
      : sums.map((s) => formatSignedMoney(s.amount, s.currency)).join(' · ');
  return (
    <div>
      <dt>{label}</dt>
      <dd className={sums.length === 1 ? plClass(sums[0]!.amount) : ''}>{text}</dd>
    </div>
  );
}

function CashFlowTable({ flows }: { flows: readonly CashFlowItem[] }) {
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(flows.length / FLOWS_PER_PAGE));
  const current = Math.min(page, pages);
  const rows = flows.slice((current - 1) * FLOWS_PER_PAGE, current * FLOWS_PER_PAGE);
  return (
    <>
      <CTable small hover responsive align="middle" className="mb-2 data-table money-flows" aria-label="Cash flows">
        <CashTableHead />
        <tbody>
          {rows.map((flow, index) => (
            <tr key={`${flow.time}-${index}`}>
              <td className="text-nowrap" title={formatDateTime(flow.time)}>
                <DateOverTime value={flow.time} />
              </td>
              <td>{CASH_FLOW_LABELS[flow.type]}</td>
              <td className={`text-end num ${plClass(flow.amount)}`}>
                {formatSignedMoney(flow.amount, flow.currency)}
              </td>
              <td>{flow.comment || EMPTY_CELL}</td>
            </tr>
          ))}
        </tbody>
      </CTable>
      {pages > 1 && <ListPagination page={current} pages={pages} onChange={setPage} label="Cash flow pages" />}
    </>
  );
}

/**
 * docs/PRODUCT.md, Account money: the money put in and taken out, newest first, with the exact totals of deposits and
 * of withdrawals. OANDA books financing every day: those rows are listed only when asked for.
 */
export function CashFlowsSection({ base, accountId }: { base: string; accountId: string }) {
  const query = useQuery(cashFlowsQuery(base, accountId));
  const [withFinancing, setWithFinancing] = useState(false);
  const switchId = useId();

  let body;
  if (query.isError)
    body = (
      <LoadErrorState
        what="deposits and withdrawals"
        message={query.error.message}
        onRetry={() => void query.refetch()}
      />
    );
  else if (!query.data) body = <SectionLoading what="deposits and withdrawals" />;
  else if (query.data.length === 0)
    body = <p className="money-empty">No deposits or withdrawals recorded for this account.</p>;
  else {
    const all = query.data;
    const currency = all[0]!.currency;
    const financing = all.filter((flow) => flow.type === 'financing').length;
    const shown = [...(withFinancing ? all : all.filter((flow) => flow.type !== 'financing'))].reverse();
    body = (
      <>
        <dl className="stat-list">
          <Total label="Deposits" flows={all} type="deposit" currency={currency} />
          <Total label="Withdrawals" flows={all} type="withdrawal" currency={currency} />
          {financing > 0 && <Total label="Financing" flows={all} type="financing" currency={currency} />}
        </dl>
        {financing > 0 && (
          <CFormSwitch
            id={switchId}
            className="mb-2"
            label={`Show daily financing (${financing.toLocaleString()})`}
            checked={withFinancing}
            onChange={(event) => setWithFinancing(event.target.checked)}
          />
        )}
        {shown.length === 0 ? (
          <p className="money-empty">No deposits or withdrawals recorded for this account.</p>
        ) : (
          <CashFlowTable key={String(withFinancing)} flows={shown} />
        )}
      </>
    );
  }

  return (
    <MoneySection title="Deposits and withdrawals" className="money-flows-section">
      {body}
    </MoneySection>
  );
}
