import { CCard, CCardBody } from '@coreui/react';
import type { DashboardMetrics, MoneyFigure } from '@pipsense/contract';
import { moneyFigureParts, plClass } from '../../../components/data/format';
import './overview-money.css';

const FIGURES: ReadonlyArray<[string, keyof NonNullable<DashboardMetrics['money']>]> = [
  ['Net P/L', 'netPL'],
  ['Net P/L after Financing', 'netPLAfterFinancing'],
  ['Max Drawdown', 'maxDrawdown'],
  ['Unrealized P/L', 'unrealizedPL'],
];

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
 * The money of accounts in several currencies (docs/decisions/024-currencies-never-mixed.md): converted into the
 * home currency with its code, or one amount per currency side by side, never added. Nothing for one currency: the
 * cards carry its code as they always did.
 */
export function MoneyFigures({ metrics }: { metrics: DashboardMetrics }) {
  const { currency, money } = metrics;
  if (!currency || currency.mode === 'single' || !money || metrics.tradeCount === 0) return null;
  const title = currency.mode === 'converted' ? `Money in ${currency.home}` : 'Money per currency';
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
        </div>
        {currency.note && <p className="overview-money-note mb-0">{currency.note}</p>}
      </CCardBody>
    </CCard>
  );
}
