import { useEffect, useMemo, useRef } from 'react';
import { BaselineSeries, createChart, type UTCTimestamp } from 'lightweight-charts';
import type { ChartPoint } from '@pipsense/contract';
import { toLocalTimes } from '../../../components/charts/local-times';
import { maxDrawdown, PL_COLORS, signedMoney } from '../model/chart-data';
import { baseChartOptions, curveTimeScale, MONEY_FORMAT } from '../../../components/charts/chart-theme';

const asSeries = (points: readonly ChartPoint[]) =>
  points.map((p) => ({ time: p.time as UTCTimestamp, value: p.value }));

interface EquityChartProps {
  equityCurve: readonly ChartPoint[];
  drawdown: readonly ChartPoint[];
}

/**
 * The closed-trade equity curve (cumulative realized P/L, green above zero and red below) with its drawdown from the
 * running peak in a pane underneath, the way traders read an 'underwater' chart.
 */
export function EquityChart({ equityCurve, drawdown }: EquityChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const equity = useMemo(() => toLocalTimes(equityCurve), [equityCurve]);
  const underwater = useMemo(() => toLocalTimes(drawdown), [drawdown]);
  const last = equityCurve.at(-1)?.value ?? 0;
  const deepest = maxDrawdown(drawdown);

  useEffect(() => {
    const element = container.current;
    if (!element || equity.length === 0) return;
    const first = equity[0]!.time;
    const span = equity[equity.length - 1]!.time - first;
    const base = baseChartOptions(element);
    const chart = createChart(element, { ...base, timeScale: curveTimeScale(span) });
    const curve = chart.addSeries(BaselineSeries, {
      baseValue: { type: 'price', price: 0 },
      topLineColor: PL_COLORS.profit,
      topFillColor1: 'rgba(46, 184, 92, 0.28)',
      topFillColor2: 'rgba(46, 184, 92, 0.04)',
      bottomLineColor: PL_COLORS.loss,
      bottomFillColor1: 'rgba(229, 83, 83, 0.04)',
      bottomFillColor2: 'rgba(229, 83, 83, 0.28)',
      lineWidth: 2,
      priceLineVisible: false,
      priceFormat: MONEY_FORMAT,
      title: 'Equity',
    });
    curve.setData(asSeries(equity));
    if (underwater.length > 0) {
      const dd = chart.addSeries(
        BaselineSeries,
        {
          baseValue: { type: 'price', price: 0 },
          topLineColor: 'transparent',
          topFillColor1: 'transparent',
          topFillColor2: 'transparent',
          bottomLineColor: PL_COLORS.loss,
          bottomFillColor1: 'rgba(229, 83, 83, 0.1)',
          bottomFillColor2: 'rgba(229, 83, 83, 0.35)',
          lineWidth: 1,
          priceLineVisible: false,
          lastValueVisible: false,
          priceFormat: MONEY_FORMAT,
          title: 'Drawdown',
        },
        1,
      );
      dd.setData(asSeries(underwater));
      // The curve is the story; the drawdown pane is its footnote.
      chart.panes()[0]?.setStretchFactor(2);
      chart.panes()[1]?.setStretchFactor(1);
    }
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [equity, underwater]);

  if (equity.length === 0)
    return <p className="overview-chart-empty">No closed trades yet: the curve starts with the first closed trade.</p>;
  return (
    <>
      <dl className="stat-list">
        <div>
          <dt>Net realized P/L</dt>
          <dd className={last > 0 ? 'text-success' : last < 0 ? 'text-danger' : ''}>{signedMoney(last)}</dd>
        </div>
        <div>
          <dt>Max drawdown</dt>
          <dd className={deepest > 0 ? 'text-danger' : ''}>{signedMoney(-deepest)}</dd>
        </div>
      </dl>
      <div
        ref={container}
        className="overview-chart overview-chart-equity"
        role="img"
        aria-label={`Equity curve of closed trades, ending at ${signedMoney(last)}, with its drawdown from the peak (deepest ${signedMoney(-deepest)})`}
      />
    </>
  );
}
