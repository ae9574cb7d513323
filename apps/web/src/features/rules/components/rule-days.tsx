import { useState } from 'react';
import {
  CAlert,
  CButton,
  CSpinner,
  CTable,
  CTableBody,
  CTableDataCell,
  CTableHead,
  CTableHeaderCell,
  CTableRow,
} from '@coreui/react';
import { useQuery } from '@tanstack/react-query';
import { EMPTY_CELL, formatMoney, formatSignedMoney, plClass } from '../../../components/data/format';
import { ruleDaysQuery } from '../api/rules-api';
import { RULE_LABELS } from '@pipsense/contract';

/** The days shown at first: about a month; a set running for years has thousands of days. */
const FIRST_DAYS = 31;

const money = (value: string | null, currency: string) => (value === null ? EMPTY_CELL : formatMoney(value, currency));

/** docs/PRODUCT.md, My Rules: the set's days, newest first (the last 31 until all are asked for), scrolling within the card on a narrow screen. */
export function RuleDays({ id, name, currency }: { id: string; name: string; currency: string }) {
  const days = useQuery(ruleDaysQuery(id));
  const [all, setAll] = useState(false);
  if (days.isError)
    return (
      <CAlert color="danger" className="py-2 mb-0" role="alert">
        The days could not be loaded: {days.error.message}
      </CAlert>
    );
  if (!days.data)
    return (
      <div className="rule-loading" role="status" aria-label={`Loading the days of ${name}`}>
        <CSpinner size="sm" color="primary" aria-hidden="true" />
      </div>
    );
  if (days.data.length === 0) return <p className="text-body-secondary small mb-0">No days yet.</p>;
  const newestFirst = [...days.data].reverse();
  const rows = all ? newestFirst : newestFirst.slice(0, FIRST_DAYS);
  return (
    <>
      <div className="rule-days" role="region" aria-label={`Days of ${name}`} tabIndex={0}>
        <CTable small hover className="mb-0 rule-days-table">
          <CTableHead>
            <CTableRow>
              <CTableHeaderCell scope="col">Date</CTableHeaderCell>
              <CTableHeaderCell scope="col" className="text-end">
                Anchor
              </CTableHeaderCell>
              <CTableHeaderCell scope="col" className="text-end">
                Floor
              </CTableHeaderCell>
              <CTableHeaderCell scope="col" className="text-end">
                Lowest equity
              </CTableHeaderCell>
              <CTableHeaderCell scope="col" className="text-end">
                Closed P/L
              </CTableHeaderCell>
              <CTableHeaderCell scope="col">Trading day</CTableHeaderCell>
              <CTableHeaderCell scope="col">Broken</CTableHeaderCell>
            </CTableRow>
          </CTableHead>
          <CTableBody>
            {rows.map((day) => (
              <CTableRow key={day.date} color={day.breaks.length > 0 ? 'danger' : undefined}>
                <CTableDataCell className="text-nowrap">{day.date}</CTableDataCell>
                <CTableDataCell className="text-end text-nowrap">{money(day.anchor, currency)}</CTableDataCell>
                <CTableDataCell className="text-end text-nowrap">{money(day.floor, currency)}</CTableDataCell>
                <CTableDataCell className="text-end text-nowrap">{money(day.lowestEquity, currency)}</CTableDataCell>
                <CTableDataCell className={`text-end text-nowrap ${plClass(day.closedPL)}`}>
                  {formatSignedMoney(day.closedPL, currency)}
                </CTableDataCell>
                <CTableDataCell>{day.tradingDay ? 'Yes' : 'No'}</CTableDataCell>
                <CTableDataCell>{day.breaks.map((kind) => RULE_LABELS[kind]).join(', ') || EMPTY_CELL}</CTableDataCell>
              </CTableRow>
            ))}
          </CTableBody>
        </CTable>
      </div>
      {rows.length < newestFirst.length && (
        <CButton color="secondary" variant="ghost" size="sm" className="mt-2" onClick={() => setAll(true)}>
          Show all {newestFirst.length} days
        </CButton>
      )}
    </>
  );
}
