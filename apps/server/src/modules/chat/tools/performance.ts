import type { TradeItem } from '@pipsense/contract';
import { isDecimal } from '../../../domain/decimal';
import { formatMinorUnits, minorUnitsOf } from '../../../domain/money';
import {
  averagePL,
  netAfterFinancing,
  netPL,
  PerformanceTally,
  profitFactor,
  winRate,
} from '../../../domain/performance';
import { type Conversion, moneyFigure, type MoneyFigure, utcDay } from '../../../domain/currency-totals';
import { inPeriod, type ResolvedPeriod } from './periods';
import { normaliseInstrument } from './trade-query';

interface TradeBrief {
  tradeId: string;
  instrument: string;
  realizedPL: string;
  closeTime: string | null;
}

/** Figures of one account currency: P/L of trades in different currencies is never added up. */
interface CurrencyPerformance {
  /** null when the account's currency is unknown (accounts not synced). */
  currency: string | null;
  trades: number;
  wins: number;
  losses: number;
  breakeven: number;
  /** Percent of trades with a positive realized P/L, 1 decimal; null without trades. Money fields: exact, 4 decimals. */
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
  /**
   * The totals over every currency under the currency rule (domain/currency-totals.ts): in the one currency, converted
   * into the home currency at each trade's close day rate, or listed per currency when a rate is missing.
   */
  total?: { netPL: MoneyFigure; netAfterFinancing: MoneyFigure };
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

/** The shared performance definitions (domain/performance.ts) over one currency's closed trades. */
function summarise(currency: string | null, trades: ClosedTradeFigure[]): CurrencyPerformance {
  const tally = new PerformanceTally();
  for (const t of trades) {
    tally.add(minorUnitsOf(t.realizedPL), isDecimal(t.financing) ? minorUnitsOf(t.financing) : 0);
  }
  const best = trades[tally.highestAt];
  const worst = trades[tally.lowestAt];
  const average = averagePL(tally);
  return {
    currency,
    trades: tally.trades,
    wins: tally.wins,
    losses: tally.losses,
    breakeven: tally.breakEvens,
    winRate: winRate(tally),
    netPL: formatMinorUnits(netPL(tally)),
    grossProfit: formatMinorUnits(tally.grossProfit),
    grossLoss: formatMinorUnits(tally.grossLoss),
    financing: formatMinorUnits(tally.financing),
    netAfterFinancing: formatMinorUnits(netAfterFinancing(tally)),
    profitFactor: profitFactor(tally),
    averagePL: average === null ? null : formatMinorUnits(average),
    best: best ? brief(best) : null,
    worst: worst ? brief(worst) : null,
  };
}

/** Whether a trade closed in the period (on the instrument, when one is given). */
function closedIn(t: TradeItem, period: ResolvedPeriod, instrument?: string): boolean {
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

/** What the totals over these trades need converted: each trade's currency and close day. */
export function closedAmounts(
  closed: ReadonlyArray<ClosedTradeFigure>,
  currencies: Readonly<Record<string, string>>,
  amountOf: (t: ClosedTradeFigure) => string = (t) => t.realizedPL,
) {
  return closed.map((t) => ({
    currency: currencies[t.accountId] ?? '',
    amount: amountOf(t),
    day: utcDay(t.closeTime ?? 0),
  }));
}

/** The period's totals over every currency under the currency rule. */
export function performanceTotal(
  closed: ReadonlyArray<ClosedTradeFigure>,
  currencies: Readonly<Record<string, string>>,
  conversion: Conversion,
): NonNullable<PerformanceResult['total']> {
  return {
    netPL: moneyFigure(conversion, closedAmounts(closed, currencies)),
    netAfterFinancing: moneyFigure(
      conversion,
      closedAmounts(closed, currencies, (t) =>
        isDecimal(t.financing)
          ? formatMinorUnits(minorUnitsOf(t.realizedPL) + minorUnitsOf(t.financing))
          : t.realizedPL,
      ),
    ),
  };
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
