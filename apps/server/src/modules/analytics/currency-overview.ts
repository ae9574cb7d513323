/**
 * The Overview under the currency rule (domain/currency-totals.ts, docs/decisions/024-currencies-never-mixed.md):
 *
 * - one currency: the engine as always (what a one-currency trader saw, figure for figure);
 * - several, every rate known: each trade's P/L and financing converted at its close day's rate (open trades and the
 *   accounts' balances at the last complete day's), then the engine once, in the home currency;
 * - several, a rate missing: the engine over every trade for what carries no money (counts, rates, R), and once per
 *   currency for what does: every money value of the cards becomes one value per currency, each with its code. The
 *   charts, the tags' P/L and the insights are those of one currency's accounts (the home currency's, else the one
 *   with the most trades), and the overview's note says so.
 */
import type { OverviewCurrency, OverviewMoney, MoneyFigure, TagFacts } from '@pipsense/contract';
import {
  type Conversion,
  type DailyRates,
  convertAmount,
  lastCompleteDay,
  prepareConversion,
  utcDay,
} from '../../domain/currency-totals';
import { formatMinorUnits, toMinorUnits } from '../../domain/money';
import { plural } from '../../lib/text';
import {
  computeMetrics,
  type CardObject,
  type EngineAccount,
  type EngineOptions,
  type EngineTrade,
  type MetricFacts,
  type NestedCardObject,
  type OverviewMetrics,
} from './engine';
import { formatMoney, formatNumber, formatPercent } from './engine/format';

export interface CurrencyOverview {
  metrics: OverviewMetrics;
  byTag: TagFacts[];
  currency: OverviewCurrency;
  money: OverviewMoney;
  /**
   * A listed overview's first missing rate (of `currency` into the home currency): once known, the overview would be
   * converted. `day` null: the last complete day whenever asked (what is open now, the accounts' balances). Null when
   * not listed for want of a rate.
   */
  missingRate: MissingRate | null;
}

export interface MissingRate {
  currency: string;
  day: string | null;
}

interface CurrencyOverviewInput {
  trades: readonly EngineTrade[];
  accounts: readonly EngineAccount[];
  options: EngineOptions;
  home: string;
  rates: DailyRates;
  /** The by-tag breakdown of a list of trades (the whole book, converted, or one currency's). */
  byTagOf: (trades: readonly EngineTrade[]) => TagFacts[];
}

/** Card values that carry no code yet are ratios of money: with several currencies each currency has its own. */
/**
 * The currency the whole run of a listed overview is computed in: no currency, so every money value it writes carries
 * this mark and is replaced by the values per currency (a whole-run value never reaches the screen).
 */
const MIXED = '¤MIXED';

/** The label of the amounts of accounts whose currency is not known yet. */
const UNKNOWN = 'unknown currency';

const RATIOS_OF_MONEY = new Set([
  'Profit Factor',
  'Payoff Ratio',
  'Max Drawdown %',
  'Sharpe Ratio',
  'Margin Utilisation',
]);

/** Two decimals, as the cards show money ('-1234.50'). */
const shown = (value: number): string => formatMinorUnits(toMinorUnits(value), 2);

/** The day whose rate converts a trade's money: its close day, or the last complete day while it is open. */
function dayOf(trade: EngineTrade, now: Date): string {
  return trade.closeTime === null ? lastCompleteDay(now) : utcDay(trade.closeTime);
}

function converted(conversion: Conversion, value: number, currency: string, day: string): number {
  if (currency === conversion.home || value === 0) return value;
  return Number(convertAmount(conversion, formatMinorUnits(toMinorUnits(value)), currency, day));
}

/** The money figures of one engine run, in its one currency. */
function figures(facts: MetricFacts): Record<keyof OverviewMoney, number | null> {
  const perf = facts.performance;
  return {
    netPL: perf?.netPL ?? null,
    grossProfit: perf?.grossProfit ?? null,
    grossLoss: perf?.grossLoss ?? null,
    financing: perf?.financing ?? null,
    netPLAfterFinancing: perf?.netPLAfterFinancing ?? null,
    maxDrawdown: perf?.maxDrawdown ?? null,
    unrealizedPL: facts.risk?.unrealizedPL ?? null,
  };
}

const MONEY_KEYS: readonly (keyof OverviewMoney)[] = [
  'netPL',
  'grossProfit',
  'grossLoss',
  'financing',
  'netPLAfterFinancing',
  'maxDrawdown',
  'unrealizedPL',
];

function oneCurrencyMoney(facts: MetricFacts, figure: (amount: string) => MoneyFigure): OverviewMoney {
  const values = figures(facts);
  const money = {} as OverviewMoney;
  for (const key of MONEY_KEYS) money[key] = values[key] === null ? null : figure(shown(values[key]));
  return money;
}

function listedMoney(groups: readonly Group[]): OverviewMoney {
  const money = {} as OverviewMoney;
  for (const key of MONEY_KEYS) {
    const byCurrency = groups.flatMap((g) => {
      const value = figures(g.metrics.facts)[key];
      return value === null ? [] : [{ currency: g.currency, amount: shown(value) }];
    });
    money[key] = byCurrency.length === 0 ? null : { mode: 'listed', byCurrency };
  }
  return money;
}

interface Group {
  currency: string;
  trades: EngineTrade[];
  metrics: OverviewMetrics;
}

/** A card value of one currency's run, with its code in front when the value itself names none. */
function labelled(text: string, currency: string): string {
  return currency !== UNKNOWN && text.includes(` ${currency}`) ? text : `${currency} ${text}`;
}

/**
 * The whole run's card, with every value that holds money (the whole run writes it with the MIXED mark) or a ratio
 * of money replaced by the values of each currency's run, side by side; '-' when no currency has one.
 */
function mergeCard(
  whole: CardObject | null,
  groups: ReadonlyArray<{ currency: string; card: CardObject | null | undefined }>,
): CardObject | null {
  if (whole === null) return null;
  const merged: CardObject = { ...whole };
  for (const key of Object.keys(whole)) {
    if (!RATIOS_OF_MONEY.has(key) && !whole[key]!.includes(MIXED)) continue;
    const values = groups.flatMap((g) => {
      const text = g.card?.[key];
      return text === undefined || text === '-' ? [] : [{ currency: g.currency, text }];
    });
    merged[key] = values.length === 0 ? '-' : values.map((v) => labelled(v.text, v.currency)).join(' · ');
  }
  return merged;
}

function mergeNested(whole: NestedCardObject | null, groups: readonly Group[]): NestedCardObject | null {
  if (whole === null) return null;
  const merged: NestedCardObject = {};
  for (const [instrument, card] of Object.entries(whole))
    merged[instrument] = mergeCard(
      card,
      groups.map((g) => ({ currency: g.currency, card: g.metrics.instrumentBreakdown?.[instrument] })),
    )!;
  return merged;
}

/** The summary sentence with one net P/L and max drawdown per currency. */
function listedSummary(whole: MetricFacts, groups: readonly Group[]): string | null {
  if (whole.tradeCount === 0) return null;
  const head = `${plural(whole.tradeCount, 'trade')} on ${plural(whole.accountCount, 'account')}`;
  const perf = whole.performance;
  if (perf === null) return `${head}, none closed yet; ${plural(whole.openTradeCount, 'trade')} open.`;
  const each = (pick: (facts: MetricFacts) => number | null): string =>
    groups
      .flatMap((g) => {
        const value = pick(g.metrics.facts);
        return value === null ? [] : [formatMoney(value, g.currency)];
      })
      .join(' and ');
  return (
    `${head}: ${formatNumber(perf.closedTrades, 0)} closed with a ${formatPercent(whole.winRate ?? 0)} win rate, ` +
    `net P/L ${each((f) => f.performance?.netPL ?? null)}, ` +
    `max drawdown ${each((f) => f.performance?.maxDrawdown ?? null)}.`
  );
}

/** The currencies of the accounts, by account id ('' when not known yet). */
function currencyOfAccounts(accounts: readonly EngineAccount[]): Map<string, string> {
  return new Map(accounts.map((a) => [a.accountId, a.currency]));
}

export async function overviewInCurrencies(input: CurrencyOverviewInput): Promise<CurrencyOverview> {
  const { trades, accounts, options, home, rates, byTagOf } = input;
  const currencyOf = currencyOfAccounts(accounts);
  const tradeCurrency = (t: EngineTrade): string => currencyOf.get(t.accountId) ?? '';
  const today = lastCompleteDay(options.now);
  const all = [
    ...accounts.map((a) => ({ currency: a.currency, day: today })),
    ...trades.map((t) => ({ currency: tradeCurrency(t), day: dayOf(t, options.now) })),
  ];
  // An account not summarised yet has no currency (''): it decides nothing beside one known currency (as before),
  // and beside several it cannot be converted, so the figures are listed.
  const known = new Set(all.map((n) => n.currency).filter((c) => c !== ''));
  const conversion = await prepareConversion(home, known.size >= 2 ? all : all.filter((n) => n.currency !== ''), rates);
  const currencies = conversion.currencies;

  if (conversion.mode === 'single') {
    const byTag = byTagOf(trades);
    const metrics = computeMetrics(trades, accounts, { ...options, byTag });
    const code = metrics.facts.currency;
    return {
      metrics,
      byTag,
      currency: { mode: 'single', home, currencies, chartsCurrency: code, note: null },
      money: oneCurrencyMoney(metrics.facts, (amount) => ({ mode: 'single', currency: code ?? home, amount })),
      missingRate: null,
    };
  }

  if (conversion.mode === 'converted') {
    const now = options.now;
    const inHome = trades.map((t) => {
      const currency = tradeCurrency(t);
      const day = dayOf(t, now);
      return {
        ...t,
        realizedPL: converted(conversion, t.realizedPL, currency, day),
        unrealizedPL: converted(conversion, t.unrealizedPL, currency, day),
        financing: converted(conversion, t.financing, currency, day),
      };
    });
    const homeAccounts = accounts.map((a) => {
      const at = (value: number) => converted(conversion, value, a.currency, today);
      return {
        ...a,
        currency: home,
        balance: at(a.balance),
        nav: at(a.nav),
        unrealizedPL: at(a.unrealizedPL),
        marginUsed: at(a.marginUsed),
        marginAvailable: at(a.marginAvailable),
        positionValue: at(a.positionValue),
      };
    });
    const byTag = byTagOf(inHome);
    const metrics = computeMetrics(inHome, homeAccounts, { ...options, byTag });
    const from = currencies;
    return {
      metrics,
      byTag,
      currency: {
        mode: 'converted',
        home,
        currencies,
        chartsCurrency: home,
        note: `${from.filter((c) => c !== home).join(', ')} converted into ${home} at each trade's close day rate.`,
      },
      money: oneCurrencyMoney(metrics.facts, (amount) => ({ mode: 'converted', currency: home, amount, from })),
      missingRate: null,
    };
  }

  // Listed: no figure adds two currencies.
  const groups: Group[] = currencies.map((code) => {
    const own = trades.filter((t) => tradeCurrency(t) === code);
    const ownAccounts = accounts.filter((a) => a.currency === code);
    return { currency: code || UNKNOWN, trades: own, metrics: computeMetrics(own, ownAccounts, options) };
  });
  const whole = computeMetrics(
    trades,
    accounts.map((a) => ({ ...a, currency: MIXED })),
    options,
  );
  const primary =
    groups.find((g) => g.currency === home) ??
    [...groups].sort((a, b) => b.trades.length - a.trades.length || (a.currency < b.currency ? -1 : 1))[0]!;
  const byTag = byTagOf(primary.trades);
  const cardsOf = (pick: (m: OverviewMetrics) => CardObject | null) =>
    groups.map((g) => ({ currency: g.currency, card: pick(g.metrics) }));
  const others = groups.filter((g) => g !== primary).map((g) => g.currency);
  const metrics: OverviewMetrics = {
    ...whole,
    summary: listedSummary(whole.facts, groups),
    performanceMetrics: mergeCard(
      whole.performanceMetrics,
      cardsOf((m) => m.performanceMetrics),
    ),
    riskAssessment: mergeCard(
      whole.riskAssessment,
      cardsOf((m) => m.riskAssessment),
    ),
    behavioralAnalysis: mergeCard(
      whole.behavioralAnalysis,
      cardsOf((m) => m.behavioralAnalysis),
    ),
    instrumentBreakdown: mergeNested(whole.instrumentBreakdown, groups),
    // One currency's: a chart or an insight of added currencies would mean nothing.
    charts: primary.metrics.charts,
    facts: { ...primary.metrics.facts, tags: byTag },
  };
  return {
    metrics,
    byTag,
    currency: {
      mode: 'listed',
      home,
      currencies,
      chartsCurrency: primary.currency,
      note:
        `No exchange rates to convert ${others.length > 0 ? `${others.join(', ')} into ${primary.currency}` : `into ${home}`}` +
        `: money is shown per currency. Charts, tags and insights cover the ${primary.currency} accounts.`,
    },
    money: listedMoney(groups),
    missingRate: missingRateOf(conversion, trades, tradeCurrency, today),
  };
}

/**
 * The rate a listed overview waits for: its day is the last complete one whenever asked when what needed it is open
 * now (an account's balance, an open trade), not a closed trade of that day.
 */
function missingRateOf(
  conversion: Conversion,
  trades: readonly EngineTrade[],
  currencyOf: (t: EngineTrade) => string,
  today: string,
): MissingRate | null {
  const missing = conversion.missing;
  if (missing === null) return null;
  if (missing.day !== today) return missing;
  const closedThatDay = trades.some(
    (t) => t.closeTime !== null && currencyOf(t) === missing.currency && utcDay(t.closeTime) === today,
  );
  return { currency: missing.currency, day: closedThatDay ? today : null };
}
