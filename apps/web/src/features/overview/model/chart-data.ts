import type { BucketFacts, ChartPoint, OverviewCharts } from '@pipsense/contract';
import { formatInstrument } from '../../../components/data/format';

export const PL_COLORS = { profit: '#2eb85c', loss: '#e55353', equity: '#321fdb' } as const;

/** The deepest drawdown of the curve as a positive amount (0 when the curve never fell from a peak). */
export function maxDrawdown(drawdown: readonly ChartPoint[]): number {
  let deepest = 0;
  for (const point of drawdown) if (point.value < deepest) deepest = point.value;
  return deepest < 0 ? -deepest : 0;
}

const money = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** '+1,234.50', '-12.00', '0.00': the sign is part of a P/L figure. */
export function signedMoney(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  const text = money.format(Math.abs(rounded));
  return rounded > 0 ? `+${text}` : rounded < 0 ? `-${text}` : text;
}

interface InstrumentBar {
  instrument: string;
  label: string;
  netPL: number;
  trades: number;
  /** Bar length, % of the largest absolute net P/L (at least 1 when not zero). */
  share: number;
}

/** Net P/L per instrument, best first, each bar scaled to the largest result either way. */
export function instrumentBars(rows: OverviewCharts['pnlByInstrument']): InstrumentBar[] {
  const largest = rows.reduce((max, row) => Math.max(max, Math.abs(row.netPL)), 0);
  return [...rows]
    .sort((a, b) => b.netPL - a.netPL || a.instrument.localeCompare(b.instrument))
    .map((row) => ({
      instrument: row.instrument,
      label: formatInstrument(row.instrument),
      netPL: row.netPL,
      trades: row.trades,
      // A result much smaller than the largest still gets a sliver of bar, so it does not read as zero.
      share: row.netPL === 0 || largest === 0 ? 0 : Math.max(1, (Math.abs(row.netPL) / largest) * 100),
    }));
}

/**
 * lightweight-charts only knows a time axis, so each weekday or hour is given a stand-in time: one day apart from
 * Monday 8 January 2024 (UTC). Days 8 to 31 of one month carry the same tick weight, so the axis treats every bucket
 * alike (a month or day boundary would print bold); the axis and the crosshair then print the bucket's own label.
 */
export const CATEGORY_EPOCH = Date.UTC(2024, 0, 8) / 1000;
const CATEGORY_STEP = 86_400;

export type BucketKind = 'weekday' | 'hour';

interface BucketBar {
  time: number;
  /** Absent for a bucket without closed trades: the slot stays, with no bar. */
  value?: number;
  color?: string;
}

interface BucketSeries {
  bars: BucketBar[];
  /** Stand-in time → the bucket, for the crosshair legend. */
  byTime: Map<number, BucketFacts>;
  /** Stand-in time → the axis label: 'Mon' for a weekday, '09' for the hour 09:00–10:00. */
  ticks: Map<number, string>;
  /** Whether any bucket has a closed trade. */
  hasTrades: boolean;
}

export function bucketSeries(buckets: readonly (BucketFacts & { hour?: number })[], kind: BucketKind): BucketSeries {
  const byTime = new Map<number, BucketFacts>();
  const ticks = new Map<number, string>();
  const bars = buckets.map((bucket, index): BucketBar => {
    const time = CATEGORY_EPOCH + index * CATEGORY_STEP;
    byTime.set(time, bucket);
    ticks.set(time, kind === 'weekday' ? bucket.label.slice(0, 3) : String(bucket.hour ?? index).padStart(2, '0'));
    if (bucket.trades === 0) return { time };
    return { time, value: bucket.netPL, color: bucket.netPL >= 0 ? PL_COLORS.profit : PL_COLORS.loss };
  });
  return { bars, byTime, ticks, hasTrades: buckets.some((bucket) => bucket.trades > 0) };
}

/** One line on a bucket: 'Tuesday: +120.50 over 14 trades, 57.1% wins'. */
export function bucketSummary(bucket: BucketFacts): string {
  if (bucket.trades === 0) return `${bucket.label}: no closed trades`;
  const trades = `${bucket.trades.toLocaleString()} ${bucket.trades === 1 ? 'trade' : 'trades'}`;
  const wins = bucket.winRate === null ? '' : `, ${bucket.winRate.toFixed(1)}% wins`;
  return `${bucket.label}: ${signedMoney(bucket.netPL)} over ${trades}${wins}`;
}
