import type { Kysely } from 'kysely';
import type { CalendarDay, JournalDay, PlatformQuery, TradeListItem } from '@pipsense/contract';
import { addDays, localDate, startOfDay } from '../../domain/calendar';
import {
  type DailyRates,
  type DatedAmount,
  moneyFigure,
  noDailyRates,
  prepareConversion,
  sumsByCurrency,
  utcDay,
} from '../../domain/currency-totals';
import { minorUnitsOf } from '../../domain/money';
import type { TradeSelection, TradeViews } from '../trade-views';
import type { JournalTables } from './tables';

export interface CalendarServiceDeps {
  db: Kysely<JournalTables>;
  views: Pick<TradeViews, 'closedPL' | 'tradeBatches' | 'accountCurrencies' | 'ruleBreaks'>;
  now: () => Date;
  /** The trader's home currency (app.ts hands in settings'); USD when not handed in. */
  homeCurrencyOf?: (userId: string) => Promise<string>;
  /** The trader's daily exchange rates (domain/currency-totals.ts); none: several currencies are listed. */
  ratesFor?: (userId: string) => DailyRates;
}

/** How a month's money is shown (docs/decisions/024-currencies-never-mixed.md). */
export interface CalendarMonth {
  days: CalendarDay[];
  currency: { mode: 'single' | 'converted' | 'listed'; home: string; currencies: string[] };
}

const two = (n: number) => String(n).padStart(2, '0');
const dayText = (d: { y: number; m: number; d: number }) => `${d.y}-${two(d.m)}-${two(d.d)}`;
const parseDay = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return { y, m, d };
};

/** A journal entry counts when it says something: a note or a mood. */
const hasContent = (e: { note: string; mood: number | null }) => e.note.trim() !== '' || e.mood !== null;

/**
 * The P/L calendar and the daily journal. A trade counts on the day it closed in the trader's zone
 * (domain/calendar.ts); open trades are not on it. Wins and losses as in domain/performance.ts: P/L in minor units
 * above or below zero. A day's `ruleBreaks` counts its trades that broke a rule of the user's rule sets (the rules'
 * break index through the trade views: docs/rules.md, Where breaks are shown).
 *
 * Platforms: the journal is the trader's, not a platform's. The calendar and a day cover the trades of
 * every platform (OANDA and imported MetaTrader alike) unless a platform is given; the contract's calendar and day
 * queries take none today, so the API always shows them all.
 */
/** The closed trades of [from, to) by their close time (ISO instants: a day or a month in the trader's zone). */
const closedIn = (from: string, to: string, platform: PlatformQuery | undefined): TradeSelection => ({
  platform,
  state: 'closed',
  time: { basis: 'close', ends: 'from', from, to },
});

export function createCalendarService({ db, views, now, homeCurrencyOf, ratesFor }: CalendarServiceDeps) {
  return {
    /**
     * One row per day of `month` (YYYY-MM) that has closed trades or a journal entry, in date order. A day's P/L
     * follows the currency rule (domain/currency-totals.ts): in one currency, converted into the home currency at
     * each trade's close day rate, or listed per currency, decided once for the month so that its days add up.
     */
    async month(userId: string, month: string, timeZone: string, platform?: PlatformQuery): Promise<CalendarMonth> {
      const [y, m] = month.split('-').map(Number) as [number, number];
      const first = { y, m, d: 1 };
      const next = { y: m === 12 ? y + 1 : y, m: m === 12 ? 1 : m + 1, d: 1 };
      const from = startOfDay(first, timeZone).toISOString();
      const to = startOfDay(next, timeZone).toISOString();
      const days = new Map<
        string,
        { pl: DatedAmount[]; wins: number; losses: number; hasEntry: boolean; ruleBreaks: number }
      >();
      const day = (date: string) => {
        let entry = days.get(date);
        if (!entry) days.set(date, (entry = { pl: [], wins: 0, losses: 0, hasEntry: false, ruleBreaks: 0 }));
        return entry;
      };
      const [closed, currencies, home, breaks] = await Promise.all([
        views.closedPL(userId, closedIn(from, to, platform)),
        views.accountCurrencies(userId),
        homeCurrencyOf ? homeCurrencyOf(userId) : Promise.resolve('USD'),
        views.ruleBreaks(userId),
      ]);
      const amounts: DatedAmount[] = [];
      for (const trade of closed) {
        const d = day(dayText(localDate(Date.parse(trade.close_time), timeZone)));
        const amount = {
          currency: currencies.get(trade.account_key) ?? '',
          amount: trade.realized_pl,
          day: utcDay(trade.close_time),
        };
        d.pl.push(amount);
        amounts.push(amount);
        const minor = minorUnitsOf(trade.realized_pl);
        if (minor > 0) d.wins += 1;
        if (minor < 0) d.losses += 1;
        // A broken rule marks the day the calendar shows the trade on (its close day), whenever the break came.
        if (breaks.byTrade.has(`${trade.account_key} ${trade.trade_id}`)) d.ruleBreaks += 1;
      }
      const conversion = await prepareConversion(home, amounts, ratesFor?.(userId) ?? noDailyRates);
      const entries = await db
        .selectFrom('journal_days')
        .select(['day', 'note', 'mood'])
        .where('user_id', '=', userId)
        .where('day', '>=', dayText(first))
        .where('day', '<', dayText(next))
        .execute();
      for (const e of entries) if (hasContent({ note: e.note, mood: e.mood })) day(e.day).hasEntry = true;
      const rows = [...days.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([date, d]): CalendarDay => {
          const figure = moneyFigure(conversion, d.pl);
          return {
            date,
            netPL: figure.mode === 'listed' ? null : figure.amount,
            currency: figure.mode === 'listed' ? null : figure.currency,
            byCurrency: sumsByCurrency(d.pl),
            trades: d.pl.length,
            wins: d.wins,
            losses: d.losses,
            hasEntry: d.hasEntry,
            ruleBreaks: d.ruleBreaks,
          };
        });
      return { days: rows, currency: { mode: conversion.mode, home, currencies: conversion.currencies } };
    },

    /** The day's journal entry (empty when none) and the trades that closed on it in the zone, newest first. */
    async day(
      userId: string,
      date: string,
      timeZone: string,
      platform?: PlatformQuery,
    ): Promise<JournalDay & { trades: TradeListItem[] }> {
      const entry = await db
        .selectFrom('journal_days')
        .select(['note', 'mood', 'updated_at'])
        .where('user_id', '=', userId)
        .where('day', '=', date)
        .executeTakeFirst();
      const start = parseDay(date);
      const batches = await views.tradeBatches(
        userId,
        closedIn(
          startOfDay(start, timeZone).toISOString(),
          startOfDay(addDays(start, 1), timeZone).toISOString(),
          platform,
        ),
        { sort: 'closeTime', order: 'desc' },
      );
      const trades: TradeListItem[] = [];
      for await (const batch of batches) trades.push(...batch);
      return {
        date,
        note: entry?.note ?? '',
        mood: entry?.mood === null || entry?.mood === undefined ? null : Number(entry.mood),
        updatedAt: entry?.updated_at ?? null,
        trades,
      };
    },

    /** The moods the journal's days of `from` … `to` (YYYY-MM-DD, inclusive) carry, in date order (the coach reads them). */
    async moods(userId: string, from: string, to: string): Promise<Array<{ date: string; mood: number }>> {
      const rows = await db
        .selectFrom('journal_days')
        .select(['day', 'mood'])
        .where('user_id', '=', userId)
        .where('day', '>=', from)
        .where('day', '<=', to)
        .where('mood', 'is not', null)
        .orderBy('day')
        .execute();
      return rows.map((r) => ({ date: r.day, mood: Number(r.mood) }));
    },

    /** Writes the day's entry as a whole (an empty note and no mood leave an entry that says nothing). */
    async updateDay(userId: string, date: string, body: { note: string; mood: number | null }): Promise<JournalDay> {
      const at = now().toISOString();
      await db
        .insertInto('journal_days')
        .values({ user_id: userId, day: date, note: body.note, mood: body.mood, created_at: at, updated_at: at })
        .onConflict((oc) =>
          oc.columns(['user_id', 'day']).doUpdateSet({ note: body.note, mood: body.mood, updated_at: at }),
        )
        .execute();
      return { date, note: body.note, mood: body.mood, updatedAt: at };
    },
  };
}
export type CalendarService = ReturnType<typeof createCalendarService>;
