import { useId } from 'react';
import { CCard, CCardBody } from '@coreui/react';
import type { DashboardMetrics, MoneyFigure, OverviewReturn } from '@pipsense/contract';
import { formatSignedPercent, moneyFigureParts, plClass } from '../../../components/data/format';
import './overview-money.css';

const FIGURES: ReadonlyArray<[string, keyof NonNullable<DashboardMetrics['money']>]> = [
  ['Net P/L', 'netPL'],
  ['Net P/L after Financing', 'netPLAfterFinancing'],
  ['Max Drawdown', 'maxDrawdown'],
  ['Unrealized P/L', 'unrealizedPL'],
];

const RETURN_LABEL = 'Return (time-weighted)';

/** A drawdown is a size (positive), not a gain: only P/L is coloured. */
function Figure({ label, figure, coloured }: { label: string; figure: MoneyFigure | null; coloured: boolean }) {
  return (
    <div className="overview-money-figure">
      <div className="overview-money-label">{label}</div>
      <div className="overview-money-parts">
        {figure === null ? (
          <span className="overview-money-part">-</span>
        ) : (
          moneyFigureParts(figure).map((part) => (
            <span key={part.currency} className={`overview-money-part ${coloured ? plClass(part.amount) : ''}`}>
              {part.text}
            </span>
          ))
        )}
      </div>
    </div>
  );
}

/**
 * The accounts' time-weighted return (docs/money.md, Returns on the Overview): a percent of one currency's money,
 * so one per currency, never converted; the code is shown when there are several.
 */
function ReturnFigure({ returns }: { returns: readonly OverviewReturn[] }) {
  const labelId = useId();
  const withCode = returns.length > 1;
  return (
    <div className="overview-money-figure" role="group" aria-labelledby={labelId}>
      <div id={labelId} className="overview-money-label">
        {RETURN_LABEL}
      </div>
      <div className="overview-money-parts">
        {returns.map((r) => (
          <span key={r.currency} className={`overview-money-part ${plClass(r.total)}`}>
            {formatSignedPercent(r.total)}
            {withCode ? ` ${r.currency}` : ''}
          </span>
        ))}
      </div>
    </div>
  );
}

const RETURN_NOTE =
  'The growth of the accounts’ balance with deposits and withdrawals left out, since their first booking or within the dates filtered.';

/** Beside money converted into the home currency, why the returns are not. */
const CONVERTED_RETURNS_NOTE = 'The return stays per currency: an exchange move is not performance.';

/**
 * The money of accounts in several currencies (docs/decisions/024-currencies-never-mixed.md): converted into the
 * home currency with its code, or one amount per currency side by side, never added; beside it the return. For one
 * currency the cards carry its code as they always did, and only the return is shown here.
 */
export function MoneyFigures({ metrics }: { metrics: DashboardMetrics }) {
  const { currency, money } = metrics;
  if (metrics.tradeCount === 0) return null;
  const returns = metrics.returns ?? [];
  if (!currency || currency.mode === 'single' || !money) {
    if (returns.length === 0) return null;
    return (
      <CCard className="overview-money mb-3" role="region" aria-label="Return">
        <CCardBody className="overview-return">
          <ReturnFigure returns={returns} />
          <p className="overview-money-note overview-return-note mb-0">{RETURN_NOTE}</p>
        </CCardBody>
      </CCard>
    );
  }
  const title = currency.mode === 'converted' ? `Money in ${currency.home}` : 'Money per currency';
  const convertedReturns = currency.mode === 'converted' && returns.length > 1;
  return (
    <CCard className="overview-money mb-3" role="region" aria-labelledby="overview-money-title">
      <CCardBody>
        <h2 id="overview-money-title" className="h6 mb-2">
          {title}
        </h2>
        <div className="overview-money-figures">
          {FIGURES.map(([label, key]) => (
            <Figure key={key} label={label} figure={money[key]} coloured={key !== 'maxDrawdown'} />
          ))}
          {returns.length > 0 && <ReturnFigure returns={returns} />}
        </div>
        {(currency.note || convertedReturns) && (
          <p className="overview-money-note mb-0">
            {[currency.note, convertedReturns ? CONVERTED_RETURNS_NOTE : null].filter(Boolean).join(' ')}
          </p>
        )}
      </CCardBody>
    </CCard>
  );
}
