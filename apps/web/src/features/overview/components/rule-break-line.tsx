import { CCard, CCardBody } from '@coreui/react';
import type { DashboardMetrics } from '@pipsense/contract';
import { formatSignedMoney, plClass } from '../../../components/data/format';

/**
 * The Overview's rule-break line (docs/rules.md, Where breaks are shown): how many of the trades in view broke a rule
 * of the trader's rule sets, and their net P/L, one amount per currency side by side, never added
 * (docs/decisions/024-currencies-never-mixed.md). Nothing without a rule set of trade-level rules.
 */
export function RuleBreakLine({ ruleBreaks }: { ruleBreaks: DashboardMetrics['ruleBreaks'] }) {
  if (!ruleBreaks) return null;
  const { trades, netPL } = ruleBreaks;
  return (
    <CCard className="mb-3" role="region" aria-label="Rule breaks">
      <CCardBody className="py-2">
        <span className="fw-semibold">Rule breaks:</span>{' '}
        {trades === 0 ? (
          'no trade broke a rule'
        ) : (
          <>
            {trades === 1 ? '1 trade' : `${trades.toLocaleString()} trades`}, net P/L{' '}
            {netPL.map((part, i) => (
              <span key={part.currency}>
                {i > 0 && ' · '}
                <span className={plClass(part.amount)}>{formatSignedMoney(part.amount, part.currency)}</span>
              </span>
            ))}
          </>
        )}
      </CCardBody>
    </CCard>
  );
}
