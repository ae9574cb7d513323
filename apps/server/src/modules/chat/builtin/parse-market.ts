import type { Granularity } from '@pipsense/contract';
import { isGranularity } from '../tools/market-names';
import { COUNT, NUMBER, numberValue, type TextScan } from './text-scan';

const CURRENCIES = [
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'CHF',
  'AUD',
  'NZD',
  'CAD',
  'SGD',
  'HKD',
  'SEK',
  'NOK',
  'DKK',
  'ZAR',
  'MXN',
  'TRY',
  'PLN',
  'CNH',
  'HUF',
  'CZK',
  'THB',
  'XAU',
  'XAG',
  'XPT',
  'XPD',
];
const CODE = `(${CURRENCIES.join('|').toLowerCase()})`;

/** Trader nicknames of the majors. */
const NICKNAMES: Array<[RegExp, string]> = [
  [/\bcable\b/, 'GBP_USD'],
  [/\b(?:fiber|fibre)\b/, 'EUR_USD'],
  [/\b(?:gopher|dollar[- ]yen|the yen)\b/, 'USD_JPY'],
  [/\b(?:aussie)\b/, 'AUD_USD'],
  [/\b(?:kiwi)\b/, 'NZD_USD'],
  [/\b(?:loonie)\b/, 'USD_CAD'],
  [/\b(?:swissy)\b/, 'USD_CHF'],
  [/\bgold\b/, 'XAU_USD'],
  [/\bsilver\b/, 'XAG_USD'],
];

/** Reads an instrument: EUR/USD, EUR_USD, eur-usd, eurusd, or a nickname such as "cable". */
export function parseInstrument(scan: TextScan): string | undefined {
  const m = scan.take(new RegExp(`\\b${CODE}\\s?[/_\\-]?\\s?${CODE}\\b`));
  if (m && m[1] !== m[2]) return `${m[1]!.toUpperCase()}_${m[2]!.toUpperCase()}`;
  for (const [pattern, instrument] of NICKNAMES) if (scan.take(pattern)) return instrument;
  return undefined;
}

function sized(prefix: 'S' | 'M' | 'H', n: number | undefined): Granularity | undefined {
  const code = `${prefix}${n ?? 1}`;
  return isGranularity(code) ? code : undefined;
}

/**
 * Reads a candle size in words or as OANDA's code: "5-minute", "15 minute chart", "hourly", "4h",
 * "daily", "weekly", "M15", "H1".
 */
export function parseGranularity(scan: TextScan): Granularity | undefined {
  let m = scan.take(new RegExp(`\\b${NUMBER}[ -]?(?:sec|secs|second|seconds|s)\\b`));
  if (m) return sized('S', numberValue(m[1]));
  m = scan.take(new RegExp(`\\b${NUMBER}[ -]?(?:min|mins|minute|minutes|m)\\b`));
  if (m) return sized('M', numberValue(m[1]));
  m = scan.take(new RegExp(`\\b${NUMBER}[ -]?(?:h|hr|hrs|hour|hours)\\b`));
  if (m) return sized('H', numberValue(m[1]));
  if (scan.take(/\b(?:one|1)[ -]?day\b|\bdaily\b|\bd1\b|\bday candles?\b/)) return 'D';
  if (scan.take(/\b(?:one|1)[ -]?week\b|\bweekly\b|\bw1\b|\bweek candles?\b/)) return 'W';
  if (scan.take(/\bmonthly\b|\bmonth candles?\b/)) return 'M';
  if (scan.take(/\bhourly\b|\bhour candles?\b|\ban hour\b/)) return 'H1';
  if (scan.take(/\bminute candles?\b|\bper minute\b|\bminutely\b/)) return 'M1';
  m = scan.take(/\b(s5|s10|s15|s30|m1|m2|m4|m5|m10|m15|m30|h1|h2|h3|h4|h6|h8|h12)\b/);
  if (m) return m[1]!.toUpperCase() as Granularity;
  return undefined;
}

/** "last 20 candles", "50 bars": how many candles. */
export function parseCandleCount(scan: TextScan): number | undefined {
  const m = scan.take(new RegExp(`\\b${COUNT} (?:[a-z/_-]+ ){0,3}?(?:candles|candlesticks|bars|periods)\\b`));
  return m ? numberValue(m[1]) : undefined;
}
