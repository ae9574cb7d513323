import { useMemo, useState } from 'react';
import { CAlert, CSpinner } from '@coreui/react';
import { useQuery } from '@tanstack/react-query';
import type { StoredRuleSet } from '@pipsense/contract';
import { CHART_COLORS } from '../../../components/charts/candle-series';
import { MoneyChart, type MoneyLevel } from '../../../components/charts/money-chart';
import { MONEY_LINE_COLORS } from '../../../components/charts/money-lines';
import { platformOfAccountId, platformScope } from '../../../components/data/platform-scope';
import { balanceHistoryQuery } from '../../../lib/balance-history-query';
import { ruleDaysQuery } from '../api/rules-api';
import { chartResolution, chartSummary, equityKnown, floorLines } from '../model/floor-series';

/** The floors in the colours of a warning (the day's) and of a loss (the account's); the target in a profit's. */
const FLOOR_COLORS = {
  dailyLoss: CHART_COLORS.mae,
  maxLoss: CHART_COLORS.down,
  target: CHART_COLORS.up,
} as const;

/**
 * docs/PRODUCT.md, My Rules: the account's balance and equity from the set's start to now (the money module's
 * history) with the daily-loss floor and the maximum-loss floor drawn day by day as steps, and the profit target.
 */
export function RuleEquityChart({ ruleSet, currency }: { ruleSet: StoredRuleSet; currency: string }) {
  // The moment the chart was opened: the floors end there, and the history is asked from the set's start.
  const [now] = useState(() => Date.now());
  const base = platformScope(platformOfAccountId(ruleSet.accountId)).base ?? '';
  const resolution = chartResolution(ruleSet.startTime, now);
  const history = useQuery(balanceHistoryQuery(base, ruleSet.accountId, resolution, ruleSet.startTime));
  const days = useQuery(ruleDaysQuery(ruleSet.id));
  const lines = useMemo(
    () => (days.data ? floorLines(days.data, ruleSet.initialBalance, now) : null),
    [days.data, ruleSet.initialBalance, now],
  );
  const levels = useMemo<MoneyLevel[]>(
    () =>
      lines
        ? [
            { title: 'Daily loss floor', color: FLOOR_COLORS.dailyLoss, points: lines.dailyLoss },
            { title: 'Maximum loss floor', color: FLOOR_COLORS.maxLoss, points: lines.maxLoss },
            { title: 'Profit target', color: FLOOR_COLORS.target, points: lines.target, dashed: true },
          ].filter((level) => level.points.length > 0)
        : [],
    [lines],
  );

  const failed = history.isError ? history : days.isError ? days : null;
  if (failed)
    return (
      <CAlert color="danger" className="py-2 mb-0" role="alert">
        The equity chart could not be loaded: {failed.error.message}
      </CAlert>
    );
  if (!history.data || !days.data)
    return (
      <div className="rule-loading" role="status" aria-label={`Loading the equity chart of ${ruleSet.name}`}>
        <CSpinner size="sm" color="primary" aria-hidden="true" />
      </div>
    );
  const { points } = history.data;
  if (points.length === 0)
    return (
      <p className="text-body-secondary small mb-0">
        No balance history since the start yet: the chart begins with the first booking.
      </p>
    );
  const money = history.data.currency ?? currency;
  const known = equityKnown(points);
  return (
    <figure className="rule-chart mb-0" aria-label={`Equity and floors of ${ruleSet.name}`}>
      <MoneyChart points={points} levels={levels} />
      <div className="rule-chart-legend" aria-hidden="true">
        <span style={{ color: MONEY_LINE_COLORS.balance }}>Balance</span>
        {known ? (
          <span style={{ color: MONEY_LINE_COLORS.equity }}>Equity</span>
        ) : (
          <span className="rule-chart-unknown">Equity unknown (closed P/L only)</span>
        )}
        {levels.map((level) => (
          <span
            key={level.title}
            className={level.dashed ? 'rule-chart-dashed' : undefined}
            style={{ color: level.color }}
          >
            {level.title}
          </span>
        ))}
      </div>
      <figcaption className="visually-hidden">
        {chartSummary(days.data, points, ruleSet.initialBalance, money)}
      </figcaption>
    </figure>
  );
}
