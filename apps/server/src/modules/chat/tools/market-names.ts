import { GRANULARITIES, type Granularity } from '@pipsense/contract';

/** How answers name OANDA's granularities. */
const GRANULARITY_LABELS: Record<Granularity, string> = {
  S5: '5-second',
  S10: '10-second',
  S15: '15-second',
  S30: '30-second',
  M1: '1-minute',
  M2: '2-minute',
  M4: '4-minute',
  M5: '5-minute',
  M10: '10-minute',
  M15: '15-minute',
  M30: '30-minute',
  H1: 'hourly',
  H2: '2-hour',
  H3: '3-hour',
  H4: '4-hour',
  H6: '6-hour',
  H8: '8-hour',
  H12: '12-hour',
  D: 'daily',
  W: 'weekly',
  M: 'monthly',
};

export const isGranularity = (value: string): value is Granularity =>
  (GRANULARITIES as readonly string[]).includes(value);

export const granularityLabel = (g: string): string => (isGranularity(g) ? GRANULARITY_LABELS[g] : g);

/** 'EUR_USD' → 'EUR/USD'. */
export const displayInstrument = (instrument: string): string => instrument.replace('_', '/');
