import { Suspense, useMemo, useState } from 'react';
import { CButton, CSpinner } from '@coreui/react';
import type { TradeListItem } from '@pipsense/contract';
import { formatInstrument } from '../../../components/data/format';
import {
  CHART_COLORS,
  candlesToBars,
  fitLevels,
  granularityLabel,
  isIntraday,
  pricePrecision,
} from '../../../components/charts/candle-series';
import { LazyCandleChart } from '../../../components/charts/lazy-candle-chart';
import { useTradeCandles } from '../api/trade-candles-api';
import { chartWindow } from '../model/chart-window';
import { allTradeMarkers, tradePriceLines } from '../model/chart-series';
import { EdgeLabels } from '../../../components/charts/edge-labels';

const LEGEND_LABELS: Record<string, string> = { SL: 'Stop loss', TP: 'Take profit' };
const EXCURSION_LEGEND = [
  { title: 'MAE', label: 'MAE (worst)', color: CHART_COLORS.mae },
  { title: 'MFE', label: 'MFE (best)', color: CHART_COLORS.mfe },
];

function ChartLoading() {
  return (
    <div className="trade-chart-frame trade-chart-state" role="status">
      <CSpinner size="sm" color="primary" aria-hidden="true" />
      <span>Loading candles…</span>
    </div>
  );
}

/** The instrument's price around the trade, from OANDA candles fetched through the server. */
export function TradeChart({ base, trade }: { base: string; trade: TradeListItem }) {
  // The window is fixed when the modal opens, so an open trade's chart does not refetch on every render.
  const [span] = useState(() => chartWindow(trade, Date.now()));
  const candles = useTradeCandles(base, span);
  const title = `${formatInstrument(trade.instrument)} · ${granularityLabel(span.granularity)} candles`;
  const lines = useMemo(() => tradePriceLines(trade), [trade]);
  const data = candles.data?.candles;
  const chart = useMemo(() => {
    if (!data) return undefined;
    const bars = candlesToBars(data);
    const precision = pricePrecision(data, trade.price);
    return { bars, precision, markers: allTradeMarkers(trade, bars), ...fitLevels(bars, lines, precision) };
  }, [data, trade, lines]);

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
  else if (!chart || chart.bars.length === 0)
    body = (
      <div className="trade-chart-frame trade-chart-state text-body-secondary" role="status">
        OANDA has no candles for this period (the market was closed).
      </div>
    );
  else
    body = (
      <Suspense fallback={<ChartLoading />}>
        <div className="trade-chart-frame">
          <LazyCandleChart
            bars={chart.bars}
            precision={chart.precision}
            intraday={isIntraday(span.granularity)}
            markers={chart.markers}
            priceLines={chart.lines}
            className="trade-chart-canvas"
            label={`${title}, with the trade's entry, exit, MAE and MFE marked`}
          />
          <EdgeLabels edges={chart.edges} describe={(title) => LEGEND_LABELS[title] ?? title} />
        </div>
      </Suspense>
    );

  return (
    <section className="trade-chart mb-4" aria-label="Price chart">
      <div className="d-flex flex-wrap justify-content-between align-items-baseline gap-2 mb-2">
        <h3 className="h6 mb-0">{title}</h3>
        <span className="trade-chart-legend small text-body-secondary">
          {lines.map((line) => (
            <span key={line.title} className={`legend-${line.style}`} style={{ borderColor: line.color }}>
              {LEGEND_LABELS[line.title] ?? line.title}
            </span>
          ))}
          {EXCURSION_LEGEND.filter(({ title }) => (title === 'MAE' ? trade.mae : trade.mfe) !== null).map((item) => (
            <span key={item.title} className="legend-dot" style={{ ['--legend-color' as string]: item.color }}>
              {item.label}
            </span>
          ))}
        </span>
      </div>
      {body}
    </section>
  );
}
