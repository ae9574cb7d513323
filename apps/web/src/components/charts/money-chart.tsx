import { useEffect, useMemo, useRef } from 'react';
import { createChart, LineSeries, LineStyle, LineType, type UTCTimestamp } from 'lightweight-charts';
import type { BalancePoint } from '@pipsense/contract';
import { formatMoney } from '../data/format';
import { baseChartOptions, curveTimeScale, MONEY_FORMAT } from './chart-theme';
import { MONEY_LINE_COLORS, moneyLines, type LinePoint } from './money-lines';

/** A level drawn over the money: a step line (a floor a day, a target), on the same clock as the money lines. */
export interface MoneyLevel {
  title: string;
  color: string;
  /** Each point holds until the next one; a point without a value, or after a `GAP` colour, leaves a gap. */
  points: readonly LinePoint[];
  /** Dashed: a fixed level (a target) rather than one that moves day by day. */
  dashed?: boolean;
}

interface MoneyChartProps {
  points: readonly BalancePoint[];
  /** What the chart shows, for screen readers; without one the chart is hidden from them (a figure around it says). */
  label?: string;
  levels?: readonly MoneyLevel[];
}

const asChartData = (points: readonly LinePoint[]) => points.map((p) => ({ ...p, time: p.time as UTCTimestamp }));

/**
 * The balance (a step line: it moves only at a booking) and the equity (a line with gaps where it is not known,
 * never drawn across them; not drawn at all when it is known nowhere) of one account over time, in the account's
 * currency, with any levels drawn over them. The axis and the crosshair read money as the tables do (format.ts).
 */
export function MoneyChart({ points, label, levels = [] }: MoneyChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const lines = useMemo(() => moneyLines(points), [points]);

  useEffect(() => {
    const element = container.current;
    if (!element || lines.balance.length === 0) return;
    const times = [...lines.balance, ...levels.flatMap((level) => level.points)].map((p) => p.time);
    const span = Math.max(...times) - Math.min(...times);
    const chart = createChart(element, {
      ...baseChartOptions(element),
      timeScale: curveTimeScale(span),
      localization: { priceFormatter: (price: number) => formatMoney(price.toFixed(2), '') },
    });
    const common = { priceLineVisible: false, priceFormat: MONEY_FORMAT } as const;
    // The equity is drawn first and wider, so where it equals the balance (no position open) both stay visible.
    if (lines.equity.some((p) => p.value !== undefined))
      chart
        .addSeries(LineSeries, { ...common, color: MONEY_LINE_COLORS.equity, lineWidth: 3, title: 'Equity' })
        .setData(asChartData(lines.equity));
    chart
      .addSeries(LineSeries, {
        ...common,
        color: MONEY_LINE_COLORS.balance,
        lineWidth: 2,
        lineType: LineType.WithSteps,
        title: 'Balance',
      })
      .setData(asChartData(lines.balance));
    for (const level of levels)
      chart
        .addSeries(LineSeries, {
          ...common,
          color: level.color,
          lineWidth: 2,
          lineType: LineType.WithSteps,
          lineStyle: level.dashed ? LineStyle.Dashed : LineStyle.Solid,
          crosshairMarkerVisible: false,
          title: level.title,
        })
        .setData(asChartData(level.points));
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [lines, levels]);

  return label ? (
    <div ref={container} className="money-chart" role="img" aria-label={label} />
  ) : (
    <div ref={container} className="money-chart" aria-hidden="true" />
  );
}
