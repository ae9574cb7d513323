import { useEffect, useMemo, useRef } from 'react';
import { createChart, LineSeries, LineType, type UTCTimestamp } from 'lightweight-charts';
import type { BalancePoint } from '@pipsense/contract';
import { CHART_COLORS } from '../../../components/charts/candle-series';
import { baseChartOptions, curveTimeScale, MONEY_FORMAT } from '../../../components/charts/chart-theme';
import { moneyLines } from '../model/account-money';

/** The balance in the app's primary colour, the equity in its info blue (the MFE line of the trade chart). */
export const MONEY_LINE_COLORS = { balance: CHART_COLORS.entry, equity: CHART_COLORS.mfe } as const;

interface BalanceChartProps {
  points: readonly BalancePoint[];
  /** What the chart shows, for screen readers. */
  label: string;
}

/**
 * The balance (a step line: it moves only at a booking) and the equity (a line with gaps where it is not known,
 * never drawn across them) of one account over time, in the account's currency.
 */
export function BalanceChart({ points, label }: BalanceChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const lines = useMemo(() => moneyLines(points), [points]);

  useEffect(() => {
    const element = container.current;
    if (!element || lines.balance.length === 0) return;
    const span = lines.balance.at(-1)!.time - lines.balance[0]!.time;
    const chart = createChart(element, { ...baseChartOptions(element), timeScale: curveTimeScale(span) });
    const common = { priceLineVisible: false, priceFormat: MONEY_FORMAT } as const;
    // The equity is drawn first and wider, so where it equals the balance (no position open) both stay visible.
    const equity = chart.addSeries(LineSeries, {
      ...common,
      color: MONEY_LINE_COLORS.equity,
      lineWidth: 3,
      title: 'Equity',
    });
    const balance = chart.addSeries(LineSeries, {
      ...common,
      color: MONEY_LINE_COLORS.balance,
      lineWidth: 2,
      lineType: LineType.WithSteps,
      title: 'Balance',
    });
    balance.setData(lines.balance.map((p) => ({ ...p, time: p.time as UTCTimestamp })));
    equity.setData(lines.equity.map((p) => ({ ...p, time: p.time as UTCTimestamp })));
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [lines]);

  return <div ref={container} className="money-chart" role="img" aria-label={label} />;
}
