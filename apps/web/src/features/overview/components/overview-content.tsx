import { CCol, CRow } from '@coreui/react';
import type { DashboardMetrics } from '@pipsense/contract';
import { activityCards, analysisCards, breakdownCard, headlineCards } from '../model/overview-cards';
import { BucketChart } from './bucket-chart';
import { ByTagCard } from './by-tag-card';
import { ChartCard } from './chart-card';
import { EquityChart } from './equity-chart';
import { InsightsSource } from './insights-source';
import { InstrumentPnl } from './instrument-pnl';
import { MetricCard } from './metric-card';
import { MoneyFigures } from './money-figures';
import { NoImportedTradesCallout, NoTradesCallout } from './no-trades-callout';
import { RuleBreakLine } from './rule-break-line';

/** The loaded overview: headline figures, charts, the insight and analysis cards, then the per-instrument detail. */
export function OverviewContent({
  metrics,
  timeZone,
  imported = false,
  onFilterTag,
}: {
  metrics: DashboardMetrics;
  timeZone: string;
  /** The platform's trades are imported (MetaTrader): the empty callout points to the import. */
  imported?: boolean;
  /** Slices the overview by a tag of the by-tag breakdown. */
  onFilterTag: (tagId: string) => void;
}) {
  const { charts } = metrics;
  // With several currencies the charts are of one currency (converted, or one currency's accounts): say which.
  const chartsIn =
    metrics.currency && metrics.currency.mode !== 'single' && metrics.currency.chartsCurrency
      ? ` (${metrics.currency.chartsCurrency})`
      : '';
  return (
    <div className="overview-content">
      {metrics.tradeCount === 0 && (imported ? <NoImportedTradesCallout /> : <NoTradesCallout />)}

      <CRow className="g-3 mb-3">
        {headlineCards(metrics, imported).map((card) => (
          <CCol key={card.title} xs={6} xl={3}>
            <MetricCard card={card} />
          </CCol>
        ))}
        {activityCards(metrics).map((card) => (
          <CCol key={card.title} xs={card.kind === 'text' ? 12 : 6} xl={card.kind === 'text' ? 6 : 3}>
            <MetricCard card={card} />
          </CCol>
        ))}
      </CRow>

      <MoneyFigures metrics={metrics} />
      <RuleBreakLine ruleBreaks={metrics.ruleBreaks} />

      <CRow className="g-3 mb-3">
        <CCol xs={12} xl={8}>
          <ChartCard
            title="Equity Curve"
            note={`Cumulative realized P/L of closed trades, and its drawdown from the peak${chartsIn}`}
          >
            <EquityChart equityCurve={charts.equityCurve} drawdown={charts.drawdown} />
          </ChartCard>
        </CCol>
        <CCol xs={12} xl={4}>
          <ChartCard title="Net P/L by Instrument" note={`Realized P/L of closed trades, best first${chartsIn}`}>
            <InstrumentPnl rows={charts.pnlByInstrument} />
          </ChartCard>
        </CCol>
        <CCol xs={12} lg={6}>
          <ChartCard
            title="Results by Weekday"
            note={`Net P/L of closed trades by the day they opened (${timeZone})${chartsIn}`}
          >
            <BucketChart buckets={charts.byWeekday} kind="weekday" label="Net P/L of closed trades by weekday" />
          </ChartCard>
        </CCol>
        <CCol xs={12} lg={6}>
          <ChartCard
            title="Results by Hour"
            note={`Net P/L of closed trades by the hour they opened (${timeZone})${chartsIn}`}
          >
            <BucketChart buckets={charts.byHour} kind="hour" label="Net P/L of closed trades by hour of the day" />
          </ChartCard>
        </CCol>
      </CRow>

      <ByTagCard byTag={metrics.byTag} onFilterTag={onFilterTag} />

      <div className="overview-section-head">
        <h2 className="h6 mb-0">Insights and analysis</h2>
        <InsightsSource insights={metrics.insights} />
      </div>
      <div className="overview-analysis mb-3">
        {analysisCards(metrics).map((card) => (
          <div key={card.title} className="overview-analysis-item">
            <MetricCard card={card} />
          </div>
        ))}
      </div>

      <MetricCard card={breakdownCard(metrics)} />
    </div>
  );
}
