import type { PlaybookFigures, TradeListItem } from '@pipsense/contract';
import { moneyFigure, utcDay, type Conversion, type DatedAmount, type MoneyFigure } from '../../domain/currency-totals';
import { formatMinorUnits, meanMinorUnits, minorUnitsOf } from '../../domain/money';
import { isDecimal } from '../../domain/decimal';
import { PerformanceTally, profitFactor, winRate } from '../../domain/performance';
import { roundRatio } from '../../domain/rounding';

/** A trade of the report: the list's row (R, review) and its account's currency ('' when not known). */
export interface ReportTrade {
  item: TradeListItem;
  currency: string;
}

/** What a closed trade books: its realized P/L in its currency on its close day (domain/currency-totals.ts). */
export const bookedAmount = (t: ReportTrade): DatedAmount => ({
  currency: t.currency,
  amount: t.item.realizedPL,
  day: utcDay(t.item.closeTime ?? t.item.openTime),
});

const mean = (figure: string, count: number) => formatMinorUnits(meanMinorUnits(minorUnitsOf(figure), count));

/** Net P/L per closed trade: the figure divided by its trades (per currency when the figure lists currencies). */
function perTrade(net: MoneyFigure, closed: readonly ReportTrade[]): MoneyFigure {
  if (net.mode !== 'listed') return { ...net, amount: mean(net.amount, closed.length) };
  const counts = new Map<string, number>();
  for (const t of closed) counts.set(t.currency, (counts.get(t.currency) ?? 0) + 1);
  return {
    mode: 'listed',
    byCurrency: net.byCurrency.map((c) => ({ currency: c.currency, amount: mean(c.amount, counts.get(c.currency)!) })),
  };
}

/**
 * The figures of a group of trades (docs/review.md, The playbook report): every trade counts, closed ones give the
 * P/L figures through the one performance tally (domain/performance.ts) and the currency rule (one conversion,
 * decided for the whole report so that its parts add up); R is the list's R multiple of closed trades with one.
 */
export function playbookFigures(trades: readonly ReportTrade[], conversion: Conversion): PlaybookFigures {
  const closed = trades.filter((t) => t.item.state === 'CLOSED');
  const tally = new PerformanceTally();
  for (const t of closed)
    tally.add(minorUnitsOf(t.item.realizedPL), isDecimal(t.item.financing) ? minorUnitsOf(t.item.financing) : 0);
  const net = closed.length > 0 ? moneyFigure(conversion, closed.map(bookedAmount)) : null;
  const rs = closed.flatMap((t) => (t.item.rMultiple === null ? [] : [t.item.rMultiple]));
  const averageR = rs.length > 0 ? roundRatio(rs.reduce((sum, r) => sum + r, 0) / rs.length) : null;
  return {
    trades: trades.length,
    winRate: winRate(tally),
    netPL: net,
    profitFactor: factorOf(closed, conversion, tally),
    expectancy: net === null ? null : perTrade(net, closed),
    expectancyR: averageR,
    averageR,
  };
}

/** Gross profit over gross loss: of the tally in one currency, of the converted sums, none when listed. */
function factorOf(closed: readonly ReportTrade[], conversion: Conversion, tally: PerformanceTally): number | null {
  if (conversion.mode === 'single') return profitFactor(tally);
  if (conversion.mode === 'listed') return null;
  const sum = (sign: 1 | -1) => {
    const figure = moneyFigure(
      conversion,
      closed.filter((t) => Math.sign(minorUnitsOf(t.item.realizedPL)) === sign).map(bookedAmount),
    );
    return figure.mode === 'listed' ? 0 : Number(figure.amount);
  };
  const loss = sum(-1);
  return loss < 0 ? roundRatio(sum(1) / -loss) : null;
}
