import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import Fastify, { LogController, type FastifyInstance, type RouteOptions } from 'fastify';
import { sql } from 'kysely';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { Env } from './config/env';
import type { AppContext } from './context';
import { createDb, type Db } from './db/client';
import { migrateToLatest } from './db/migrate';
import { slice } from './db/slice';
import { accountDataDeletion, dataVersionsUserData, type UserDataDeletion } from './db/user-data';
import type { Database } from './db/schema';
import { createCipher } from './lib/crypto';
import { loadSecrets } from './lib/secrets';
import { describeModeChanges, secureDataDir } from './lib/data-dir';
import { lazyRequestLogger } from './lib/request-logger';
import { authPlugin } from './plugins/auth';
import { registerErrorHandling, registerNotFound, registerRequestLog } from './plugins/error-handler';
import { registerReadiness } from './plugins/health';
import { appValidatorCompiler } from './plugins/memo-validation';
import { registerOpenApi } from './plugins/openapi';
import { registerRateLimits } from './plugins/rate-limit';
import { registerSecurityHeaders } from './plugins/security';
import { registerGracefulClose } from './plugins/graceful-close';
import { registerStaticWeb } from './plugins/static-web';
import { createMailer } from './lib/mailer';
import { createOandaClient, type OandaClientOptions } from './integrations/oanda/oanda-client';
import type { UserConcurrency } from './lib/user-concurrency';
import { createLlmProviders, type LlmProviderOptions } from './integrations/llm';
import {
  authRoutes,
  authUserData,
  createAuthService,
  createRecoveryService,
  createSessionGuard,
  createUserRepository,
  recoveryRoutes,
  sessionRoutes,
  type AuthTables,
} from './modules/auth';
import { createSupportService, supportRoutes, supportUserData, type SupportTables } from './modules/support';
import {
  createSettingsRepository,
  createSettingsService,
  settingsRoutes,
  settingsUserData,
  type SettingsTables,
} from './modules/settings';
import {
  apiAccountId,
  createExcursionJob,
  createTradingService,
  hasOandaCandles,
  tradingRoutes,
  tradingUserData,
  type TradingDb,
} from './modules/trading';
import { aiUsageUserData, createAiBudget, type AiUsageTables } from './modules/ai-usage';
import { chatAnswerRoutes, chatRoutes, chatUserData, createChatModule, type ChatTables } from './modules/chat';
import {
  analyticsRoutes,
  analyticsUserData,
  createAnalyticsService,
  createInsightsRepository,
  createOverviewTrades,
  createSnapshotRepository,
  type AnalyticsDb,
  type AnalyticsTables,
} from './modules/analytics';
import {
  calendarRoutes,
  createCalendarService,
  createJournalFactsService,
  createJournalRepository,
  createJournalService,
  journalRoutes,
  journalUserData,
  type JournalDb,
  type JournalTables,
} from './modules/journal';
import { createTradeViews, tradeViewsRoutes, type TradeViewsTables } from './modules/trade-views';
import { ratesFromCloses, type DailyRates } from './domain/currency-totals';
import { listVersionReader, type DataVersionsTables } from './db/data-versions';
import {
  createImportService,
  createReportParser,
  importRoutes,
  importUserData,
  type ImportTables,
} from './modules/import';
import {
  createCandleBudget,
  createCandleStore,
  dailyClosesFor,
  memoryWindowCounter,
  redisWindowCounter,
  type CandlesTables,
} from './modules/candles';
import { bookTrades, createMoneyService, moneyRoutes, namedAccounts } from './modules/money';
import {
  createPlaybooksRepository,
  createPlaybooksService,
  playbooksRoutes,
  playbooksUserData,
  type PlaybooksDb,
} from './modules/playbooks';
import {
  createRuleDayStore,
  createRulesRepository,
  createRulesService,
  rulesRoutes,
  rulesUserData,
  type RulesTables,
} from './modules/rules';
import {
  attachmentsRoutes,
  attachmentsUserData,
  createAttachmentsRepository,
  createAttachmentsService,
  createDeletionWorker,
  createOrphanSweep,
  createS3Store,
  type AttachmentItemsPort,
  type AttachmentsDb,
  type DeletionWorker,
  type OrphanSweep,
} from './modules/attachments';
import {
  coachPatternsRoutes,
  coachSettingsRoutes,
  coachUserData,
  createCoachPatterns,
  createCoachSettingsStore,
  createPatternBookThreads,
  createTradeReviewRepository,
  createTradeReviewService,
  createWeeklyService,
  tradeReviewRoutes,
  weeklyRoutes,
  type CoachTables,
  type WeeklyService,
} from './modules/coach';
import {
  createSyncJobs,
  syncRoutes,
  type SyncJobs,
  type SyncJobsTables,
  type SyncJobsOptions,
} from './modules/sync-jobs';

export interface BuildOptions {
  env: Env;
  /** An open database (tests share one); otherwise one is opened from env and closed with the app. */
  db?: Db;
  now?: () => Date;
  logger?: boolean;
  /** Where the log lines go instead of stdout (tests read them). */
  logStream?: NodeJS.WritableStream;
  /** Limits per window for sign-in and registration (tests raise or lower them). */
  credentialLimit?: number;
  /** OANDA client tuning (tests shorten timeouts and retry delays); hosts always come from env. */
  oanda?: Partial<Omit<OandaClientOptions, 'practiceUrl' | 'liveUrl'>>;
  /** LLM provider tuning (tests turn retries off and shorten timeouts). */
  llm?: LlmProviderOptions;
  /** Budget of one assistant answer, tool calls included (default 45 s). */
  chatTimeoutMs?: number;
  /** On close, how long answers being written may take to end before they are stopped and stored (default 5 s). */
  chatCloseGraceMs?: number;
  /** Budget of one provider call writing the overview insights (default 60 s). */
  insightsTimeoutMs?: number;
  /** Background sync (modules/sync-jobs): `enabled` starts the scheduler (server.ts does; tests tick by hand). */
  syncJobs?: SyncJobsOptions;
  /** Sees each route as it is registered (the API reference's test lists them). */
  onRoute?: (route: RouteOptions) => void;
  /**
   * The per-user limits of costly work (lib/user-concurrency.ts; default: each service's own, CANDLE_CONCURRENCY and
   * COMPUTE_CONCURRENCY). Tests hand in theirs to take a user's places themselves.
   */
  userLimits?: { candles?: UserConcurrency; overview?: UserConcurrency };
  /**
   * A user's daily exchange rates (domain/currency-totals.ts; tests hand in fixed ones). Default: none yet, so money
   * of several currencies is listed per currency (docs/decisions/024-currencies-never-mixed.md).
   */
  ratesFor?: (userId: string) => DailyRates;
  /** Sees the attachments' outbox worker when ATTACHMENTS_S3_URL is set (tests run its rounds by hand). */
  attachmentDeletions?: (worker: DeletionWorker) => void;
  /**
   * The bucket's orphan sweep when ATTACHMENTS_S3_URL is set: `enabled` (default: as the background sync) starts its
   * scheduled job; tests take its queue and the sweep to tick and wait for it.
   */
  attachmentSweep?: {
    enabled?: boolean;
    expose?: (jobs: { queue: ReturnType<SyncJobs['scheduledJob']>; sweep: OrphanSweep }) => void;
  };
  /**
   * The coach's weekly job: `enabled` (default: as the background sync) starts it and runs a tick at once; tests
   * take its queue and service to tick and wait for it.
   */
  weeklyJobs?: {
    enabled?: boolean;
    expose?: (jobs: { queue: ReturnType<SyncJobs['scheduledJob']>; service: WeeklyService }) => void;
  };
}

const defaultWebDist = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../web/dist');

/** TRUST_PROXY as Fastify takes it: a hop count as the function Fastify builds from one (its types omit numbers). */
function trustProxyOption(trust: Env['TRUST_PROXY']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trust === undefined) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/**
 * Every module's part of an account's deletion (db/user-data.ts), run in this order in one transaction: auth's last,
 * as the other rows name its `users` row. A module with a table holding users' rows adds its hook here.
 */
export function userDataHooks(syncJobs: Pick<SyncJobs, 'userData'>): readonly UserDataDeletion<Database>[] {
  return [
    settingsUserData,
    tradingUserData,
    journalUserData,
    chatUserData,
    analyticsUserData,
    importUserData,
    rulesUserData,
    playbooksUserData,
    attachmentsUserData,
    coachUserData,
    syncJobs.userData,
    supportUserData,
    aiUsageUserData,
    dataVersionsUserData,
    authUserData,
  ];
}

/** Plugins, then modules, then error and 404 handlers. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { env } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: env.LOG_LEVEL,
            redact: ['req.headers.authorization'],
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    bodyLimit: 1024 * 1024,
    // Unset: no proxy is believed, req.ip is the socket's address (a spoofed X-Forwarded-For changes nothing).
    trustProxy: trustProxyOption(env.TRUST_PROXY),
    genReqId: () => crypto.randomUUID(),
    // request.log is made into pino's child only when a line is written (lib/request-logger.ts).
    childLoggerFactory: lazyRequestLogger,
    // Errors and slow requests are logged by registerRequestLog, not every request twice.
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.setValidatorCompiler(appValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);

  // SQLite: DATA_DIR and its files for their owner only, before anything is read from it or written to it; what was
  // open to others is tightened, said in one warn line (lib/data-dir.ts). PostgreSQL keeps nothing in DATA_DIR.
  if (!env.DATABASE_URL) {
    const tightened = secureDataDir(env.DATA_DIR);
    if (tightened.length > 0)
      app.log.warn(
        { dataDir: env.DATA_DIR, tightened: tightened.length },
        describeModeChanges(env.DATA_DIR, tightened),
      );
  }
  // Before the database: a damaged secret file stops the start with its message (lib/secrets.ts).
  const secrets = loadSecrets(env);
  const db = options.db ?? createDb({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
  if (!options.db) app.addHook('onClose', () => db.close());
  await migrateToLatest(db);

  const ctx: AppContext = {
    env,
    db,
    cipher: createCipher(secrets.encryptionKey),
    now: options.now ?? (() => new Date()),
  };

  registerErrorHandling(app);
  registerRequestLog(app, env.SLOW_REQUEST_MS);
  registerGracefulClose(app);
  await registerSecurityHeaders(app, { hsts: env.TRUST_PROXY !== undefined });
  await registerRateLimits(app, {
    redisUrl: env.REDIS_URL,
    max: options.credentialLimit ?? env.AUTH_RATE_LIMIT,
    checkMax: env.CHECK_RATE_LIMIT,
  });
  // Revocable sessions (SECURITY.md, "Sessions that can be revoked"), checked from memory (invalidated through Redis when REDIS_URL is set).
  const sessions = createSessionGuard({
    db: slice<AuthTables>(db.kysely),
    now: ctx.now,
    redisUrl: env.REDIS_URL,
    log: app.log,
  });
  app.addHook('onClose', () => sessions.close());
  if (env.REDIS_URL) await Promise.race([sessions.ready(), new Promise((r) => setTimeout(r, 2000).unref())]);
  await app.register(authPlugin, {
    secret: secrets.jwtSecret,
    ttlSeconds: env.JWT_TTL,
    isLive: (claims) => sessions.isLive(claims),
  });
  // Before the routes: it reads their schemas as they are added.
  await registerOpenApi(app);

  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, log: app.log });
  app.addHook('onClose', () => mailer.close());
  const recovery = createRecoveryService({
    db: slice<AuthTables>(db.kysely),
    mailer,
    sessions,
    publicUrl: env.PUBLIC_URL,
    now: ctx.now,
    log: app.log,
  });
  const auth = createAuthService({
    users: createUserRepository(slice<AuthTables>(db.kysely)),
    now: ctx.now,
    onEmailSet: (user) => recovery.emailSet(user),
    sessionsChanged: sessions.changed,
  });
  const support = createSupportService({
    db: slice<SupportTables>(db.kysely),
    auth,
    mailer,
    supportEmail: env.SUPPORT_EMAIL,
    now: ctx.now,
    log: app.log,
  });
  // After the database's hook, so they run first: the mail still being sent is written before it closes.
  app.addHook('onClose', () => recovery.settle());
  app.addHook('onClose', () => support.settle());
  const settings = createSettingsService({
    info: createSettingsRepository(slice<SettingsTables>(db.kysely)),
    cipher: ctx.cipher,
    now: ctx.now,
    // Late-bound: trading is built below; a save comes only once the app serves requests. The save stands either way.
    onOandaConnected: (userId) =>
      trading
        .oandaConnected(userId)
        .catch((err: unknown) => app.log.warn({ err, userId }, 'queueing trade excursions again failed')),
    // Late-bound as well: the trade views are built below.
    tradeCountsByCurrency: (userId) => views.tradeCountsByCurrency(userId),
  });
  // OANDA tokens sealed without associated data (older releases) are re-sealed bound to their user, once.
  const sealed = await settings.sealLegacyTokens();
  if (sealed.resealed > 0) app.log.info(`re-sealed ${sealed.resealed} stored OANDA token(s) bound to their user`);
  if (sealed.unreadable > 0)
    app.log.warn(
      `${sealed.unreadable} stored OANDA token(s) cannot be decrypted with this ENCRYPTION_KEY; their users are asked to enter them again`,
    );
  const oanda = createOandaClient({
    ...options.oanda,
    practiceUrl: env.OANDA_PRACTICE_URL,
    liveUrl: env.OANDA_LIVE_URL,
    log: app.log,
  });
  app.addHook('onClose', () => oanda.close());
  // The one owner of candles (docs/decisions/023-candle-store.md): each OANDA token's candle requests within one
  // budget, counted in Redis across instances when REDIS_URL is set, in this instance otherwise.
  const candleCounter = env.REDIS_URL
    ? redisWindowCounter(env.REDIS_URL, { log: (err) => app.log.warn({ err }, 'candle budget (Redis) unavailable') })
    : memoryWindowCounter(ctx.now);
  app.addHook('onClose', () => candleCounter.close());
  const candles = createCandleStore({
    db: slice<CandlesTables>(db.kysely),
    oanda,
    budget: createCandleBudget({
      counter: candleCounter,
      batchPerMinute: env.EXCURSION_REQUESTS_PER_MINUTE > 0 ? env.EXCURSION_REQUESTS_PER_MINUTE : undefined,
    }),
    now: ctx.now,
    credentials: (userId) => settings.oandaCredentials(userId),
  });
  // Money of several currencies: converted at the daily rates of the candle store, or listed per currency without
  // them (decision 024).
  const ratesFor =
    options.ratesFor ??
    ((userId: string) =>
      ratesFromCloses(
        dailyClosesFor(candles, userId, ctx.now, (err, context) =>
          app.log.warn({ err, ...context }, 'daily rate unavailable'),
        ),
      ));
  const trading = createTradingService({
    db: slice<TradingDb>(db.kysely),
    oanda,
    settings,
    now: ctx.now,
    candles,
    candleLimit: options.userLimits?.candles,
    ratesFor,
    // Late-bound: the rules module is built below; syncs and imports come only once the app serves requests. The
    // alert check of the account a sync or an import wrote (docs/rules.md, Alerts); its failure is logged only.
    accountWritten: (userId, accountKey) => {
      // The coach's automatic reviews of new closed trades (docs/coach.md, Reviews), late-bound too: in the
      // background, so the sync or import does not wait for them; failures are logged inside.
      void coachReviews.reviewNewTrades(userId);
      return rules
        .checkAlerts(userId, accountKey)
        .catch((err: unknown) => app.log.warn({ err, userId, accountKey }, 'rule alert check failed'));
    },
  });
  // The one read side of trades (docs/decisions/021-one-read-side-for-trades.md).
  const listVersionOf = listVersionReader(slice<DataVersionsTables>(db.kysely));
  const views = createTradeViews({
    db: slice<TradeViewsTables>(db.kysely),
    listVersionOf,
    // Late-bound: the rules are built below and read their trades through these views (a cycle at construction
    // otherwise); requests come only once the app serves them.
    ruleBreaks: (userId) => rules.breakIndex(userId),
    // Late-bound as well: the coach's patterns are built below and read their trades through these views.
    patterns: (userId, pattern) => coachPatterns.patternKeys(userId, pattern),
    now: ctx.now,
  });
  if (env.EXCURSION_REQUESTS_PER_MINUTE > 0) {
    // MAE/MFE from candles in the background; stopped before the database closes (registered after its hook).
    const excursions = createExcursionJob({
      db: slice<TradingDb>(db.kysely),
      candles,
      credentials: (userId) => settings.oandaCredentials(userId),
      now: ctx.now,
      requestsPerMinute: env.EXCURSION_REQUESTS_PER_MINUTE,
      log: (err, context) => app.log.warn({ err, ...context }, 'trade excursions failed'),
    });
    excursions.start();
    app.addHook('onClose', () => excursions.stop());
  }
  const syncJobs = createSyncJobs({
    ...options.syncJobs,
    db: slice<SyncJobsTables>(db.kysely),
    databaseUrl: env.DATABASE_URL,
    trading,
    settings,
    now: ctx.now,
    log: (err, context) => app.log.warn({ err, ...context }, 'background sync failed'),
    // Late-bound: analytics is built below; syncs run only after the app has started.
    afterSync: (userId) => analytics.refreshSnapshots(userId),
  });
  options.syncJobs?.expose?.(syncJobs);
  await syncJobs.releaseLeftLeases();
  if (options.syncJobs?.enabled) await syncJobs.start();
  // After the database's hook, so it runs first: the running syncs end before the database closes.
  app.addHook('onClose', () => syncJobs.stop());
  const llm = createLlmProviders(env, options.llm);
  // SECURITY.md, "AI cost": every provider request of a user counts against the day's budget, shared through the database.
  const aiBudget = createAiBudget(slice<AiUsageTables>(db.kysely), env.AI_DAILY_REQUESTS, ctx.now);
  // The journal's facts of trades, built once: the assistant's tools and the Overview read the same ones.
  const journalFacts = createJournalFactsService(slice<JournalTables>(db.kysely));
  const chat = createChatModule({
    currencyRule: async (userId) => ({ home: (await settings.homeCurrency(userId)).currency, rates: ratesFor(userId) }),
    budget: aiBudget,
    maxToolCallsPerRound: env.AI_MAX_TOOL_CALLS_PER_ROUND,
    db: slice<ChatTables>(db.kysely),
    settings,
    trading,
    journal: journalFacts,
    views,
    // The rules module's status and breaks, the very functions of its routes (docs/rules.md, The assistant).
    // Late-bound: the rules service is built below; answers run only after the app has started.
    // The coach's reviews, patterns and weekly reviews, the functions of its routes (docs/coach.md, The assistant);
    // late-bound: the coach is built below.
    coach: {
      tradeReview: (userId, ref) => coachReviews.get(userId, ref),
      patterns: (userId, range) => coachPatterns.patterns(userId, range),
      weeklyReview: (userId, week) => weekly.get(userId, week),
      lastEndedWeek: (userId) => weekly.lastEnded(userId),
    },
    rules: {
      ruleSets: (userId) => rules.list(userId),
      status: (userId, id) => rules.status(userId, id),
      breaks: (userId) => rules.breaks(userId, {}),
      accountAlias: async (userId, accountKey) =>
        (await ruleAccounts.named(userId, accountKey)).find((a) => a.accountKey === accountKey)?.alias ?? null,
    },
    providers: llm,
    now: ctx.now,
    timeoutMs: options.chatTimeoutMs,
    log: (err, context) => app.log.warn({ err, ...context }, 'assistant answer failed'),
  });
  // Answers run apart from their requests: before the server waits for its requests and the database closes,
  // they get a grace period to end, then are stopped and stored with the text so far and a note.
  app.addHook('preClose', async () => chat.answers.close(options.chatCloseGraceMs));

  const journal = createJournalService({
    journal: createJournalRepository(slice<JournalDb>(db.kysely)),
    trading,
    views,
    now: ctx.now,
  });

  // Balance and equity over time, and returns (docs/money.md): equity between closes rebuilt from the candle store's
  // complete mid candles (only for a user with an OANDA connection), cash flows and equity samples from trading's
  // transaction store (OANDA) and balance operations (MetaTrader).
  const dataVersionOf = listVersionReader(slice<DataVersionsTables>(db.kysely));
  const money = createMoneyService({
    accounts: namedAccounts(views.bookRows, trading),
    trades: bookTrades(views.bookRows),
    cashFlows: { cashFlows: (userId, filter) => trading.cashFlows(userId, filter) },
    partialCloses: { partialCloses: (userId, key) => trading.partialCloses(userId, key) },
    samples: {
      // A summary without a NAV says nothing about equity.
      equitySamples: async (userId, key, from, to) =>
        (await trading.equitySamples(userId, key, from, to)).flatMap((s) =>
          s.nav === null ? [] : [{ ...s, nav: s.nav }],
        ),
    },
    candles: {
      canRead: async (userId) => (await settings.oandaCredentials(userId)) !== undefined,
      read: async ({ userId, ...request }) =>
        ((await candles.readForUser(userId, { ...request, price: 'M' })) ?? []).filter((c) => c.complete),
    },
    versionOf: dataVersionOf,
    now: ctx.now,
    log: (err, context) => app.log.warn({ err, ...context }, 'equity rebuild from candles failed'),
  });
  const analytics = createAnalyticsService({
    budget: aiBudget,
    trading,
    settings,
    providers: llm,
    insights: createInsightsRepository(slice<AnalyticsTables>(db.kysely)),
    journal: journalFacts,
    source: createOverviewTrades(views.bookRows),
    snapshots: createSnapshotRepository(slice<AnalyticsDb>(db.kysely), db.dialect),
    now: ctx.now,
    timeoutMs: options.insightsTimeoutMs,
    log: (err, context) => app.log.warn({ err, ...context }, 'overview insights failed'),
    computeLimit: options.userLimits?.overview,
    ratesFor,
    // The Overview's return, read through the money module (docs/money.md, Returns on the Overview).
    returns: money,
    // The trades that broke a rule of the user's rule sets (docs/rules.md, Where breaks are shown), late-bound too.
    ruleBreaks: (userId) => rules.breakIndex(userId),
  });
  // Registered after the database's own hook, so it runs first: the writers stop before the database closes.
  app.addHook('onClose', () => analytics.close());

  app.get('/healthz', () => ({ success: true, message: 'ok', database: db.dialect }));
  registerReadiness(app, {
    database: () => sql`select 1`.execute(db.kysely),
    queue: () => ({ kind: syncJobs.queue.kind, state: syncJobs.queueState() }),
  });
  await app.register(authRoutes, { auth });
  await app.register(sessionRoutes, {
    auth,
    sessions,
    deleteUserData: accountDataDeletion(db.kysely, userDataHooks(syncJobs)),
  });
  await app.register(recoveryRoutes, { recovery });
  await app.register(supportRoutes, { support });
  await app.register(settingsRoutes, { settings, auth, env });
  // The Sync buttons go through the background sync's lease and status.
  await app.register(tradingRoutes, { trading: syncJobs.manualTrading(trading) });
  await app.register(tradeViewsRoutes, { views });
  await app.register(syncRoutes, { jobs: syncJobs });
  await app.register(chatRoutes, { chats: chat.chats });
  await app.register(chatAnswerRoutes, { answers: chat.answers });
  await app.register(analyticsRoutes, { analytics });
  await app.register(journalRoutes, { journal });
  // The journal's calendar: its routes, and the day moods of the coach's weekly review.
  const calendar = createCalendarService({
    db: slice<JournalTables>(db.kysely),
    views,
    now: ctx.now,
    homeCurrencyOf: async (userId) => (await settings.homeCurrency(userId)).currency,
    ratesFor,
  });
  await app.register(calendarRoutes, { calendar });

  await app.register(moneyRoutes, { money });

  // Rule sets of challenges and personal risk rules (docs/rules.md): the engine's inputs read through their owners:
  // trades through the read side, cash flows through trading, balance and equity through the money module.
  const ruleAccounts = namedAccounts(views.bookRows, trading);
  const rules = createRulesService({
    repository: createRulesRepository(slice<RulesTables>(db.kysely)),
    days: createRuleDayStore(slice<RulesTables>(db.kysely)),
    sources: {
      named: (userId, accountId) => ruleAccounts.named(userId, accountId),
      trades: (userId, accountKey) => views.bookRows.tradeFacts(userId, accountKey),
      cashFlows: (userId, accountKey) => trading.cashFlows(userId, { accountKey }),
      balanceHistory: (userId, accountKey, to) => money.balanceHistory(userId, accountKey, { to, resolution: 'trade' }),
      // The trades-and-accounts counter of the list version (`<data>.<journal>.<list>`): notes and tags change no break.
      dataVersion: async (userId) => (await listVersionOf(userId)).split('.')[0]!,
      rates: ratesFor,
    },
    now: ctx.now,
    // Alerts mailed to the user's confirmed address, as auth gives it for every notice (docs/rules.md, Alerts).
    alerts: {
      mailer,
      emailOf: (userId) => auth.noticeAddress(userId),
      log: (err, context) => app.log.warn({ err, ...context }, 'rule alert failed'),
    },
  });
  // After the database's hook, so it runs first: the alert mails still being sent are marked before it closes.
  app.addHook('onClose', () => rules.settle());
  await app.register(rulesRoutes, { rules });

  // Playbooks, trade reviews, the playbook report and missed trades (docs/review.md): trades named through trading,
  // read through the read side; a missed trade's outcome from the candle store's M5 mid candles, at a screen's
  // priority (only for a user with an OANDA connection).
  const playbooks = createPlaybooksService({
    repository: createPlaybooksRepository(slice<PlaybooksDb>(db.kysely)),
    trading,
    views,
    candles: (userId, request) =>
      candles.readForUser(userId, { ...request, granularity: 'M5', price: 'M', priority: 'interactive' }),
    homeCurrencyOf: async (userId) => (await settings.homeCurrency(userId)).currency,
    ratesFor,
    now: ctx.now,
    log: (err, context) => app.log.warn({ err, ...context }, 'playbooks'),
    // Bound late: the attachments service, built below, asks this module in turn whether a playbook or missed trade
    // is the user's before it takes an image for it.
    attachments: {
      attachmentCounts: (userId, target, ids) => attachments.countsFor(userId, target, ids),
      deleteAttachments: async (userId, item) => {
        await attachments.deleteForItem(userId, item);
      },
    },
  });
  await app.register(playbooksRoutes, { playbooks });

  const imports = createImportService({
    db: slice<ImportTables>(db.kysely),
    trading,
    settings,
    parser: createReportParser(),
    now: ctx.now,
    afterImport: (userId) => analytics.refreshSnapshots(userId),
    log: (err, context) => app.log.warn({ err, ...context }, 'import follow-up failed'),
  });
  await app.register(importRoutes, { imports });

  // Images on trades, journal days, playbooks and missed trades (docs/review.md, Attachments): in the database, or in
  // the bucket of ATTACHMENTS_S3_URL with its deletions through the outbox (docs/decisions/025-attachment-storage.md).
  const attachmentObjects = env.ATTACHMENTS_S3_URL ? createS3Store(env.ATTACHMENTS_S3_URL) : undefined;
  const attachmentsRepository = createAttachmentsRepository(slice<AttachmentsDb>(db.kysely), db.dialect);
  // A playbook or missed trade is the user's when the playbooks module says so; that module, in turn, deletes an
  // item's images through `deleteForItem` and counts them through `countsFor` (above).
  const attachmentItems: AttachmentItemsPort = {
    itemExists: (userId, target, id) => playbooks.itemExists(userId, target, id),
  };
  const attachments = createAttachmentsService({
    repository: attachmentsRepository,
    trading,
    items: attachmentItems,
    objects: attachmentObjects,
    quotaBytes: env.ATTACHMENTS_QUOTA_MB * 1024 * 1024,
    now: ctx.now,
    log: (err, context) => app.log.warn({ err, ...context }, 'attachment storage failed'),
  });
  if (attachmentObjects) {
    const deletions = createDeletionWorker({
      repository: attachmentsRepository,
      objects: attachmentObjects,
      now: ctx.now,
      log: (err, context) => app.log.warn({ err, ...context }, 'attachment object deletion failed'),
    });
    deletions.start();
    options.attachmentDeletions?.(deletions);
    // Objects an upload wrote before its process died, never committed: swept once they are an hour old, on the
    // scheduled jobs' machinery (one sweep at a time across instances on PostgreSQL; decision 025, Update).
    const sweep = createOrphanSweep({
      repository: attachmentsRepository,
      objects: attachmentObjects,
      now: ctx.now,
      log: (err, context) => app.log.warn({ err, ...context }, 'attachment orphan sweep failed'),
    });
    const sweepJobs = syncJobs.scheduledJob('attachment-sweep', {
      due: () => sweep.due(),
      run: async () => {
        const deleted = await sweep.sweep();
        if (deleted > 0) app.log.info({ deleted }, 'attachment orphan sweep deleted objects no row names');
      },
      log: (err, context) => app.log.warn({ err, ...context }, 'attachment orphan sweep job failed'),
    });
    options.attachmentSweep?.expose?.({ queue: sweepJobs, sweep });
    if (options.attachmentSweep?.enabled ?? options.syncJobs?.enabled) await sweepJobs.start();
    // After the database's hook, so it runs first: the round in progress ends before the database closes.
    app.addHook('onClose', async () => {
      await sweepJobs.stop();
      await deletions.stop();
      attachmentObjects.close();
    });
  }
  await app.register(attachmentsRoutes, { attachments });

  // The coach (docs/coach.md): a grounded review of each closed trade, behaviour patterns and the weekly review.
  const coachSettings = createCoachSettingsStore(slice<CoachTables>(db.kysely), ctx.now);
  await app.register(coachSettingsRoutes, { settings: coachSettings });
  // Behaviour patterns (docs/coach.md, Patterns): the whole book through the read side, stop orders through trading,
  // thresholds from the coach's settings; the trade list's `pattern` filter asks it (wired above).
  // A large book on SQLite is built in parts on threads (docs/decisions/026-pattern-book-on-threads.md).
  const patternThreads = createPatternBookThreads();
  app.addHook('onClose', () => patternThreads.close());
  const coachPatterns = createCoachPatterns({
    rows: (userId, add) => views.bookRows.patternRows(userId, {}, add),
    rowParts: (userId, parts, from) => views.bookRows.patternRowParts(userId, {}, parts, from),
    threads: patternThreads,
    threadFailed: (err) =>
      app.log.warn({ err }, "pattern book thread failed: the book was read on the request's thread"),
    accountKeysNamed: (userId, accountId) => views.bookRows.accountKeysNamed(userId, accountId),
    accountCurrencies: (userId) => views.accountCurrencies(userId),
    stopLevels: (userId) => trading.stopLevels(userId),
    thresholds: async (userId) => (await coachSettings.get(userId)).thresholds,
    timeZoneOf: (userId) => settings.timeZone(userId),
    homeCurrencyOf: async (userId) => (await settings.homeCurrency(userId)).currency,
    ratesFor,
    dataVersionOf: async (userId) => (await listVersionOf(userId)).split('.')[0]!,
  });
  await app.register(coachPatternsRoutes, { patterns: coachPatterns });
  // A trade's review (docs/coach.md, Reviews): the trade through trading and the read side, candles through the
  // candle store (the trader's OANDA connection), the playbook review, the rule breaks and the provider of the
  // trader's default AI platform, each through its owner.
  const coachReviews = createTradeReviewService({
    ports: {
      ownedTrade: async (userId, ref) => {
        const [owned] = await trading.ownedTrades(userId, [ref]);
        return { ...owned!.key, accountId: apiAccountId(owned!.key.accountKey) };
      },
      tradesOn: async (userId, instrument) => {
        const items = [];
        for await (const batch of await views.tradeBatches(userId, { instrument })) items.push(...batch);
        return items;
      },
      tradeFigures: async (userId) =>
        (await views.tradeFigures(userId, {})).map((f) => ({
          accountId: f.account_id,
          tradeId: f.trade_id,
          instrument: f.instrument,
          realizedPL: f.realized_pl,
          financing: f.financing,
          closeTime: f.close_time,
        })),
      candles: (userId, trade, { granularity, from, to, background }) =>
        hasOandaCandles(trade)
          ? candles.readForUser(userId, {
              instrument: trade.instrument,
              granularity,
              price: 'M',
              from,
              to,
              // The background waits for the batch places of the token's budget; a trader asking, at a screen's.
              priority: background ? 'batch' : 'interactive',
            })
          : Promise.resolve(null),
      playbookReview: (userId, ref) => playbooks.tradePlaybook(userId, ref),
      hasPersonalRules: async (userId) => (await rules.breakIndex(userId)).hasTradeRules,
      patternsOfTrade: (userId, ref) => coachPatterns.patternsOfTrade(userId, ref),
      provider: async (userId) => {
        const platform = await settings.defaultAiPlatform(userId);
        return platform === 'openai' || platform === 'vertexai' ? llm[platform] : undefined;
      },
    },
    repository: createTradeReviewRepository(slice<CoachTables>(db.kysely)),
    settings: coachSettings,
    budget: aiBudget,
    backgroundDailyRequests: env.COACH_DAILY_REQUESTS ?? Math.floor(env.AI_DAILY_REQUESTS / 2),
    now: ctx.now,
    timeoutMs: options.insightsTimeoutMs,
    log: (err, context) => app.log.warn({ err, ...context }, 'coach trade review failed'),
  });
  // After the database's hook, so it runs first: a background pass ends its current review before the database closes.
  app.addHook('onClose', () => coachReviews.close());
  await app.register(tradeReviewRoutes, { reviews: coachReviews });
  // The weekly review (docs/coach.md, Weekly review): composed from the read side, the rules, the journal's moods
  // and the coach's own reviews and patterns; made by a job on the background sync's queue machinery (one per user
  // and week across instances), a missed week made up by the tick at start.
  const weekly = createWeeklyService({
    db: slice<CoachTables>(db.kysely),
    views,
    settings: coachSettings,
    // The stored reviews of the coach's trade reviews (never made here: the week reads what the trader has).
    reviewOf: (userId, ref) => coachReviews.stored(userId, ref),
    patterns: (userId, range) => coachPatterns.patterns(userId, range),
    hasRuleSets: async (userId) => (await rules.list(userId)).length > 0,
    moods: (userId, range) => calendar.moods(userId, range.from, range.to),
    homeCurrencyOf: async (userId) => (await settings.homeCurrency(userId)).currency,
    ratesFor,
    timeZoneOf: (userId) => settings.timeZone(userId),
    usersWithTrades: () => views.usersWithTrades(),
    emailOf: (userId) => auth.noticeAddress(userId),
    mailer,
    now: ctx.now,
    log: (err, context) => app.log.warn({ err, ...context }, 'weekly review failed'),
  });
  const weeklyJobs = syncJobs.scheduledJob('weekly', {
    due: () => weekly.due(),
    run: (userId) => weekly.run(userId),
    log: (err, context) => app.log.warn({ err, ...context }, 'weekly review job failed'),
  });
  options.weeklyJobs?.expose?.({ queue: weeklyJobs, service: weekly });
  if (options.weeklyJobs?.enabled ?? options.syncJobs?.enabled) {
    await weeklyJobs.start();
    // A week whose hour passed while no instance ran is made up now (docs/coach.md, Weekly review).
    await weeklyJobs.tick();
  }
  // After the database's hook, so it runs first: the reviews being made end before the database closes.
  app.addHook('onClose', () => weeklyJobs.stop());
  await app.register(weeklyRoutes, { weekly });

  registerNotFound(app, await registerStaticWeb(app, env.WEB_DIST ?? defaultWebDist));
  return app;
}
