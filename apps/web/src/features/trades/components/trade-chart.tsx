import { lazy, Suspense, useState } from 'react';
import { CButton, CSpinner } from '@coreui/react';
import type { TradeItem } from '@pipsense/contract';
import { formatInstrument } from '../../../components/data/format';
import { useTradeCandles } from '../api/trade-candles-api';
import { chartWindow } from '../model/chart-window';
import { tradePriceLines } from '../model/chart-series';

// The charting library is only needed once a trade is opened; keep it out of the screen's first load.
const CandleChart = lazy(() => import('./candle-chart').then((module) => ({ default: module.CandleChart })));

const GRANULARITY_LABELS: Record<string, string> = {
  M1: '1-minute',
  M5: '5-minute',
  M15: '15-minute',
  M30: '30-minute',
  H1: 'hourly',
  H4: '4-hour',
  D: 'daily',
  W: 'weekly',
};

const LEGEND_LABELS: Record<string, string> = { SL: 'Stop loss', TP: 'Take profit' };

function ChartLoading() {
  return (
    <div className="trade-chart-frame trade-chart-state" role="status">
      <CSpinner size="sm" color="primary" aria-hidden="true" />
      <span>Loading candles…</span>
    </div>
  );
}

/** The instrument's price around the trade, from OANDA candles fetched through the server. */
export function TradeChart({ base, trade }: { base: string; trade: TradeItem }) {
  // The window is fixed when the modal opens, so an open trade's chart does not refetch on every render.
  const [span] = useState(() => chartWindow(trade, Date.now()));
  const candles = useTradeCandles(base, span);
  const granularity = GRANULARITY_LABELS[span.granularity] ?? span.granularity;
  const title = `${formatInstrument(trade.instrument)} · ${granularity} candles`;

  let body;
  if (candles.isPending) body = <ChartLoading />;
  else if (candles.isError)
    body = (
      <div className="trade-chart-frame trade-chart-state flex-column text-center" role="alert">
        <span className="text-danger fw-semibold">The chart could not be loaded.</span>
        <span className="text-body-secondary small">{candles.error.message}</span>
        <CButton size="sm" color="danger" variant="outline" onClick={() => void candles.refetch()}>
          Try again
        </CButton>
      </div>
    );
  else if (candles.data.candles.length === 0)
    body = (
      <div className="trade-chart-frame trade-chart-state text-body-secondary" role="status">
        OANDA has no candles for this period (the market was closed).
      </div>
    );
  else
    body = (
      <Suspense fallback={<ChartLoading />}>
        <div className="trade-chart-frame">
          <CandleChart
            candles={candles.data.candles}
            trade={trade}
            intraday={span.granularity !== 'D' && span.granularity !== 'W'}
            label={`${title}, with the trade's entry and exit marked`}
          />
        </div>
      </Suspense>
    );

  return (
    <section className="trade-chart mb-4" aria-label="Price chart">
      <div className="d-flex flex-wrap justify-content-between align-items-baseline gap-2 mb-2">
        <h3 className="h6 mb-0">{title}</h3>
        <span className="trade-chart-legend small text-body-secondary">
          {tradePriceLines(trade).map((line) => (
            <span key={line.title} className={`legend-${line.style}`} style={{ borderColor: line.color }}>
              {LEGEND_LABELS[line.title] ?? line.title}
            </span>
          ))}
        </span>
      </div>
      {body}
    </section>
  );
}
