import {
  dashboardMetrics,
  type AccountItem,
  type DashboardMetrics,
  type InsightsStatus,
  type Mode,
  type OverviewReturn,
  type PlatformQuery,
  type TagFacts,
  type TradeItem,
  type TradeTag,
  type PlaybookReview,
} from '@pipsense/contract';
import type { LlmProvider, LlmProviders } from '../../integrations/llm';
import { badRequest } from '../../lib/errors';
import type { SettingsService } from '../settings';
import { accountKeyOf, isAccountNamed, type TradingService } from '../trading';
import { tradeRef, type JournalFactsService } from '../journal';
import {
  buildInsights,
  engineAccountFromItem,
  engineTradeFromItem,
  insightsSchema,
  type EngineTrade,
  tagBreakdown,
  toInsightCards,
  type OverviewInsights,
  type OverviewMetrics,
} from './engine';
import { overviewSelection, sliceBook, type OverviewSelection, type OverviewTrades } from './overview-trades';
import { createBookCache, type BookCache } from './book-cache';
import type { DataVersion, SnapshotRepository, SnapshotRow } from './overview-snapshots.repository';
import {
  afterSyncNote,
  fallbackNote,
  isTransient,
  notConfiguredNote,
  pendingNote,
  unreadableNote,
} from './insight-notes';
import type { InsightsClaim, InsightsRepository, InsightsRow } from './insights.repository';
import { factsKey, writeInsights, writerFacts, type WriterFacts } from './insights-writer';
import { AiBudgetExhaustedError, budgetInsightsNote, type AiBudget } from '../ai-usage';
import { createUserConcurrency, type UserConcurrency } from '../../lib/user-concurrency';
import { lastCompleteDay, noDailyRates, type DailyRates } from '../../domain/currency-totals';
import { overviewInCurrencies, type CurrencyOverview, type MissingRate } from './currency-overview';
import { NO_RULE_BREAKS, type RuleBreakIndex, type RuleBreakSource } from '../trade-views';
import { ruleBreakSummary, type RuleBreakSummary } from './rule-break-summary';

/** Part of every insights version: raise it when the prompt or the shape of the facts given to the provider change. */
const WRITER_REVISION = 3;
/** Time allowed for one provider call, retries included. */
const DEFAULT_TIMEOUT_MS = 60_000;
/** After a transient failure (timeout, rate limit, outage), a page view may ask the provider again after this. */
const DEFAULT_RETRY_PAUSE_MS = 10 * 60_000;

/** What the Overview reads of money over time: the money module's returns, through app.ts. */
interface ReturnsSource {
  returnsByCurrency(
    userId: string,
    query: {
      accounts: ReadonlyArray<{ accountKey: string; currency: string | null }>;
      from?: string | undefined;
      to?: string | undefined;
    },
  ): Promise<OverviewReturn[]>;
}

export interface AnalyticsServiceDeps {
  trading: Pick<TradingService, 'accounts' | 'isSyncing'>;
  settings: Pick<SettingsService, 'defaultAiPlatform' | 'timeZone' | 'homeCurrency'>;
  /**
   * The user's daily exchange rates for money of several currencies (docs/decisions/024-currencies-never-mixed.md);
   * without them (the default) such money is listed per currency.
   */
  ratesFor?: ((userId: string) => DailyRates) | undefined;
  /**
   * The time-weighted return per currency of accounts' combined balance (the money module's `returnsByCurrency`,
   * docs/money.md, wired in app.ts); without it the Overview shows no return (null).
   */
  returns?: ReturnsSource | undefined;
  /** The same provider instances the assistant uses. */
  providers: LlmProviders;
  /**
   * The trades that broke a rule of the user's rule sets (the rules module's, wired in app.ts: docs/rules.md, Where
   * breaks are shown); without it nothing broke one and the Overview shows no rule-break line (null).
   */
  ruleBreaks?: RuleBreakSource | undefined;
  /** The daily budget of provider requests the assistant shares (SECURITY.md, "AI cost"); unset: no limit. */
  budget?: AiBudget | undefined;
  insights: InsightsRepository;
  journal: Pick<JournalFactsService, 'tags' | 'tagsByTrade'>;
  /** The trades an overview reads (overview-trades.ts). */
  source: Pick<OverviewTrades, 'book' | 'count' | 'slice' | 'accountKeysNamed' | 'reviewsFor'>;
  /** The books held in memory by this instance (book-cache.ts; default: its own, of the default size). */
  books?: BookCache | undefined;
  /** The unfiltered overviews, one per scope and data version. */
  snapshots: SnapshotRepository;
  now: () => Date;
  /** Budget of one provider call for the insights (default 60 s). */
  timeoutMs?: number | undefined;
  /** Pause before a transient failure is retried (default 10 minutes). */
  retryPauseMs?: number | undefined;
  log?: (error: unknown, context: Record<string, unknown>) => void;
  /** Overview computations of one user at once (SECURITY.md, "One user starving the others"); default COMPUTE_CONCURRENCY. */
  computeLimit?: UserConcurrency | undefined;
}

/**
 * Overview computations (a filtered view, or a snapshot to compute afresh) one user's requests may have at once: 2
 * running, 4 more waiting in order, then 429 TOO_MANY_RUNNING. Reading a stored snapshot is not limited, and neither
 * are the refreshes the sync and import jobs run (docs/decisions/019-per-user-concurrency.md).
 */
export const COMPUTE_CONCURRENCY = { running: 2, queued: 4, what: 'Overview computation' } as const;

export interface OverviewRequest {
  /** The browser's zone: used when the trader has saved none in Profile. */
  timeZone: string;
  /**
   * One platform's trades and accounts (the contract defaults it to 'oanda'): OANDA and MetaTrader
   * overviews never mix, nor do their insights (the cache scope and the data version carry the platform).
   */
  platform?: PlatformQuery | undefined;
  /** Both modes when left out. */
  mode?: Mode | undefined;
  /** The journal's slice (contract dashboardMetricsQuery): open time from/to (ISO, inclusive), one account
   * (its OANDA account id), one instrument, trades with any of the tag ids. */
  from?: string | undefined;
  to?: string | undefined;
  accountId?: string | undefined;
  instrument?: string | undefined;
  tag?: string[] | undefined;
  /** Only the trades that broke a rule of the user's rule sets (true), or only the others (false). */
  ruleBreak?: boolean | undefined;
  /** Only the trades on this playbook, and of them (or of every assigned trade) one review state (docs/review.md). */
  playbookId?: string | undefined;
  playbookReview?: PlaybookReview | undefined;
}

/** Whether the request slices the overview (anything beyond zone and mode). */
export const isSliced = (r: OverviewRequest): boolean =>
  Boolean(r.from || r.to || r.accountId || r.instrument || (r.tag && r.tag.length > 0)) ||
  r.ruleBreak !== undefined ||
  r.playbookId !== undefined ||
  r.playbookReview !== undefined;

interface InsightsView {
  cards: OverviewInsights;
  status: InsightsStatus;
}

/** The zone as Intl names it ('utc' → 'UTC'), so that one zone has one cache key; 400 for an unknown zone. */
function canonicalZone(timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    throw badRequest('timeZone must be an IANA time zone such as Europe/London', 'VALIDATION_FAILED');
  }
}

/** The overview's R figures (METRICS.md, "Risk in R"), from the engine's facts. */
function riskInR(metrics: OverviewMetrics): DashboardMetrics['riskInR'] {
  const risk = metrics.facts.risk;
  return {
    averageR: risk?.averageR ?? null,
    expectancyR: risk?.expectancyR ?? null,
    tradesWithInitialStop: risk?.tradesWithInitialStop ?? 0,
    closedWithInitialStop: risk?.closedWithInitialStop ?? 0,
    closedWithoutInitialStop: risk?.closedWithoutInitialStop ?? 0,
  };
}

const status = (
  source: InsightsStatus['source'],
  state: InsightsStatus['status'],
  note: string | null = null,
  extra: { model?: string | null; writtenAt?: string | null } = {},
): InsightsStatus => ({ source, status: state, note, model: extra.model ?? null, writtenAt: extra.writtenAt ?? null });

/**
 * The Overview analytics: metrics from the engine over the user's synced trades and accounts, and the insight
 * cards, written by the user's AI provider once per data version (in the background, cached in the database)
 * or by the built-in rules meanwhile, without a provider, and when the provider fails.
 */
/** What the journal knows of a user's trades, keyed by tradeRef (journal-facts.service.ts). */
export interface TradeJournal {
  tags: readonly TradeTag[];
  tagsByTrade: ReadonlyMap<string, readonly string[]>;
}

/**
 * The by-tag rows of these trades (engine/by-tag.ts): the overview's byTag and the assistant's compare_tags, one
 * computation.
 */
export function tagFactsOf(
  items: ReadonlyArray<TradeItem & { initialStopLossPrice?: string | null }>,
  journal: TradeJournal,
): TagFacts[] {
  const refs = items.map((item) => tradeRef(item.accountId, item.tradeId));
  // The first stop-loss the sync kept comes with each stored trade (trade-views): R needs it.
  const trades = items.map((item) => engineTradeFromItem(item, item.initialStopLossPrice ?? null));
  return tagBreakdown(trades, (i) => journal.tagsByTrade.get(refs[i]!), journal.tags);
}

/**
 * Insights of a sliced overview (date range, account, instrument or tag) are the built-in ones, computed with its
 * metrics: an AI provider is asked only for the whole overview (per mode and zone, once per data version), never
 * once per filter combination.
 */
export const SLICED_INSIGHTS_NOTE =
  'Built-in insights for this filtered view; the AI-written insights cover the whole overview without filters.';

/**
 * One unfiltered overview: a platform, a mode (both when left out), the zone its days and hours are in, and the home
 * currency money of several currencies is converted into (docs/decisions/024-currencies-never-mixed.md).
 */
interface OverviewScope {
  platform: PlatformQuery;
  mode?: Mode | undefined;
  zone: string;
  home: string;
}

const scopeKey = (s: OverviewScope): string => `${s.platform}|${s.mode ?? 'all'}|${s.zone}|${s.home}`;

function parseScope(key: string): OverviewScope | undefined {
  const [platform, mode, zone, home] = key.split('|');
  if ((platform !== 'oanda' && platform !== 'metatrader') || !zone || !home) return undefined;
  if (mode !== 'all' && mode !== 'demo' && mode !== 'live') return undefined;
  return { platform, mode: mode === 'all' ? undefined : mode, zone, home };
}

/**
 * The shape of what a snapshot holds: a snapshot of another revision is computed again when next read, whatever its
 * data version (1: the return, and the listed overview's missing rate).
 */
const SNAPSHOT_REVISION = 1;

/** What a snapshot's `meta` holds: what the insights need, without the overview itself. */
interface SnapshotMeta {
  builtin: OverviewInsights;
  facts: WriterFacts;
  tradeCount: number;
  accountCount: number;
  revision?: number;
  /**
   * A listed overview's first missing rate (currency-overview.ts): read again on every view, and the snapshot
   * computed again once it is known (docs/decisions/024-currencies-never-mixed.md).
   */
  missingRate?: MissingRate | null;
}

/** The overview without its insights and times: what a snapshot's `body` holds as JSON text. */
type OverviewFields = Omit<
  DashboardMetrics,
  'aiInsights' | 'quickWins' | 'longTermStrategy' | 'insights' | 'dataAsOf' | 'computedAt' | 'ruleBreaks'
>;

/**
 * The per-view rest of an overview: its insights and times, and its rule-break line. That line is never in a
 * snapshot: a snapshot is keyed by the data version, which a rule set created, edited or deleted does not move; the
 * line is computed on each view from the rules' break index (its own version) and the book (keyed by the data
 * version), so it is never stale.
 */
type OverviewExtras = Omit<DashboardMetrics, keyof OverviewFields>;

/** An unfiltered overview as JSON text (DashboardMetrics), with the counts its message names. */
export interface OverviewView {
  json: string;
  tradeCount: number;
  accountCount: number;
}

function overviewFields(metrics: OverviewMetrics, byTag: TagFacts[]): OverviewFields {
  return {
    byTag,
    riskInR: riskInR(metrics),
    tradeCount: metrics.tradeCount,
    accountCount: metrics.accountCount,
    winRate: metrics.winRate,
    lossRate: metrics.lossRate,
    topInstrument: metrics.topInstrument,
    avgHoldingTime: metrics.avgHoldingTime,
    weeklyTrades: metrics.weeklyTrades,
    summary: metrics.summary,
    behavioralAnalysis: metrics.behavioralAnalysis,
    riskAssessment: metrics.riskAssessment,
    performanceMetrics: metrics.performanceMetrics,
    tradingProfile: metrics.tradingProfile,
    instrumentBreakdown: metrics.instrumentBreakdown,
    charts: metrics.charts,
  };
}

/** The overview's fields with how its money is shown (currency-overview.ts) and its return. */
function overviewFieldsIn(view: CurrencyOverview, returns: OverviewReturn[] | null): OverviewFields {
  return { ...overviewFields(view.metrics, view.byTag), currency: view.currency, money: view.money, returns };
}

/** The last time a sync or an import wrote or confirmed these accounts (RFC 3339), or null without any. */
function newestSync(accounts: readonly AccountItem[]): string | null {
  let newest: string | null = null;
  for (const a of accounts) if (newest === null || Date.parse(a.syncedAt) > Date.parse(newest)) newest = a.syncedAt;
  return newest;
}

/** Engine runs of the overviews in this process (tests prove a snapshot is served without one). */
let engineRuns = 0;
export const overviewEngineRuns = (): number => engineRuns;

export function createAnalyticsService(deps: AnalyticsServiceDeps) {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retryPauseMs = deps.retryPauseMs ?? DEFAULT_RETRY_PAUSE_MS;
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  const books = deps.books ?? createBookCache();
  const computeTurns = deps.computeLimit ?? createUserConcurrency(COMPUTE_CONCURRENCY);
  let closing = false;

  function log(error: unknown, context: Record<string, unknown>): void {
    deps.log?.(error, context);
  }

  const breakIndexOf = (userId: string): Promise<RuleBreakIndex> =>
    deps.ruleBreaks ? deps.ruleBreaks(userId) : Promise.resolve(NO_RULE_BREAKS);

  /** Asks the provider in the background and stores what comes of it; nothing waits on this. */
  function generate(claim: InsightsClaim, provider: LlmProvider, facts: WriterFacts): void {
    const key = `${claim.userId}|${claim.scope}|${claim.version}`;
    const controller = new AbortController();
    // A timer of our own: a signal combined with AbortSignal.any() is held weakly and may never fire on Node 20.
    const timer = setTimeout(
      () => controller.abort(new DOMException(`${provider.label} did not answer in time.`, 'TimeoutError')),
      timeoutMs,
    );
    const done = (async () => {
      try {
        const written = await writeInsights(provider, claim.model, facts, controller.signal);
        if (closing) return;
        await deps.insights.finish(claim, {
          status: 'ready',
          model: written.model,
          insights: JSON.stringify(written.insights),
          note: null,
          writtenAt: deps.now().toISOString(),
          retryAfter: null,
        });
      } catch (error) {
        // Stopped by the server shutting down: the claim goes stale and the next page view takes it over.
        if (closing) return;
        const at = deps.now();
        // The day's requests ran out between the check and the call: asked again after midnight UTC.
        const overBudget = error instanceof AiBudgetExhaustedError;
        if (!overBudget) log(error, { userId: claim.userId, provider: provider.id, scope: claim.scope });
        await deps.insights.finish(claim, {
          status: 'fallback',
          model: claim.model,
          insights: null,
          note: overBudget ? budgetInsightsNote(error.limit) : fallbackNote(error, provider.label),
          writtenAt: at.toISOString(),
          retryAfter: overBudget
            ? error.resetsAt
            : isTransient(error)
              ? new Date(at.getTime() + retryPauseMs).toISOString()
              : null,
        });
      }
    })()
      .catch((error: unknown) => log(error, { userId: claim.userId, scope: claim.scope, stage: 'store insights' }))
      .finally(() => {
        clearTimeout(timer);
        running.delete(key);
      });
    running.set(key, { controller, done });
  }

  function fromRow(row: InsightsRow, provider: LlmProvider, builtin: OverviewInsights): InsightsView | undefined {
    if (row.status === 'ready') {
      const parsed = insightsSchema.safeParse(row.insights === null ? null : JSON.parse(row.insights));
      if (!parsed.success)
        return { cards: builtin, status: status('builtin', 'fallback', unreadableNote(provider.label)) };
      return {
        cards: toInsightCards(parsed.data, provider.id),
        status: status(provider.id, 'ready', null, { model: row.model, writtenAt: row.written_at }),
      };
    }
    return undefined;
  }

  async function insightsFor(
    userId: string,
    snapshot: SnapshotMeta,
    version: DataVersion,
    dataAsOf: string | null,
    scope: OverviewScope,
    /** The facts the provider writes from: those of `scope`, whose zone is the insights zone (see `view`). */
    writer: SnapshotMeta,
  ): Promise<InsightsView> {
    const builtin = snapshot.builtin;
    // Nothing synced: there is nothing for a provider to write about.
    if (snapshot.tradeCount === 0 || dataAsOf === null) return { cards: builtin, status: status('builtin', 'ready') };

    const platform = await deps.settings.defaultAiPlatform(userId);
    const provider = platform === 'openai' || platform === 'vertexai' ? deps.providers[platform] : undefined;
    if (!provider) return { cards: builtin, status: status('builtin', 'ready', notConfiguredNote(platform)) };

    const model = provider.model('trading');
    const insightsScope = `${scopeKey(scope)}|${provider.id}`;
    // Keyed by the facts the provider would be given, not by the data version: a sync that moved only prices (open
    // trades' unrealized P/L, the accounts' NAV and margin) moves the data version but none of these facts.
    const insightsVersion = `${WRITER_REVISION}:${model}:${factsKey(writer.facts)}`;
    const now = deps.now();
    const row = await deps.insights.find(userId, insightsScope);
    if (row && row.version === insightsVersion) {
      const ready = fromRow(row, provider, builtin);
      if (ready) return ready;
      const retryDue =
        row.status === 'fallback' && row.retry_after !== null && Date.parse(row.retry_after) <= now.getTime();
      const stalled = row.status === 'pending' && Date.parse(row.started_at) < now.getTime() - 2 * timeoutMs;
      if (row.status === 'fallback' && !retryDue)
        return { cards: builtin, status: status('builtin', 'fallback', row.note, { writtenAt: row.written_at }) };
      if (row.status === 'pending' && !stalled)
        return { cards: builtin, status: status('builtin', 'pending', pendingNote(provider.label)) };
    }

    // Data read in the middle of a sync is about to change: write for the data the sync leaves behind.
    if (deps.trading.isSyncing(userId, 'trades') || deps.trading.isSyncing(userId, 'accounts'))
      return { cards: builtin, status: status('builtin', 'pending', afterSyncNote(provider.label)) };

    const claim: InsightsClaim = {
      userId,
      scope: insightsScope,
      version: insightsVersion,
      // A claim never moves back to older data: the counters' last change orders the versions.
      dataAsOf: version.changedAt ?? now.toISOString(),
      provider: provider.id,
      model,
      startedAt: now.toISOString(),
      staleBefore: new Date(now.getTime() - 2 * timeoutMs).toISOString(),
    };
    // Today's provider requests used up (SECURITY.md, "AI cost"): the built-in cards, until midnight UTC; nothing is stored.
    if (deps.budget && !(await deps.budget.hasRoom(userId)))
      return { cards: builtin, status: status('builtin', 'ready', budgetInsightsNote(deps.budget.limit)) };
    const billed = deps.budget ? deps.budget.provider(provider, userId) : provider;
    if (!closing && (await deps.insights.claim(claim))) generate(claim, billed, writer.facts);
    return { cards: builtin, status: status('builtin', 'pending', pendingNote(provider.label)) };
  }

  /**
   * The engine's trades of a slice: filtered in memory from the platform's book of this data version (held by this
   * instance, or read once and kept), or, for a book too large to keep, read with the filters in SQL.
   */
  async function tradesOf(
    userId: string,
    slice: OverviewSelection,
    version: DataVersion,
    tagsByTrade: ReadonlyMap<string, readonly string[]>,
  ): Promise<EngineTrade[]> {
    const key = `${userId}|${slice.platform}`;
    const facts = async () => ({
      accountKeys: slice.account ? await deps.source.accountKeysNamed(userId, slice.account) : undefined,
      tagsByTrade,
      reviewsByTrade: await deps.source.reviewsFor(userId, slice),
    });
    const held = books.held(key, version.data);
    if (held) return sliceBook(held, slice, await facts());
    if (!books.fits(await deps.source.count(userId, slice.platform))) return deps.source.slice(userId, slice);
    const book = await books.get(key, version.data, () => deps.source.book(userId, slice.platform));
    return sliceBook(book, slice, await facts());
  }

  /** Computes one overview (a slice, or the whole of a scope for its snapshot): the engine, once. */
  async function compute(
    userId: string,
    slice: OverviewSelection,
    version: DataVersion,
    timeZone: string,
    now: Date,
    home: string,
    /** The rules' break index, for the view's rule-break line; the snapshots hold none (OverviewExtras). */
    breaks?: RuleBreakIndex,
  ) {
    const [allAccounts, tags, tagsByTrade] = await Promise.all([
      deps.trading.accounts(userId, slice.mode, slice.platform),
      deps.journal.tags(userId),
      deps.journal.tagsByTrade(userId),
    ]);
    const wanted = slice.tags ?? [];
    const known = new Set(tags.map((t) => t.id));
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length > 0)
      throw badRequest(
        `tag ${unknown.join(', ')} is not one of your tags: pick tags from GET /api/v1/journal/get_tags`,
        'VALIDATION_FAILED',
      );
    const trades = await tradesOf(userId, slice, version, tagsByTrade);
    const ruleBreaks = breaks ? await ruleBreaksIn(userId, slice, version, tagsByTrade, breaks, allAccounts) : null;
    // The account as the API names it: its login or (MetaTrader, whose oandaAccountId is the key) its key.
    const named = slice.account;
    const accountItems = named ? allAccounts.filter((a) => isAccountNamed(a, named)) : allAccounts;
    // The accounts' return (docs/money.md, Returns on the Overview): of the accounts in view over the date range; a
    // slice by instrument or tag holds some of their trades only, and has none.
    const returnsOf = async (): Promise<OverviewReturn[] | null> =>
      deps.returns && !slice.instrument && wanted.length === 0
        ? deps.returns.returnsByCurrency(userId, {
            accounts: accountItems.map((a) => ({ accountKey: accountKeyOf(a), currency: a.currency })),
            from: slice.time?.from,
            to: slice.time?.to,
          })
        : null;
    engineRuns += 1;
    const [view, returns] = await Promise.all([
      overviewInCurrencies({
        trades,
        accounts: accountItems.map(engineAccountFromItem),
        options: {
          now,
          timeZone,
          // A slice by date, instrument or tag is not the accounts' whole history: their balances say nothing of its
          // starting equity.
          sliceOfHistory: Boolean(slice.time || slice.instrument || wanted.length > 0),
        },
        home,
        rates: deps.ratesFor?.(userId) ?? noDailyRates,
        byTagOf: (list) =>
          tagBreakdown(list, (i) => tagsByTrade.get(tradeRef(list[i]!.accountId, list[i]!.tradeId)), tags),
      }),
      returnsOf(),
    ]);
    return { view, returns, metrics: view.metrics, byTag: view.byTag, dataAsOf: newestSync(accountItems), ruleBreaks };
  }

  /**
   * The rule-break line of a view (contract dashboardMetrics.ruleBreaks): the view's trades that broke a rule of the
   * user's rule sets, selected with the same slice (its keys tested in memory on a held book, in SQL otherwise);
   * null when no rule set has a trade-level rule.
   */
  async function ruleBreaksIn(
    userId: string,
    slice: OverviewSelection,
    version: DataVersion,
    tagsByTrade: ReadonlyMap<string, readonly string[]>,
    index: RuleBreakIndex,
    accounts: readonly AccountItem[],
  ): Promise<RuleBreakSummary | null> {
    if (!index.hasTradeRules) return null;
    const currencyOf = new Map(accounts.map((a) => [a.oandaAccountId, a.currency ?? '']));
    // Kept the rules: none of the view's trades broke one.
    if (slice.ruleBreak?.broke === false) return ruleBreakSummary([], currencyOf);
    const broken = { ...slice, ruleBreak: { broke: true, keys: new Set(index.byTrade.keys()) } };
    return ruleBreakSummary(await tradesOf(userId, broken, version, tagsByTrade), currencyOf);
  }

  /**
   * The scope's snapshot of the current data version: stored, or computed once (under the shared lock). A computation
   * a request asks for (`limited`) waits for the user's turn (COMPUTE_CONCURRENCY), outside the lock's transaction.
   */
  async function snapshotOf(userId: string, scope: OverviewScope, version: DataVersion, limited = false) {
    const key = scopeKey(scope);
    let row = await deps.snapshots.find(userId, key);
    const computeOnce: typeof deps.snapshots.computeOnce = (...args) =>
      limited
        ? computeTurns.run(userId, () => deps.snapshots.computeOnce(...args))
        : deps.snapshots.computeOnce(...args);
    /**
     * Whether a snapshot of this data version is to be computed again all the same: it was stored by another revision,
     * or it is listed for want of a rate that is known now (one rate asked; docs/decisions/024-currencies-never-mixed.md).
     */
    const outdated = async (stored: SnapshotRow): Promise<boolean> => {
      const meta = JSON.parse(stored.meta) as SnapshotMeta;
      if ((meta.revision ?? 0) !== SNAPSHOT_REVISION) return true;
      const missing = meta.missingRate;
      if (!missing) return false;
      const rates = deps.ratesFor?.(userId) ?? noDailyRates;
      return (await rates.rate(missing.currency, scope.home, missing.day ?? lastCompleteDay(deps.now()))) !== null;
    };
    if (!row || row.version !== version.key || (await outdated(row)))
      row = await computeOnce(
        userId,
        key,
        version.key,
        async () => {
          const now = deps.now();
          const { metrics, view, returns } = await compute(
            userId,
            { platform: scope.platform, mode: scope.mode },
            version,
            scope.zone,
            now,
            scope.home,
          );
          const builtin = buildInsights(metrics);
          // Through the contract's schema, as the route's serializer would: the stored text is sent as it is.
          const {
            aiInsights: _a,
            quickWins: _q,
            longTermStrategy: _l,
            insights: _i,
            dataAsOf: _d,
            computedAt: _c,
            ...overview
          } = dashboardMetrics.parse({
            ...overviewFieldsIn(view, returns),
            aiInsights: builtin.aiInsights,
            quickWins: builtin.quickWins,
            longTermStrategy: builtin.longTermStrategy,
            insights: status('builtin', 'ready'),
            dataAsOf: null,
            computedAt: now.toISOString(),
          });
          const meta: SnapshotMeta = {
            builtin,
            facts: writerFacts(metrics),
            tradeCount: metrics.tradeCount,
            accountCount: metrics.accountCount,
            revision: SNAPSHOT_REVISION,
            missingRate: view.missingRate,
          };
          return { computed_at: now.toISOString(), body: JSON.stringify(overview), meta: JSON.stringify(meta) };
        },
        outdated,
      );
    return { body: row.body, meta: JSON.parse(row.meta) as SnapshotMeta, computedAt: row.computed_at };
  }

  /** The zone the trader saved in Profile, else the one the request (the browser) gives. */
  async function zoneOf(userId: string, requested: string): Promise<string> {
    return (await zonesOf(userId, requested)).view;
  }

  /**
   * The overview's zone (the saved one, else the request's), and the zone the AI insights are written in: the saved
   * one, else UTC, never the request's (SECURITY.md, "AI cost"): a client looping over zones cannot start a provider
   * call per zone; each data version costs at most one per platform, mode and provider (decision 013, amendment).
   */
  async function zonesOf(userId: string, requested: string): Promise<{ view: string; insights: string }> {
    const saved = await deps.settings.timeZone(userId);
    const view = canonicalZone(saved ?? requested);
    return { view, insights: saved ? view : 'UTC' };
  }

  return {
    /**
     * The overview for one user: never waits on an AI provider. Unfiltered, it is the scope's snapshot (computed once
     * per data version); a filtered view is computed on demand.
     */
    async overview(userId: string, request: OverviewRequest): Promise<DashboardMetrics> {
      if (isSliced(request)) {
        const timeZone = await zoneOf(userId, request.timeZone);
        const platform = request.platform ?? 'oanda';
        const now = deps.now();
        const instrument = request.instrument?.toUpperCase().replace('/', '_');
        const version = await deps.snapshots.version(userId);
        const home = (await deps.settings.homeCurrency(userId)).currency;
        const breaks = await breakIndexOf(userId);
        const selection = overviewSelection({ ...request, platform, instrument });
        if (request.ruleBreak !== undefined)
          selection.ruleBreak = { broke: request.ruleBreak, keys: new Set(breaks.byTrade.keys()) };
        const { metrics, view, returns, dataAsOf, ruleBreaks } = await computeTurns.run(userId, () =>
          compute(userId, selection, version, timeZone, now, home, breaks),
        );
        const cards = buildInsights(metrics);
        return {
          ...overviewFieldsIn(view, returns),
          aiInsights: cards.aiInsights,
          quickWins: cards.quickWins,
          longTermStrategy: cards.longTermStrategy,
          insights: status('builtin', 'ready', SLICED_INSIGHTS_NOTE),
          dataAsOf,
          computedAt: now.toISOString(),
          ruleBreaks,
        };
      }
      return JSON.parse((await this.view(userId, request)).json) as DashboardMetrics;
    },

    /**
     * The unfiltered overview as JSON text: the scope's snapshot copied as it is stored (never parsed: it grows with
     * the book), with this view's insights and times added. Filtered requests go to `overview`.
     */
    async view(userId: string, request: OverviewRequest): Promise<OverviewView> {
      if (isSliced(request))
        throw new Error('A filtered overview is computed by overview(), not read from a snapshot.');
      const zones = await zonesOf(userId, request.timeZone);
      const home = (await deps.settings.homeCurrency(userId)).currency;
      const scope: OverviewScope = {
        platform: request.platform ?? 'oanda',
        mode: request.mode,
        zone: zones.view,
        home,
      };
      const writerScope: OverviewScope = { ...scope, zone: zones.insights };
      const version = await deps.snapshots.version(userId);
      const [{ body, meta, computedAt }, accounts, breaks] = await Promise.all([
        snapshotOf(userId, scope, version, true),
        deps.trading.accounts(userId, request.mode, scope.platform),
        breakIndexOf(userId),
      ]);
      const ruleBreaks = await ruleBreaksIn(
        userId,
        { platform: scope.platform, mode: scope.mode },
        version,
        new Map(),
        breaks,
        accounts,
      );
      const dataAsOf = newestSync(accounts);
      // Without a saved zone, the browser's zone shows the overview; the provider writes from the UTC facts.
      const writer =
        writerScope.zone === scope.zone ? meta : (await snapshotOf(userId, writerScope, version, true)).meta;
      const { cards, status: insights } = await insightsFor(userId, meta, version, dataAsOf, writerScope, writer);
      const extras: OverviewExtras = {
        aiInsights: cards.aiInsights,
        quickWins: cards.quickWins,
        longTermStrategy: cards.longTermStrategy,
        insights,
        dataAsOf,
        computedAt,
        ruleBreaks,
      };
      // body is a non-empty JSON object: its closing brace gives way to the extras' members.
      return {
        json: `${body.slice(0, -1)},${JSON.stringify(extras).slice(1)}`,
        tradeCount: meta.tradeCount,
        accountCount: meta.accountCount,
      };
    },

    /**
     * Brings the user's stored snapshots (every scope someone viewed) up to the current data version, so that the
     * next view only reads. For the sync and import jobs to call after they wrote; a no-op when nothing changed.
     */
    async refreshSnapshots(userId: string): Promise<number> {
      const version = await deps.snapshots.version(userId);
      let refreshed = 0;
      for (const row of await deps.snapshots.scopes(userId)) {
        if (row.version === version.key) continue;
        const scope = parseScope(row.scope);
        if (!scope) continue;
        await snapshotOf(userId, scope, version);
        refreshed += 1;
      }
      return refreshed;
    },

    /** Resolves once no insights are being written in this process (tests, shutdown). */
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.all([...running.values()].map((job) => job.done));
    },

    /** Stops the background writers (the server is closing); their claims are taken over later. */
    async close(): Promise<void> {
      closing = true;
      for (const job of running.values())
        job.controller.abort(new DOMException('The server is closing.', 'AbortError'));
      await this.settled();
    },
  };
}
export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
