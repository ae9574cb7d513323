import { useEffect, useMemo, useRef, useState } from 'react';
import { createChart, HistogramSeries, type MouseEventParams, type Time, type UTCTimestamp } from 'lightweight-charts';
import type { BucketFacts } from '@pipsense/contract';
import { bucketSeries, bucketSummary, type BucketKind } from '../model/chart-data';
import { baseChartOptions, MONEY_FORMAT } from '../../../components/charts/chart-theme';

interface BucketChartProps {
  buckets: readonly (BucketFacts & { hour?: number })[];
  kind: BucketKind;
  /** For the accessible name: 'Net P/L by weekday'. */
  label: string;
}

/** Best and worst buckets with closed trades, or null when none has any. */
function extremes(buckets: readonly BucketFacts[]): { best: BucketFacts; worst: BucketFacts } | null {
  const traded = buckets.filter((bucket) => bucket.trades > 0);
  if (traded.length === 0) return null;
  let best = traded[0]!;
  let worst = traded[0]!;
  for (const bucket of traded) {
    if (bucket.netPL > best.netPL) best = bucket;
    if (bucket.netPL < worst.netPL) worst = bucket;
  }
  return { best, worst };
}

/**
 * Net P/L of closed trades per weekday or hour as a histogram. lightweight-charts has only a time axis, so each bucket
 * sits on a stand-in time (see bucketSeries) and the axis and crosshair print the bucket's label; the line under the
 * chart names the bucket under the crosshair, or the best and worst ones.
 */
export function BucketChart({ buckets, kind, label }: BucketChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const series = useMemo(() => bucketSeries(buckets, kind), [buckets, kind]);
  const [hovered, setHovered] = useState<BucketFacts | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element || !series.hasTrades) return;
    const bucketAt = (time: Time | undefined) => (typeof time === 'number' ? series.byTime.get(time) : undefined);
    const chart = createChart(element, {
      ...baseChartOptions(element),
      timeScale: {
        borderVisible: false,
        fixLeftEdge: true,
        fixRightEdge: true,
        lockVisibleTimeRangeOnResize: true,
        // The labels are 'Mon' or '09', not the 8-character dates the spacing is estimated for by default.
        tickMarkMaxCharacterLength: kind === 'weekday' ? 3 : 2,
        tickMarkFormatter: (time: Time) => (typeof time === 'number' ? (series.ticks.get(time) ?? '') : ''),
      },
      localization: { timeFormatter: (time: Time) => bucketAt(time)?.label ?? '' },
      handleScroll: false,
      handleScale: false,
    });
    const histogram = chart.addSeries(HistogramSeries, {
      priceFormat: MONEY_FORMAT,
      priceLineVisible: false,
      lastValueVisible: false,
      base: 0,
    });
    histogram.setData(series.bars.map((bar) => ({ ...bar, time: bar.time as UTCTimestamp })));
    chart.timeScale().fitContent();
    const onMove = (param: MouseEventParams<Time>) => setHovered(bucketAt(param.time) ?? null);
    chart.subscribeCrosshairMove(onMove);
    return () => {
      chart.unsubscribeCrosshairMove(onMove);
      chart.remove();
    };
  }, [series, kind]);

  if (!series.hasTrades) return <p className="overview-chart-empty">No closed trades yet.</p>;
  const ends = extremes(buckets);
  return (
    <>
      <div ref={container} className="overview-chart overview-chart-bucket" role="img" aria-label={label} />
      <p className="overview-chart-caption" aria-live="polite">
        {hovered !== null
          ? bucketSummary(hovered)
          : ends !== null && (
              <>
                <span>Best {bucketSummary(ends.best)}</span>
                {ends.worst !== ends.best && <span>Worst {bucketSummary(ends.worst)}</span>}
              </>
            )}
      </p>
    </>
  );
}
