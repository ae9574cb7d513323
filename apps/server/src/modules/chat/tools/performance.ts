import type { TradeItem } from '@pipsense/contract';
import { compareDecimals, isDecimal, signOf, sumDecimals } from './decimal';
import { inPeriod, type ResolvedPeriod } from './periods';
import { normaliseInstrument } from './trade-query';

export interface TradeBrief {
  tradeId: string;
  instrument: string;
  realizedPL: string;
  closeTime: string | null;
}

/** Figures of one account currency: P/L of trades in different currencies is never added up. */
export interface CurrencyPerformance {
  /** null when the account's currency is unknown (accounts not synced). */
  currency: string | null;
  trades: number;
  wins: number;
  losses: number;
  breakeven: number;
  /** Percent of trades with a positive realized P/L, 1 decimal; null without trades. */
  winRate: number | null;
  /** Sum of realized P/L (price P/L; financing apart). */
  netPL: string;
  grossProfit: string;
  grossLoss: string;
  financing: string;
  /** netPL plus financing. */
  netAfterFinancing: string;
  /** Gross profit over gross loss, 2 decimals; null without losses. */
  profitFactor: number | null;
  averagePL: string | null;
  best: TradeBrief | null;
  worst: TradeBrief | null;
}

export interface PerformanceResult {
  /** Trades closed in the period. */
  closedTrades: number;
  byCurrency: CurrencyPerformance[];
}

const round = (value: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round((value + Number.EPSILON) * f) / f;
};

/** Exact average to 4 decimals, rounded half away from zero. */
function average(sum: string, count: number): string {
  const [whole = '0', fraction = ''] = sum.replace('-', '').split('.');
  const scaled = BigInt(whole + fraction.padEnd(8, '0').slice(0, 8)) * (sum.startsWith('-') ? -1n : 1n);
  const n = BigInt(count);
  const magnitude = (scaled < 0n ? -scaled : scaled) * 2n + n * 10_000n;
  const q = magnitude / (2n * n * 10_000n);
  const sign = scaled < 0n && q !== 0n ? '-' : '';
  const digits = q.toString().padStart(5, '0');
  return `${sign}${digits.slice(0, -4)}.${digits.slice(-4)}`;
}

/** What performance figures are made of: one closed trade. */
export type ClosedTradeFigure = Pick<
  TradeItem,
  'accountId' | 'tradeId' | 'instrument' | 'realizedPL' | 'financing' | 'closeTime'
>;

const brief = (t: ClosedTradeFigure): TradeBrief => ({
  tradeId: t.tradeId,
  instrument: t.instrument,
  realizedPL: t.realizedPL,
  closeTime: t.closeTime,
});

function summarise(currency: string | null, trades: ClosedTradeFigure[]): CurrencyPerformance {
  const pls = trades.map((t) => t.realizedPL);
  const wins = pls.filter((p) => signOf(p) > 0);
  const losses = pls.filter((p) => signOf(p) < 0);
  const netPL = sumDecimals(pls);
  const grossProfit = sumDecimals(wins);
  const grossLoss = sumDecimals(losses);
  const financing = sumDecimals(trades.map((t) => t.financing).filter(isDecimal));
  let best: ClosedTradeFigure | null = null;
  let worst: ClosedTradeFigure | null = null;
  for (const t of trades) {
    if (!best || compareDecimals(t.realizedPL, best.realizedPL) > 0) best = t;
    if (!worst || compareDecimals(t.realizedPL, worst.realizedPL) < 0) worst = t;
  }
  const lossMagnitude = Math.abs(Number(grossLoss));
  return {
    currency,
    trades: trades.length,
    wins: wins.length,
    losses: losses.length,
    breakeven: trades.length - wins.length - losses.length,
    winRate: trades.length === 0 ? null : round((wins.length / trades.length) * 100, 1),
    netPL,
    grossProfit,
    grossLoss,
    financing,
    netAfterFinancing: sumDecimals([netPL, financing]),
    profitFactor: lossMagnitude === 0 ? null : round(Number(grossProfit) / lossMagnitude, 2),
    averagePL: trades.length === 0 ? null : average(netPL, trades.length),
    best: best ? brief(best) : null,
    worst: worst ? brief(worst) : null,
  };
}

/** Whether a trade closed in the period (on the instrument, when one is given). */
export function closedIn(t: TradeItem, period: ResolvedPeriod, instrument?: string): boolean {
  const wanted = instrument ? normaliseInstrument(instrument) : undefined;
  return t.state === 'CLOSED' && inPeriod(period, t.closeTime) && (!wanted || t.instrument.toUpperCase() === wanted);
}

/** Results of closed trades (already chosen, in stored order), per account currency. */
export function summarisePerformance(
  closed: ReadonlyArray<ClosedTradeFigure>,
  currencies: Readonly<Record<string, string>>,
): PerformanceResult {
  const groups = new Map<string | null, ClosedTradeFigure[]>();
  for (const t of closed) {
    const currency = currencies[t.accountId] ?? null;
    const list = groups.get(currency);
    if (list) list.push(t);
    else groups.set(currency, [t]);
  }
  if (groups.size === 0) groups.set(Object.values(currencies)[0] ?? null, []);
  return { closedTrades: closed.length, byCurrency: [...groups].map(([currency, list]) => summarise(currency, list)) };
}

/** Results of the trades closed in the period, per account currency, from trades held in memory. */
export function performance(
  trades: ReadonlyArray<TradeItem>,
  period: ResolvedPeriod,
  currencies: Readonly<Record<string, string>>,
  instrument?: string,
): PerformanceResult {
  return summarisePerformance(
    trades.filter((t) => closedIn(t, period, instrument)),
    currencies,
  );
}
