/**
 * Deterministic, realistic-looking trade history for benchmarks and property tests: the same
 * (n, seed) always gives the same trades. Shapes follow OANDA: trade ids are increasing digit
 * strings, prices carry the instrument's display precision, money 4 decimals, no trades open
 * during the weekend close (Friday 21:00 – Sunday 21:00 UTC).
 */
import { rMultipleOf } from '../domain/risk';
import type { EngineAccount, EngineTrade } from '../modules/analytics/engine/types';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../domain/calendar';
import { engineTrade } from '../modules/analytics/engine/trade-record';

/** The instant the synthetic history ends; pass it as EngineOptions.now. */
export const SYNTHETIC_NOW = new Date('2025-10-03T14:30:00.000Z');
export const SYNTHETIC_ACCOUNT_IDS = ['101-004-27183640-001', '101-004-27183640-002'] as const;
const STARTING_BALANCE = 100_000;

interface InstrumentModel {
  name: string;
  price: number;
  decimals: number;
  /** Daily volatility as a fraction of price. */
  dailyVol: number;
  weight: number;
  gold: boolean;
  jpyQuote: boolean;
}

const INSTRUMENTS: readonly InstrumentModel[] = [
  { name: 'EUR_USD', price: 1.1, decimals: 5, dailyVol: 0.005, weight: 30, gold: false, jpyQuote: false },
  { name: 'GBP_USD', price: 1.3, decimals: 5, dailyVol: 0.006, weight: 15, gold: false, jpyQuote: false },
  { name: 'USD_JPY', price: 148, decimals: 3, dailyVol: 0.006, weight: 20, gold: false, jpyQuote: true },
  { name: 'AUD_USD', price: 0.66, decimals: 5, dailyVol: 0.007, weight: 10, gold: false, jpyQuote: false },
  { name: 'EUR_JPY', price: 162, decimals: 3, dailyVol: 0.007, weight: 10, gold: false, jpyQuote: true },
  { name: 'XAU_USD', price: 2400, decimals: 3, dailyVol: 0.01, weight: 15, gold: true, jpyQuote: false },
];
const TOTAL_WEIGHT = INSTRUMENTS.reduce((sum, item) => sum + item.weight, 0);
const FX_LOTS = [1000, 2000, 5000, 10_000, 10_000, 20_000, 50_000];

/** mulberry32: tiny, fast, good enough for test data. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const SCALES = [1, 10, 100, 1000, 10_000, 100_000];

/**
 * `value` rounded to `decimals` places (at most 5), as the nearest double: prints with at most that many
 * decimals. Arithmetic rather than Number(toFixed()), which made two throwaway strings per field; the
 * `+ 0` turns -0 into 0, which a trade stores inline while -0 takes a heap box (see trade-record.ts).
 */
function fixed(value: number, decimals: number): number {
  const scale = SCALES[decimals]!;
  return Math.round(value * scale) / scale + 0;
}

/** Moves an instant back out of the weekend close to Friday 20:59 UTC. */
function outOfWeekend(ms: number): number {
  const day = Math.floor(ms / DAY_MS);
  const weekday = (((day + 4) % 7) + 7) % 7;
  const inDay = ms - day * DAY_MS;
  const fridayClose = (d: number): number => d * DAY_MS + 21 * HOUR_MS - MINUTE_MS;
  if (weekday === 6) return fridayClose(day - 1);
  if (weekday === 0 && inDay < 21 * HOUR_MS) return fridayClose(day - 2);
  if (weekday === 5 && inDay >= 21 * HOUR_MS) return fridayClose(day);
  return ms;
}

export function generateSyntheticTrades(n: number, seed: number): EngineTrade[] {
  const next = random(seed);
  const normal = (): number => {
    const u = Math.max(next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
  };
  const end = SYNTHETIC_NOW.getTime();

  // Open times walk backwards from the end with ~25 min average gaps, skipping weekends.
  const openTimes = new Float64Array(n);
  let cursor = end - 5 * MINUTE_MS;
  for (let k = n - 1; k >= 0; k--) {
    cursor = outOfWeekend(cursor - Math.max(1000, -Math.log(Math.max(next(), 1e-12)) * 25 * MINUTE_MS));
    openTimes[k] = Math.round(cursor / 1000) * 1000;
  }

  const trades: EngineTrade[] = [];
  let lastLossClose = -Infinity;
  for (let k = 0; k < n; k++) {
    let pick = next() * TOTAL_WEIGHT;
    let model = INSTRUMENTS[0]!;
    for (const candidate of INSTRUMENTS) {
      pick -= candidate.weight;
      if (pick < 0) {
        model = candidate;
        break;
      }
    }
    const opened = openTimes[k]!;
    const direction = next() < 0.55 ? 1 : -1;
    // Mostly the usual size, sometimes another; a minority of losses is answered by a doubled
    // trade soon after, as real traders do.
    let size =
      next() < 0.75
        ? model.gold
          ? 10
          : 10_000
        : model.gold
          ? 1 + Math.floor(next() * 20)
          : FX_LOTS[Math.floor(next() * FX_LOTS.length)]!;
    if (opened - lastLossClose < 30 * MINUTE_MS && next() < 0.3) size *= 2;
    const units = direction * size;

    // Holding time: log-normal around 2 hours, minutes to weeks.
    const holdMs = Math.max(30_000, Math.exp(Math.log(2 * HOUR_MS) + 1.6 * normal()));
    const closedAt = Math.round((opened + holdMs) / 1000) * 1000;
    const isOpen = closedAt > end;
    // Price drifts slowly so that a history of years spans a plausible range.
    const price = model.price * (1 + 0.08 * Math.sin(opened / (90 * DAY_MS) + model.weight));
    const openPrice = fixed(price * (1 + model.dailyVol * 0.1 * normal()), model.decimals);
    const move = model.dailyVol * Math.sqrt(holdMs / DAY_MS) * normal() + direction * 0.00002;
    const closePrice = fixed(openPrice * (1 + move), model.decimals);
    const quoteToAccount = model.jpyQuote ? 1 / closePrice : 1;
    const pricePl = fixed((closePrice - openPrice) * units * quoteToAccount, 4);
    const notional = Math.abs(units) * openPrice * (model.jpyQuote ? 1 / openPrice : 1);
    const nights = Math.floor((Math.min(closedAt, end) - opened) / DAY_MS);
    const financing = fixed(-notional * 0.02 * (nights / 365) * (next() < 0.8 ? 1 : -0.5), 4);
    const stopDistance = openPrice * model.dailyVol * (0.5 + next());
    const hasStop = next() < 0.7;
    const partial = isOpen && next() < 0.1;
    const stopLossPrice = hasStop ? fixed(openPrice - direction * stopDistance, model.decimals) : null;

    if (!isOpen && pricePl < 0) {
      lastLossClose = closedAt;
    }
    trades.push(
      engineTrade({
        accountId: SYNTHETIC_ACCOUNT_IDS[next() < 0.7 ? 0 : 1],
        tradeId: String(5101 + k * 3),
        instrument: model.name,
        units,
        currentUnits: isOpen ? (partial ? Math.trunc(units / 2) : units) : 0,
        openPrice,
        closePrice: isOpen ? (partial ? closePrice : null) : closePrice,
        openTime: opened,
        closeTime: isOpen ? null : closedAt,
        state: isOpen ? 'OPEN' : 'CLOSED',
        realizedPL: isOpen ? (partial ? fixed(pricePl / 2, 4) : 0) : pricePl,
        unrealizedPL: isOpen ? fixed(pricePl * (partial ? 0.5 : 1) * 0.8, 4) : 0,
        financing,
        stopLossPrice,
        takeProfitPrice: next() < 0.5 ? fixed(openPrice + direction * stopDistance * 2, model.decimals) : null,
        trailingStopDistance: !hasStop && next() < 0.1 ? fixed(stopDistance, model.decimals) : null,
        // The stop set on fill is the initial stop; R as domain/risk.ts works it out from the decimal strings.
        initialStop: stopLossPrice !== null,
        rMultiple: isOpen
          ? null
          : rMultipleOf({
              instrument: model.name,
              initialUnits: String(units),
              price: String(openPrice),
              averageClosePrice: String(closePrice),
              initialStopLossPrice: stopLossPrice === null ? null : String(stopLossPrice),
            }),
      }),
    );
  }
  return trades;
}

/** Accounts consistent with the trades: balance = 100,000 + everything the trades booked. */
export function syntheticAccounts(trades: readonly EngineTrade[]): EngineAccount[] {
  return SYNTHETIC_ACCOUNT_IDS.map((accountId) => {
    let booked = 0;
    let unrealized = 0;
    let exposure = 0;
    let openTrades = 0;
    const openInstruments = new Set<string>();
    for (const trade of trades) {
      if (trade.accountId !== accountId) continue;
      booked += trade.realizedPL + trade.financing;
      if (trade.state === 'CLOSED') continue;
      openTrades++;
      openInstruments.add(trade.instrument);
      unrealized += trade.unrealizedPL;
      const usdPerUnit = trade.instrument.endsWith('_JPY') ? 1 : trade.openPrice;
      exposure += Math.abs(trade.currentUnits) * usdPerUnit;
    }
    const balance = fixed(STARTING_BALANCE + booked, 4);
    const nav = fixed(balance + unrealized, 4);
    const marginUsed = fixed(exposure * 0.0333, 4);
    return {
      accountId,
      currency: 'USD',
      balance,
      nav,
      unrealizedPL: fixed(unrealized, 4),
      marginUsed,
      marginAvailable: fixed(Math.max(0, nav - marginUsed), 4),
      positionValue: fixed(exposure, 4),
      openTradeCount: openTrades,
      openPositionCount: openInstruments.size,
    };
  });
}
