import { Suspense, useMemo } from 'react';
import { CSpinner } from '@coreui/react';
import type { Attachment } from '@pipsense/contract';
import { granularityLabel, isIntraday } from '../../../components/charts/candle-series';
import { LazyCandleChart } from '../../../components/charts/lazy-candle-chart';
import { candleSeries, summarizeCandles } from '../model/candle-points';
import { instrumentLabel } from '../model/chat-options';

/** A rise in green, a fall in red, no change in the body colour. */
const changeClass = (change: string) =>
  change.startsWith('-') ? 'text-danger' : change.startsWith('+') ? 'text-success' : '';

type CandlesAttachment = Extract<Attachment, { type: 'candles' }>;

/** The candles an answer was computed from: a candlestick chart (loaded on first use) and its key figures. */
export function CandlesFigure({ attachment }: { attachment: CandlesAttachment }) {
  const series = useMemo(() => candleSeries(attachment.candles), [attachment.candles]);
  const summary = useMemo(() => summarizeCandles(series), [series]);
  const caption = `${instrumentLabel(attachment.instrument)} · ${granularityLabel(attachment.granularity)} · ${series.points.length} candles`;
  return (
    <figure className="chat-attachment mb-0">
      <figcaption className="small fw-semibold mb-1">{caption}</figcaption>
      {series.points.length === 0 ? (
        <p className="small text-body-secondary mb-0">No mid prices to chart.</p>
      ) : (
        <>
          <Suspense
            fallback={
              <div className="chat-candles d-flex align-items-center justify-content-center text-body-secondary small">
                <CSpinner size="sm" className="me-2" aria-hidden="true" /> Loading chart…
              </div>
            }
          >
            <LazyCandleChart
              bars={series.points}
              precision={series.precision}
              intraday={isIntraday(attachment.granularity)}
              className="chat-candles"
              label={`Candlestick chart: ${caption}`}
              wheel={false}
            />
          </Suspense>
          {summary && (
            <dl className="chat-candle-summary small mb-0">
              {[
                ['Last', summary.lastClose, ''],
                ['Change', `${summary.change} (${summary.changePercent})`, changeClass(summary.change)],
                ['High', summary.high, ''],
                ['Low', summary.low, ''],
              ].map(([term, value, className]) => (
                <div key={term}>
                  <dt>{term}</dt>
                  <dd className={className || undefined}>{value}</dd>
                </div>
              ))}
            </dl>
          )}
        </>
      )}
    </figure>
  );
}
