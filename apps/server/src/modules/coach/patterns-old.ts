import {
  COACH_PATTERNS,
  type CoachPattern,
  type CoachThresholds,
  type PatternResult,
  type PlatformQuery,
} from '@pipsense/contract';
import {
  moneyFigure,
  noDailyRates,
  prepareConversion,
  type Conversion,
  type DailyRates,
  type DatedAmount,
  type MoneyFigure,
} from '../../domain/currency-totals';
import { isPlainDecimal, subtractDecimals } from '../../domain/decimal';
import { instantOf } from '../../domain/calendar';
import { minorUnitsOf } from '../../domain/money';
import { rMultipleOf } from '../../domain/risk';
import { roundRatio } from '../../domain/rounding';
import { capturePctOf, detectPatterns, patternDefinition, stopMovedAway, type PatternTrade } from '../analytics/engine/patterns-old';
import { apiAccountId } from '../trading';
import { tradeMatcher, type PatternKeys, type PatternRow, type TradeFieldReaders } from '../trade-views';

/**
 * The coach's behaviour patterns (docs/coach.md, Patterns): the detectors of analytics' engine (engine/METRICS.md,
 * Behaviour patterns) over the trader's whole book, with their cost in a range. Flags are a property of the trade:
 * every pattern is judged over the whole history of every account and platform (a revenge trade may follow a loss on
 * another account), and a range, an account or a platform only chooses which flagged trades are shown and costed. So
 * the screen, the trade list's filter and the trade modal agree.
 */
export interface CoachPatternsDeps {
  /** Every trade of the user, oldest first, as the read side's pattern rows (trade-views book-rows.ts). */
  rows: (userId: string, add: (row: PatternRow) => void) => Promise<void>;
  /** The keys of the user's accounts an API account id names (trading's rule). */
  accountKeysNamed: (userId: string, accountId: string) => Promise<Set<string>>;
  /** The currency of each account by key ('' when not known). */
  accountCurrencies: (userId: string) => Promise<Map<string, string>>;
  /** Stop levels of each trade's stop-loss orders in the order placed, by `<account key> <trade id>` (trading). */
  stopLevels: (userId: string) => Promise<Map<string, string[]>>;
  thresholds: (userId: string) => Promise<CoachThresholds>;
  /** The trader's IANA zone (settings); UTC when none is set. */
  timeZoneOf: (userId: string) => Promise<string | null>;
  homeCurrencyOf: (userId: string) => Promise<string>;
  ratesFor?: ((userId: string) => DailyRates) | undefined;
  /** The user's stored trades' version (the data counter of db/data-versions.ts): the analysis is kept per version. */
  dataVersionOf: (userId: string) => Promise<string>;
}

export interface PatternsRequest {
  from?: string | undefined;
  to?: string | undefined;
  accountId?: string | undefined;
  platform?: PlatformQuery | undefined;
}

/** A trade as kept between requests: what the range filter and the cost read. */
interface KeptTrade {
  accountKey: string;
  tradeId: string;
  platform: string;
  mode: string;
  instrument: string;
  short: boolean;
  state: string;
  openTime: number;
  closeTime: number | null;
  realizedPL: string;
  /** R in hundredths (exact integer); null without R. */
  rHundredths: number | null;
  currency: string;
  /** What the trade books once closed (its P/L in its currency on its UTC close day); null while open. */
  booked: DatedAmount | null;
}

interface Analysis {
  version: string;
  thresholds: CoachThresholds;
  trades: KeptTrade[];
  flags: Record<CoachPattern, number[]>;
  keys: Map<CoachPattern, Set<string>>;
}

const keyOf = (t: { accountKey: string; tradeId: string }) => `${t.accountKey} ${t.tradeId}`;

const readers: TradeFieldReaders<KeptTrade> = {
  accountKey: (t) => t.accountKey,
  platform: (t) => t.platform,
  mode: (t) => t.mode,
  instrument: (t) => t.instrument,
  short: (t) => t.short,
  state: (t) => t.state,
  openTime: (t) => t.openTime,
  closeTime: (t) => t.closeTime,
  realizedPL: (t) => t.realizedPL,
  unrealizedPL: () => null,
  hasStopLoss: () => false,
  hasTakeProfit: () => false,
};

/** Users whose analysis this instance keeps (the trade list's filter asks once per page). */
const KEPT_USERS = 32;

const num = (text: string | null): number | null => (isPlainDecimal(text) ? Number(text) : null);

/** A stored row as the detectors and the cost read it. */
function fromRow(row: PatternRow, currency: string, stops: readonly string[] | undefined): [KeptTrade, PatternTrade] {
  const [accountKey, tradeId, instrument, price, units, realizedPL, state, open, close, averageClose, stop, mfe] = row;
  const short = units.trim().startsWith('-');
  const absUnits = Math.abs(Number(units)) || 0;
  const closed = state === 'CLOSED';
  const facts = { instrument, initialUnits: units, price, averageClosePrice: averageClose, initialStopLossPrice: stop };
  const r = closed ? rMultipleOf(facts) : null;
  const entry = num(price);
  const firstStop = num(stop);
  // Only compared with the trader's other trades on the instrument: the distance in price as a number, against the
  // trade (domain/risk.ts: a first stop at or beyond the entry on the profit side risks nothing).
  const against = entry !== null && firstStop !== null ? (short ? firstStop - entry : entry - firstStop) : 0;
  const plMinor = closed && isPlainDecimal(realizedPL) ? minorUnitsOf(realizedPL) : 0;
  const exit = num(averageClose);
  const best = num(mfe);
  const levels = stops && entry !== null ? stops.flatMap((s) => (isPlainDecimal(s) ? [Number(s)] : [])) : [];
  const kept: KeptTrade = {
    accountKey,
    tradeId,
    platform: row[12],
    mode: row[13],
    instrument,
    short,
    state,
    openTime: instantOf(open),
    closeTime: close === null ? null : instantOf(close),
    realizedPL,
    rHundredths: r === null ? null : Math.round(r * 100),
    currency,
    booked: null,
  };
  // As the playbook report books a closed trade (domain/currency-totals.ts): worked out once, not once per pattern.
  // A stored time is UTC ISO-8601 text: its first ten characters are the UTC day, without a Date per trade.
  if (closed) kept.booked = { currency, amount: realizedPL, day: (close ?? open).slice(0, 10) };
  const detected: PatternTrade = {
    instrument,
    currency,
    units: absUnits,
    risk: against > 0 ? against * absUnits : null,
    openTime: kept.openTime,
    closeTime: kept.closeTime,
    closed,
    plMinor,
    capturePct:
      closed && plMinor > 0 && entry !== null && exit !== null && best !== null
        ? capturePctOf(entry, exit, best, !short)
        : null,
    stopWidened: entry !== null && levels.length > 1 && stopMovedAway(entry, !short, levels),
  };
  return [kept, detected];
}

const booked = (t: KeptTrade): DatedAmount => t.booked!;

/**
 * The figure of the trades outside a part: the whole figure less the part's, exact (a sum of 100,000 amounts is
 * taken once, not once per pattern). `currencies` are those the outside trades are booked in.
 */
function remainder(whole: MoneyFigure, part: MoneyFigure | null, currencies: readonly string[]): MoneyFigure {
  if (part === null) return whole;
  if (whole.mode === 'single' && part.mode === 'single')
    return { ...whole, amount: subtractDecimals(whole.amount, part.amount) };
  if (whole.mode === 'converted' && part.mode === 'converted')
    return { ...whole, amount: subtractDecimals(whole.amount, part.amount), from: [...currencies] };
  if (whole.mode === 'listed' && part.mode === 'listed') {
    const partOf = new Map(part.byCurrency.map((c) => [c.currency, c.amount]));
    return {
      mode: 'listed',
      byCurrency: whole.byCurrency
        .filter((c) => currencies.includes(c.currency))
        .map((c) => ({ currency: c.currency, amount: subtractDecimals(c.amount, partOf.get(c.currency) ?? '0') })),
    };
  }
  throw new Error('figures of one view are of one currency mode');
}

/** Mean R of `sum` hundredths over `count` trades, 2 decimals; null when none. */
const meanR = (sum: number, count: number) => (count > 0 ? roundRatio(sum / 100 / count) : null);

export function createCoachPatterns(deps: CoachPatternsDeps) {
  const kept = new Map<string, Analysis>();

  async function analyse(userId: string): Promise<Analysis> {
    const [dataVersion, thresholds, zone] = await Promise.all([
      deps.dataVersionOf(userId),
      deps.thresholds(userId),
      deps.timeZoneOf(userId),
    ]);
    const timeZone = zone ?? 'UTC';
    const version = `${dataVersion}|${timeZone}|${JSON.stringify(thresholds)}`;
    const known = kept.get(userId);
    if (known?.version === version) return known;
    const [currencies, stops] = await Promise.all([deps.accountCurrencies(userId), deps.stopLevels(userId)]);
    const trades: KeptTrade[] = [];
    const detected: PatternTrade[] = [];
    await deps.rows(userId, (row) => {
      const [k, d] = fromRow(row, currencies.get(row[0]) ?? '', stops.get(`${row[0]} ${row[1]}`));
      trades.push(k);
      detected.push(d);
    });
    const flags = detectPatterns(detected, thresholds, timeZone);
    const keys = new Map(COACH_PATTERNS.map((p) => [p, new Set(flags[p].map((i) => keyOf(trades[i]!)))]));
    const analysis = { version, thresholds, trades, flags, keys };
    kept.delete(userId);
    kept.set(userId, analysis);
    if (kept.size > KEPT_USERS) kept.delete(kept.keys().next().value!);
    return analysis;
  }

  return {
    /** Every pattern, with its flagged trades in the range and their cost against the other closed trades there. */
    async patterns(userId: string, request: PatternsRequest): Promise<PatternResult[]> {
      const [analysis, accountKeys, home] = await Promise.all([
        analyse(userId),
        request.accountId ? deps.accountKeysNamed(userId, request.accountId) : undefined,
        deps.homeCurrencyOf(userId),
      ]);
      const { trades, flags, thresholds } = analysis;
      const matches = tradeMatcher(
        {
          platform: request.platform,
          account: request.accountId,
          time:
            request.from || request.to
              ? { basis: 'open', ends: 'both', from: request.from, to: request.to }
              : undefined,
        },
        readers,
        { accountKeys },
      );
      const inRange = new Uint8Array(trades.length);
      const closed: KeptTrade[] = [];
      let rSum = 0;
      let rCount = 0;
      const closedPerCurrency = new Map<string, number>();
      for (let i = 0; i < trades.length; i++) {
        const t = trades[i]!;
        if (!matches(t, i)) continue;
        inRange[i] = 1;
        if (t.state !== 'CLOSED') continue;
        closed.push(t);
        closedPerCurrency.set(t.currency, (closedPerCurrency.get(t.currency) ?? 0) + 1);
        if (t.rHundredths !== null) {
          rSum += t.rHundredths;
          rCount++;
        }
      }
      const conversion: Conversion = await prepareConversion(
        home,
        closed.map(booked),
        deps.ratesFor?.(userId) ?? noDailyRates,
      );
      const whole = closed.length > 0 ? moneyFigure(conversion, closed.map(booked)) : null;
      return COACH_PATTERNS.map((pattern) => {
        const flagged = flags[pattern].filter((i) => inRange[i] === 1).map((i) => trades[i]!);
        const flaggedClosed = flagged.filter((t) => t.state === 'CLOSED');
        const part = flaggedClosed.length > 0 ? moneyFigure(conversion, flaggedClosed.map(booked)) : null;
        const outside = new Map(closedPerCurrency);
        let flaggedR = 0;
        let flaggedRCount = 0;
        for (const t of flaggedClosed) {
          outside.set(t.currency, outside.get(t.currency)! - 1);
          if (t.rHundredths !== null) {
            flaggedR += t.rHundredths;
            flaggedRCount++;
          }
        }
        const othersCurrencies = [...outside].filter(([, n]) => n > 0).map(([c]) => c);
        const others = closed.length - flaggedClosed.length;
        return {
          pattern,
          definition: patternDefinition(pattern, thresholds),
          trades: flagged.map((t) => ({ accountId: apiAccountId(t.accountKey), tradeId: t.tradeId })),
          count: flagged.length,
          netPL: part,
          othersNetPL: others > 0 && whole !== null ? remainder(whole, part, othersCurrencies.sort()) : null,
          averageR: meanR(flaggedR, flaggedRCount),
          othersAverageR: meanR(rSum - flaggedR, rCount - flaggedRCount),
        };
      });
    },

    /** The trade list's `pattern` filter (trade-views pattern-keys.ts): the keys of every trade the pattern flags. */
    async patternKeys(userId: string, pattern: CoachPattern): Promise<PatternKeys> {
      const analysis = await analyse(userId);
      // The list's cache already moves with the data version: the rest of the analysis' version names the flags.
      return { version: analysis.version.slice(analysis.version.indexOf('|') + 1), keys: analysis.keys.get(pattern)! };
    },

    /** The patterns that flag one trade (the trade modal; an API account id and the trade id). */
    async patternsOfTrade(userId: string, trade: { accountId: string; tradeId: string }): Promise<CoachPattern[]> {
      const [analysis, accountKeys] = await Promise.all([
        analyse(userId),
        deps.accountKeysNamed(userId, trade.accountId),
      ]);
      return COACH_PATTERNS.filter((pattern) => {
        const keys = analysis.keys.get(pattern)!;
        for (const key of accountKeys) if (keys.has(`${key} ${trade.tradeId}`)) return true;
        return false;
      });
    },
  };
}
export type CoachPatterns = ReturnType<typeof createCoachPatterns>;
