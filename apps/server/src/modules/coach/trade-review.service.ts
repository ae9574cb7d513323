import { createHash } from 'node:crypto';
import {
  BUILTIN_SOURCE,
  type CoachFact,
  type TradeListItem,
  type TradePlaybook,
  type TradeReview,
  type TradeReviewData,
} from '@pipsense/contract';
import type { LlmProvider, LlmRequest } from '../../integrations/llm';
import { compareDecimals, sumDecimals } from '../../domain/decimal';
import { AppError, conflict } from '../../lib/errors';
import { createUserConcurrency, type UserConcurrency } from '../../lib/user-concurrency';
import { AiBudgetExhaustedError, type AiBudget } from '../ai-usage';
import type { CoachSettingsStore } from './coach-settings';
import { tradeFacts, type TradeCandles } from './facts/trade-facts';
import type { Bar } from './facts/indicators';
import type { CoachCandle, CoachTradePorts, OwnedTrade, TradeFigure, TradeRef } from './ports';
import { builtinReview } from './review/builtin-analyst';
import { ReviewRejectedError, writeReview } from './review/provider-writer';
import type { TradeReviewRepository } from './trade-review.repository';

/** A trader's reviews asked for at once (docs/decisions/019-per-user-concurrency.md): one running, two waiting. */
const REVIEW_CONCURRENCY = { running: 1, queued: 2, what: 'trade review' } as const;

/** A background pass looks again at stored reviews of trades closed this recently (a journal entry written later). */
const STALE_WINDOW_MS = 14 * 86_400_000;
const HOUR_MS = 3_600_000;
/** How long shutting down waits for a background pass to end its current review. */
const CLOSE_WAIT_MS = 5_000;

/**
 * The candles read before an entry: enough complete candles for the EMA(50) slope and the 50-candle range, with a
 * weekend (or two, for H4) in between.
 */
const CANDLE_LOOKBACK_MS = { H1: 6 * 86_400_000, H4: 16 * 86_400_000 } as const;
const CANDLE_MS = { H1: HOUR_MS, H4: 4 * HOUR_MS } as const;

interface TradeReviewDeps {
  ports: CoachTradePorts;
  repository: TradeReviewRepository;
  settings: CoachSettingsStore;
  /** The daily budget of provider requests (AI_DAILY_REQUESTS); every provider call counts against it. */
  budget?: AiBudget | undefined;
  /** COACH_DAILY_REQUESTS: background provider requests per user per UTC day. */
  backgroundDailyRequests: number;
  /** The per-user limit of reviews asked for (default REVIEW_CONCURRENCY). */
  limit?: UserConcurrency | undefined;
  now: () => Date;
  /** Budget of one provider call (default 60 s). */
  timeoutMs?: number | undefined;
  log: (err: unknown, context: Record<string, unknown>) => void;
}

/** What a review is made from: the trade, its facts and their data version. */
interface Gathered {
  owned: OwnedTrade;
  trade: TradeListItem;
  facts: CoachFact[];
  dataVersion: string;
}

/** Reads shared by the reviews of one pass (a backlog reads the book once, each instrument's trades once). */
interface PassCache {
  figures?: Promise<TradeFigure[]>;
  instruments: Map<string, Promise<TradeListItem[]>>;
  hasRules?: Promise<boolean>;
}
const newCache = (): PassCache => ({ instruments: new Map() });

const utcDay = (at: Date): string => at.toISOString().slice(0, 10);
const keyOf = (k: { accountKey: string; tradeId: string }) => `${k.accountKey} ${k.tradeId}`;

const toBars = (candles: readonly CoachCandle[] | null, beforeMs: number, step: number): Bar[] | null =>
  candles === null
    ? null
    : candles
        .filter((c) => c.complete && Date.parse(c.time) + step <= beforeMs)
        .map((c) => ({ time: Date.parse(c.time), h: Number(c.h), l: Number(c.l), c: Number(c.c) }));

/** The candles' part of the data version: how many were used and the last one's time, per granularity. */
const candleSummary = (bars: readonly Bar[] | null) =>
  bars === null ? null : { count: bars.length, last: bars.at(-1)?.time ?? null };

/**
 * The data version of a trade's review (docs/coach.md, Reviews, Staleness): a digest of what it depends on: the
 * trade's fields (not its write times), its journal entry (note, rating, tags), its playbook review, the candles
 * used (count and last time per granularity), and the facts themselves (which carry the trader's other trades'
 * medians and the latest loss before the entry).
 */
function dataVersionOf(
  trade: TradeListItem,
  playbook: TradePlaybook | null,
  candles: TradeCandles,
  facts: readonly CoachFact[],
): string {
  const { updatedAt: _u, createdAt: _c, attachmentCount: _a, tags, ...fields } = trade;
  const digestOf = {
    fields,
    tags: tags.map((t) => t.id).sort(),
    playbook: playbook && {
      playbookId: playbook.playbookId,
      reviewed: playbook.reviewed,
      followed: [...playbook.followedRuleIds].sort(),
    },
    candles: { h1: candleSummary(candles.h1), h4: candleSummary(candles.h4) },
    facts,
  };
  return createHash('sha256').update(JSON.stringify(digestOf)).digest('base64url').slice(0, 32);
}

/** Thrown by the coach's share when the day's background provider requests are used up. */
class CoachShareSpent extends Error {}

/**
 * The coach's per-trade reviews (docs/coach.md, Reviews): facts from code, points from the provider or the built-in
 * analyst, stored with the data version they were made from.
 */
export function createTradeReviewService(deps: TradeReviewDeps) {
  const { ports, repository, log } = deps;
  const turns = deps.limit ?? createUserConcurrency(REVIEW_CONCURRENCY);
  const timeoutMs = deps.timeoutMs ?? 60_000;
  const passes = new Map<string, { again: boolean; done: Promise<number> }>();
  let closing = false;

  async function candlesOf(
    userId: string,
    trade: TradeListItem,
    granularity: 'H1' | 'H4',
    background: boolean,
  ): Promise<Bar[] | null> {
    const entry = Date.parse(trade.openTime);
    const step = CANDLE_MS[granularity];
    const to = new Date(Math.floor(entry / step) * step).toISOString();
    const from = new Date(entry - CANDLE_LOOKBACK_MS[granularity]).toISOString();
    try {
      return toBars(await ports.candles(userId, trade, { granularity, from, to, background }), entry, step);
    } catch (error) {
      // In the background OANDA failing stops the pass (the next sync starts another); a trader waiting gets the
      // facts without candles (which a later look, with candles, finds stale).
      if (background) throw error;
      log(error, { userId, instrument: trade.instrument, granularity, stage: 'coach candles' });
      return null;
    }
  }

  async function gather(userId: string, ref: TradeRef, background: boolean, cache: PassCache): Promise<Gathered> {
    cache.figures ??= ports.tradeFigures(userId);
    cache.hasRules ??= ports.hasPersonalRules(userId);
    // Read at once: the trade's ownership (its 404 comes first), the book, the settings and the playbook review.
    const [owned, figures, settings, playbook, hasPersonalRules] = await Promise.all([
      ports.ownedTrade(userId, ref),
      cache.figures,
      deps.settings.get(userId),
      ports.playbookReview(userId, ref),
      cache.hasRules,
    ]);
    const figure = figures.find((f) => f.accountId === owned.accountId && f.tradeId === owned.tradeId);
    const instrument = figure?.instrument;
    let list = instrument === undefined ? undefined : cache.instruments.get(instrument);
    if (instrument !== undefined && list === undefined) {
      list = ports.tradesOn(userId, instrument);
      cache.instruments.set(instrument, list);
    }
    const onInstrument = list ? await list : [];
    const trade = onInstrument.find((t) => t.accountId === owned.accountId && t.tradeId === owned.tradeId);
    // Written between the reads (a sync): the next look finds it.
    if (!trade) throw conflict('The trade changed while it was read. Try again in a moment.', 'TRADE_CHANGED');
    const others = onInstrument.filter((t) => t !== trade && t.state === 'CLOSED' && t.closeTime !== null);

    const entry = Date.parse(trade.openTime);
    let previousLossClose: string | null = null;
    for (const f of figures) {
      if (f.closeTime === null || Date.parse(f.closeTime) > entry) continue;
      if (f.accountId === owned.accountId && f.tradeId === owned.tradeId) continue;
      if (compareDecimals(sumDecimals([f.realizedPL, f.financing]), '0') >= 0) continue;
      if (previousLossClose === null || f.closeTime > previousLossClose) previousLossClose = f.closeTime;
    }

    const [h1, h4] = await Promise.all([
      candlesOf(userId, trade, 'H1', background),
      candlesOf(userId, trade, 'H4', background),
    ]);
    const candles: TradeCandles = { h1, h4 };
    const facts = tradeFacts({
      trade,
      others,
      previousLossClose,
      candles,
      playbook,
      hasPersonalRules,
      revengeMinutes: settings.thresholds.revengeMinutes,
    });
    return { owned, trade, facts, dataVersion: dataVersionOf(trade, playbook, candles, facts) };
  }

  /** The coach's share of background provider requests: each call first takes one (coach_ai_usage). */
  function coachShare(inner: LlmProvider, userId: string): LlmProvider {
    const take = async () => {
      if (!(await repository.takeBackgroundRequest(userId, utcDay(deps.now()), deps.backgroundDailyRequests)))
        throw new CoachShareSpent();
    };
    return {
      ...inner,
      model: (topic) => inner.model(topic),
      async complete(request: LlmRequest) {
        await take();
        return inner.complete(request);
      },
      async *stream(request: LlmRequest) {
        await take();
        yield* inner.stream(request);
      },
    };
  }

  /** The provider a review may use now, or undefined for the built-in analyst (docs/coach.md, Cost and privacy). */
  async function providerFor(userId: string, byUser: boolean): Promise<LlmProvider | undefined> {
    const provider = await ports.provider(userId);
    if (!provider) return undefined;
    if (!byUser) {
      if (!(await deps.settings.get(userId)).aiWritten) return undefined;
      if ((await repository.backgroundRequests(userId, utcDay(deps.now()))) >= deps.backgroundDailyRequests)
        return undefined;
    }
    if (deps.budget && !(await deps.budget.hasRoom(userId))) return undefined;
    const billed = deps.budget ? deps.budget.provider(provider, userId) : provider;
    return byUser ? billed : coachShare(billed, userId);
  }

  async function write(
    userId: string,
    gathered: Gathered,
    byUser: boolean,
  ): Promise<{ review: TradeReview; source: string }> {
    const provider = await providerFor(userId, byUser);
    if (provider) {
      const controller = new AbortController();
      const timer = setTimeout(
        () => controller.abort(new DOMException(`${provider.label} did not answer in time.`, 'TimeoutError')),
        timeoutMs,
      );
      try {
        const written = await writeReview(provider, provider.model('trading'), gathered.facts, controller.signal);
        return { review: written.review, source: written.model };
      } catch (error) {
        // Out of requests is not a failure; a refused answer or a provider error is logged. Either way the built-in
        // analyst writes the review.
        if (!(error instanceof AiBudgetExhaustedError) && !(error instanceof CoachShareSpent))
          log(error, {
            userId,
            provider: provider.id,
            stage: error instanceof ReviewRejectedError ? 'review refused' : 'review call',
          });
      } finally {
        clearTimeout(timer);
      }
    }
    return { review: builtinReview(gathered.facts), source: BUILTIN_SOURCE };
  }

  const patternsOf = async (userId: string, ref: TradeRef): Promise<string[]> =>
    ports.patternsOfTrade ? ports.patternsOfTrade(userId, ref) : [];

  async function reviewNow(userId: string, ref: TradeRef, byUser: boolean, cache: PassCache): Promise<TradeReviewData> {
    const gathered = await gather(userId, ref, !byUser, cache);
    if (gathered.trade.state !== 'CLOSED' || gathered.trade.closeTime === null)
      throw conflict(
        'This trade is still open: it can be reviewed once it is closed, when its exit and result are known.',
        'TRADE_OPEN',
      );
    const written = await write(userId, gathered, byUser);
    const createdAt = deps.now().toISOString();
    await repository.save(userId, gathered.owned, {
      dataVersion: gathered.dataVersion,
      facts: gathered.facts,
      review: written.review,
      source: written.source,
      createdAt,
    });
    return {
      review: written.review,
      facts: gathered.facts,
      source: written.source,
      dataVersion: gathered.dataVersion,
      stale: false,
      createdAt,
      patterns: await patternsOf(userId, ref),
    };
  }

  /** One pass over the user's closed trades: each with no review, or a stale one closed recently, is reviewed. */
  async function backgroundPass(userId: string): Promise<number> {
    const settings = await deps.settings.get(userId);
    if (!settings.autoReview) return 0;
    const cache = newCache();
    cache.figures = ports.tradeFigures(userId);
    const [figures, versions] = await Promise.all([cache.figures, repository.versions(userId)]);
    const recent = deps.now().getTime() - STALE_WINDOW_MS;
    const closed = figures.filter((f) => f.closeTime !== null).sort((a, b) => (a.closeTime! < b.closeTime! ? 1 : -1));
    let written = 0;
    for (const f of closed) {
      if (closing) break;
      const ref = { accountId: f.accountId, tradeId: f.tradeId };
      try {
        const owned = await ports.ownedTrade(userId, ref);
        const stored = versions.get(keyOf(owned));
        if (stored !== undefined && Date.parse(f.closeTime!) < recent) continue;
        if (stored !== undefined) {
          const current = await gather(userId, ref, true, cache);
          if (current.dataVersion === stored) continue;
        }
        await reviewNow(userId, ref, false, cache);
        written += 1;
      } catch (error) {
        log(error, { userId, tradeId: f.tradeId, stage: 'background review' });
        // OANDA away (or the database) stops the pass: the rest waits for the next sync.
        if (!(error instanceof AppError)) break;
      }
    }
    return written;
  }

  return {
    /** The stored review and who wrote it, or null; no fact is computed (the weekly review's best and worst). */
    async stored(userId: string, ref: TradeRef): Promise<{ review: TradeReview; source: string } | null> {
      const owned = await ports.ownedTrade(userId, ref);
      const stored = await repository.find(userId, owned);
      return stored ? { review: stored.review, source: stored.source } : null;
    },

    /** The stored review with the facts as computed now; never writes (docs/coach.md, Reviews). */
    async get(userId: string, ref: TradeRef): Promise<TradeReviewData> {
      const gathered = await gather(userId, ref, false, newCache());
      const [stored, patterns] = await Promise.all([repository.find(userId, gathered.owned), patternsOf(userId, ref)]);
      return {
        review: stored?.review ?? null,
        facts: gathered.facts,
        source: stored?.source ?? null,
        dataVersion: gathered.dataVersion,
        stale: stored !== undefined && stored.dataVersion !== gathered.dataVersion,
        createdAt: stored?.createdAt ?? null,
        patterns,
      };
    },

    /**
     * Makes the trade's review now and stores it. `byUser` (the button): the configured provider when there is one,
     * within the daily AI budget, at the user's limit of reviews at once (429 past it). Otherwise (the background):
     * the built-in analyst unless the trader turned on AI-written reviews, and then within COACH_DAILY_REQUESTS.
     * 409 for an open trade.
     */
    review(userId: string, ref: TradeRef, { byUser }: { byUser: boolean }): Promise<TradeReviewData> {
      if (!byUser) return reviewNow(userId, ref, false, newCache());
      return turns.run(userId, () => reviewNow(userId, ref, true, newCache()));
    },

    /**
     * After a sync or an import wrote trades: when the trader turned automatic reviews on, reviews the closed trades
     * with none (or a stale one, closed in the last 14 days), newest first; one pass per user at a time (a call
     * during a pass runs one more after it). Resolves to how many were written; failures are logged, never thrown.
     */
    async reviewNewTrades(userId: string): Promise<number> {
      if (closing) return 0;
      const running = passes.get(userId);
      if (running) {
        running.again = true;
        return 0;
      }
      let resolve!: (n: number) => void;
      const state = { again: false, done: new Promise<number>((r) => (resolve = r)) };
      passes.set(userId, state);
      let total = 0;
      try {
        do {
          state.again = false;
          total += await backgroundPass(userId);
        } while (state.again && !closing);
      } catch (error) {
        log(error, { userId, stage: 'background reviews' });
      } finally {
        passes.delete(userId);
        resolve(total);
      }
      return total;
    },

    /** Stops the background passes after their current review (the server shutting down). */
    async close(): Promise<void> {
      closing = true;
      // A pass may be waiting for the candle budget: shutting down waits for it a few seconds, not a whole window.
      await Promise.race([
        Promise.all([...passes.values()].map((p) => p.done)),
        new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref()),
      ]);
    },
  };
}
export type TradeReviewService = ReturnType<typeof createTradeReviewService>;
