import { useEffect, useMemo, useRef } from 'react';
import { CandlestickSeries, createChart, type UTCTimestamp } from 'lightweight-charts';
import type { Attachment } from '@pipsense/contract';
import { candleSeries, summarizeCandles } from '../model/candle-points';
import { granularityLabels, instrumentLabel, type Granularity } from '../model/chat-options';

type CandlesAttachment = Extract<Attachment, { type: 'candles' }>;

const granularityName = (g: string) => granularityLabels[g as Granularity] ?? g;

/** The candles an answer was computed from, as a candlestick chart (loaded only when an answer carries one). */
export default function CandlesChart({ attachment }: { attachment: CandlesAttachment }) {
  const container = useRef<HTMLDivElement>(null);
  const series = useMemo(() => candleSeries(attachment.candles), [attachment.candles]);
  const summary = useMemo(() => summarizeCandles(series), [series]);
  // Daily, weekly and monthly candles start at midnight: their time of day says nothing.
  const intraday = !['D', 'W', 'M'].includes(attachment.granularity);

  useEffect(() => {
    const element = container.current;
    if (!element || series.points.length === 0) return;
    const styles = getComputedStyle(element);
    const text = styles.getPropertyValue('--cui-secondary-color').trim() || '#6b7785';
    const grid = styles.getPropertyValue('--cui-border-color-translucent').trim() || 'rgba(8, 10, 12, 0.1)';
    const chart = createChart(element, {
      autoSize: true,
      layout: { background: { color: 'transparent' }, textColor: text, fontSize: 11 },
      grid: { vertLines: { color: grid }, horzLines: { color: grid } },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false, timeVisible: intraday, secondsVisible: false },
      handleScroll: { mouseWheel: false },
      handleScale: { mouseWheel: false },
    });
    const candles = chart.addSeries(CandlestickSeries, {
      upColor: '#1b9e77',
      downColor: '#e55353',
      wickUpColor: '#1b9e77',
      wickDownColor: '#e55353',
      borderVisible: false,
      priceFormat: { type: 'price', precision: series.precision, minMove: 1 / 10 ** series.precision },
    });
    candles.setData(series.points.map((p) => ({ ...p, time: p.time as UTCTimestamp })));
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [series, intraday]);

  const caption = `${instrumentLabel(attachment.instrument)} · ${granularityName(attachment.granularity)} · ${series.points.length} candles`;
  return (
    <figure className="chat-attachment mb-0">
      <figcaption className="small fw-semibold mb-1">{caption}</figcaption>
      {series.points.length === 0 ? (
        <p className="small text-body-secondary mb-0">No mid prices to chart.</p>
      ) : (
        <>
          <div ref={container} className="chat-candles" role="img" aria-label={`Candlestick chart: ${caption}`} />
          {summary && (
            <dl className="chat-candle-summary small mb-0">
              <div>
                <dt>Last</dt>
                <dd>{summary.lastClose}</dd>
              </div>
              <div>
                <dt>Change</dt>
                <dd
                  className={
                    summary.change.startsWith('-')
                      ? 'text-danger'
                      : summary.change.startsWith('+')
                        ? 'text-success'
                        : ''
                  }
                >
                  {summary.change} ({summary.changePercent})
                </dd>
              </div>
              <div>
                <dt>High</dt>
                <dd>{summary.high}</dd>
              </div>
              <div>
                <dt>Low</dt>
                <dd>{summary.low}</dd>
              </div>
            </dl>
          )}
        </>
      )}
    </figure>
  );
}
