/**
 * Money of several currencies is never added as plain numbers (docs/decisions/024-currencies-never-mixed.md). Every
 * money figure that spans accounts is one of:
 *
 * - **single**: every amount is in one currency: the exact sum, in that currency (what a one-currency trader always
 *   saw; no rate is looked up, whatever the home currency);
 * - **converted**: several currencies, and every amount's rate into the home currency on its day is known: each
 *   amount is converted at its day's rate (the close of the day's daily candle, mid), rounded to the 4 decimals money
 *   is kept in (money.ts), and the results summed exactly;
 * - **listed**: several currencies and some rate is missing: the exact sum per currency, `[{currency, amount}]`,
 *   ordered by currency code; the screens show each with its code, side by side.
 *
 * This file is the rule; the Overview, the assistant, the P/L calendar and the export call it.
 */
import { divideDecimals, multiplyDecimals, roundDecimal, sumDecimals, sumsByCurrency } from './decimal';

export { sumsByCurrency };

/** Decimals of an inverted rate: enough that 10^12 units of a currency convert to the cent. */
const INVERSE_PLACES = 20;
/** The currency a cross rate goes through when neither pair is quoted. */
const CROSS = 'USD';

/** The daily closes of currency pairs, as the candle store reads them (mid close of a complete 'D' candle). */
export interface DailyCloses {
  /** The exact mid close of `instrument` ('EUR_USD') on the UTC day `day` ('2025-03-14'), or null when not known. */
  close(instrument: string, day: string): Promise<string | null>;
}

/** How much `to` one unit of `from` was worth on `day` (UTC 'YYYY-MM-DD'); null when not known. */
export interface DailyRates {
  rate(from: string, to: string, day: string): Promise<string | null>;
}

/** No source of rates yet: every figure of several currencies is listed per currency. */
export const noDailyRates: DailyRates = {
  rate: (from, to) => Promise.resolve(from === to ? '1' : null),
};

/**
 * Rates from daily closes: the direct pair (`JPY` → `USD` reads `JPY_USD`), else the inverse (1 / `USD_JPY`), else a
 * cross through USD (`EUR` → `JPY` = `EUR` → `USD` × `USD` → `JPY`, each direct or inverse).
 */
export function ratesFromCloses(closes: DailyCloses): DailyRates {
  async function pair(from: string, to: string, day: string): Promise<string | null> {
    if (from === to) return '1';
    const direct = await closes.close(`${from}_${to}`, day);
    if (direct !== null) return direct;
    const inverse = await closes.close(`${to}_${from}`, day);
    if (inverse !== null && Number(inverse) !== 0) return divideDecimals('1', inverse, INVERSE_PLACES);
    return null;
  }
  return {
    async rate(from, to, day) {
      const rate = await pair(from, to, day);
      if (rate !== null || from === CROSS || to === CROSS) return rate;
      const [first, second] = await Promise.all([pair(from, CROSS, day), pair(CROSS, to, day)]);
      return first === null || second === null ? null : multiplyDecimals(first, second);
    },
  };
}

interface CurrencyAmount {
  currency: string;
  amount: string;
}

/** An amount of one currency booked on one UTC day (a trade's close day). */
export interface DatedAmount extends CurrencyAmount {
  day: string;
}

/** A money figure that may span accounts (see the top of this file). */
export type MoneyFigure =
  | { mode: 'single'; currency: string; amount: string }
  | { mode: 'converted'; currency: string; amount: string; from: string[] }
  | { mode: 'listed'; byCurrency: CurrencyAmount[] };

type CurrencyMode = MoneyFigure['mode'];

/**
 * The rates a set of figures needs, looked up once: `converts` is true when the figures are to be converted (several
 * currencies, every rate known), false when they are single or listed.
 */
export interface Conversion {
  home: string;
  currencies: string[];
  mode: CurrencyMode;
  /** The rate of `currency` on `day` into the home currency (only when mode is 'converted'). */
  rateOf(currency: string, day: string): string;
  /**
   * When listed for want of a rate: the first one found missing, so that a view kept listed can ask for that one rate
   * later and know whether it is still missing; null otherwise (an account whose currency is not known yet lists a
   * view without any rate asked).
   */
  missing: { currency: string; day: string } | null;
}

const rateKey = (currency: string, day: string) => `${currency}|${day}`;

/**
 * Decides how figures over these amounts are shown, and looks up the rates a conversion needs (each currency and day
 * once). `needs` lists every currency and day an amount may be booked on.
 */
export async function prepareConversion(
  home: string,
  needs: Iterable<{ currency: string; day: string }>,
  rates: DailyRates,
): Promise<Conversion> {
  const wanted = new Map<string, { currency: string; day: string }>();
  const currencies = new Set<string>();
  for (const need of needs) {
    currencies.add(need.currency);
    if (need.currency !== home) wanted.set(rateKey(need.currency, need.day), need);
  }
  const codes = [...currencies].sort();
  const table = new Map<string, string>();
  const rateOf = (currency: string, day: string): string => {
    if (currency === home) return '1';
    const rate = table.get(rateKey(currency, day));
    if (rate === undefined) throw new Error(`no rate of ${currency} on ${day}`);
    return rate;
  };
  if (codes.length <= 1) return { home, currencies: codes, mode: 'single', rateOf, missing: null };
  // An unknown currency ('' : an account not summarised yet) has no rate: listed.
  const complete = !currencies.has('');
  let missing: Conversion['missing'] = null;
  for (const [key, need] of complete ? wanted : []) {
    const rate = await rates.rate(need.currency, home, need.day);
    if (rate === null) {
      missing = { currency: need.currency, day: need.day };
      break;
    }
    table.set(key, rate);
  }
  const mode = complete && missing === null ? 'converted' : 'listed';
  return { home, currencies: codes, mode, rateOf, missing };
}

/** `amount` of `currency` booked on `day` in the home currency, rounded to 4 decimals (conversion 'converted'). */
export function convertAmount(conversion: Conversion, amount: string, currency: string, day: string): string {
  if (currency === conversion.home) return amount;
  return roundDecimal(multiplyDecimals(amount, conversion.rateOf(currency, day)), 4);
}

/**
 * The one figure of these amounts under the rule (see the top of this file). The conversion decides for the whole
 * view: in a converted view a part of one currency is converted too, and in a listed one it is a list of one, so
 * that the parts of a view (the days of a month) add up in one currency or per currency.
 */
export function moneyFigure(conversion: Conversion, items: Iterable<DatedAmount>): MoneyFigure {
  const list = [...items];
  const byCurrency = sumsByCurrency(list);
  if (conversion.mode === 'single') {
    const only = byCurrency[0] ?? { currency: conversion.currencies[0] ?? conversion.home, amount: '0' };
    return { mode: 'single', currency: only.currency, amount: only.amount };
  }
  if (conversion.mode === 'listed') return { mode: 'listed', byCurrency };
  const amount = sumDecimals([
    '0',
    ...list.map((item) => convertAmount(conversion, item.amount, item.currency, item.day)),
  ]);
  return {
    mode: 'converted',
    currency: conversion.home,
    amount,
    from: byCurrency.map((item) => item.currency),
  };
}

/** prepareConversion and moneyFigure in one call, for a single figure. */
export async function totalAcrossCurrencies(
  home: string,
  items: readonly DatedAmount[],
  rates: DailyRates,
): Promise<MoneyFigure> {
  return moneyFigure(await prepareConversion(home, items, rates), items);
}

/** The UTC day ('YYYY-MM-DD') of a time in epoch milliseconds or ISO-8601. */
export function utcDay(time: number | string): string {
  return new Date(time).toISOString().slice(0, 10);
}

/**
 * The day whose rate converts what is open now (unrealized P/L, balances): the last complete daily candle's, the day
 * before `now` in UTC (the forming candle is never stored).
 */
export function lastCompleteDay(now: Date): string {
  return utcDay(now.getTime() - 86_400_000);
}
