import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CTable } from '@coreui/react';
import type { ReturnPeriodName } from '@pipsense/contract';
import { FetchingOverlay, LoadErrorState } from '../../../components/data/data-states';
import { formatSignedPercent, plClass } from '../../../components/data/format';
import { returnsQuery } from '../api/money-api';
import { PERIOD_LABELS, periodLabel } from '../model/account-money';
import { ChoiceButtons, MoneySection, SectionLoading } from './money-section';

/**
 * docs/PRODUCT.md, Account money: the time-weighted return since the account's first deposit or trade, and each
 * day's, month's or year's, newest first.
 */
export function ReturnsSection({ base, accountId }: { base: string; accountId: string }) {
  const [period, setPeriod] = useState<ReturnPeriodName>('month');
  // The previous period's list stays on screen, under a spinner, until the next one arrives.
  const returns = useQuery({ ...returnsQuery(base, accountId, period), placeholderData: keepPreviousData });
  const data = returns.data;

  let body;
  if (returns.isError)
    body = <LoadErrorState what="returns" message={returns.error.message} onRetry={() => void returns.refetch()} />;
  else if (!data) body = <SectionLoading what="returns" />;
  else {
    const shown = PERIOD_LABELS[data.period];
    body = (
      <>
        <div className="money-figure">
          <span className="money-figure-label">Time-weighted return since the first deposit or trade</span>
          <span className={`money-figure-value ${plClass(data.total)}`}>{formatSignedPercent(data.total)}</span>
        </div>
        <p className="money-note">
          Deposits and withdrawals are not counted as performance: the return is measured between them and chained.
        </p>
        {data.periods.length === 0 ? (
          <p className="money-empty">No deposits or trades yet: returns start with the first one.</p>
        ) : (
          <div className="money-periods position-relative">
            <CTable small hover className="mb-0 data-table" aria-label={`Returns by ${shown.toLowerCase()}`}>
              <thead>
                <tr>
                  <th scope="col">{shown}</th>
                  <th scope="col" className="text-end">
                    Return
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...data.periods].reverse().map((p) => (
                  <tr key={p.start}>
                    <td>{periodLabel(p.start, data.period)}</td>
                    <td className={`text-end num ${plClass(p.return)}`}>{formatSignedPercent(p.return)}</td>
                  </tr>
                ))}
              </tbody>
            </CTable>
            {returns.isPlaceholderData && <FetchingOverlay label="Loading returns" />}
          </div>
        )}
      </>
    );
  }

  return (
    <MoneySection
      title="Returns"
      className="money-returns"
      toolbar={<ChoiceButtons label="Return period" value={period} options={PERIOD_LABELS} onChange={setPeriod} />}
    >
      {body}
    </MoneySection>
  );
}
