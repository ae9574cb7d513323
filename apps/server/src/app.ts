import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import Fastify, { LogController, type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Env } from './config/env';
import type { AppContext } from './context';
import { createDb, type Db } from './db/client';
import { migrateToLatest } from './db/migrate';
import { createCipher } from './lib/crypto';
import { loadSecrets } from './lib/secrets';
import { authPlugin } from './plugins/auth';
import { registerErrorHandling, registerNotFound, registerRequestLog } from './plugins/error-handler';
import { registerOpenApi } from './plugins/openapi';
import { registerRateLimits } from './plugins/rate-limit';
import { registerSecurityHeaders } from './plugins/security';
import { registerGracefulClose } from './plugins/graceful-close';
import { registerStaticWeb } from './plugins/static-web';
import { createUserRepository } from './modules/auth/user.repository';
import { createAuthService } from './modules/auth/auth.service';
import { authRoutes } from './modules/auth/auth.routes';
import { createSettingsRepository } from './modules/settings/settings.repository';
import { createSettingsService } from './modules/settings/settings.service';
import { settingsRoutes } from './modules/settings/settings.routes';
import { createOandaClient, type OandaClientOptions } from './integrations/oanda/oanda-client';
import { createTradingService } from './modules/trading/trading.service';
import { tradingRoutes } from './modules/trading/trading.routes';
import { createExcursionJob } from './modules/trading/excursions-job';
import { createLlmProviders, type LlmProviderOptions } from './integrations/llm';
import { createChatModule } from './modules/chat/chat.module';
import { chatRoutes } from './modules/chat/chat.routes';
import { chatAnswerRoutes } from './modules/chat/chat-answer.routes';
import { createInsightsRepository } from './modules/analytics/insights.repository';
import { createAnalyticsService } from './modules/analytics/analytics.service';
import { analyticsRoutes } from './modules/analytics/analytics.routes';
import { createOverviewTrades } from './modules/analytics/overview-trades';
import { createSnapshotRepository } from './modules/analytics/overview-snapshots.repository';
import { createJournalRepository } from './modules/journal/journal.repository';
import { createJournalService } from './modules/journal/journal.service';
import { journalRoutes } from './modules/journal/journal.routes';
import { createJournalFactsService } from './modules/journal/journal-facts.service';
import { createCalendarService } from './modules/journal/calendar.service';
import { calendarRoutes } from './modules/journal/calendar.routes';
import { createImportService } from './modules/import/import.service';
import { importRoutes } from './modules/import/import.routes';
import { createReportParser } from './modules/import/report-parser';
import { createSyncJobs, type SyncJobsOptions } from './modules/sync-jobs/sync-jobs.service';
import { syncRoutes } from './modules/sync-jobs/sync.routes';

export interface BuildOptions {
  env: Env;
  /** An open database (tests share one); otherwise one is opened from env and closed with the app. */
  db?: Db;
  now?: () => Date;
  logger?: boolean;
  /** Limits per window for sign-in and registration (tests raise or lower them). */
  credentialLimit?: number;
  /** OANDA client tuning (tests shorten timeouts and retry delays); hosts always come from env. */
  oanda?: Partial<Omit<OandaClientOptions, 'practiceUrl' | 'liveUrl'>>;
  /** LLM provider tuning (tests turn retries off and shorten timeouts). */
  llm?: LlmProviderOptions;
  /** Budget of one assistant answer, tool calls included (default 45 s). */
  chatTimeoutMs?: number;
  /** Budget of one provider call writing the overview insights (default 60 s). */
  insightsTimeoutMs?: number;
  /** Background sync (modules/sync-jobs): `enabled` starts the scheduler (server.ts does; tests tick by hand). */
  syncJobs?: SyncJobsOptions;
  /** Sees each route as it is registered (the API reference's test lists them). */
  onRoute?: (route: RouteOptions) => void;
}

const defaultWebDist = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../web/dist');

/** Plugins, then modules, then error and 404 handlers. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { env } = options;
  const app = Fastify({
    logger: options.logger === false ? false : { level: env.LOG_LEVEL, redact: ['req.headers.authorization'] },
    bodyLimit: 1024 * 1024,
    trustProxy: false,
    genReqId: () => crypto.randomUUID(),
    // Errors and slow requests are logged by registerRequestLog, not every request twice.
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);

  const db = options.db ?? createDb({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
  if (!options.db) app.addHook('onClose', () => db.close());
  await migrateToLatest(db);

  const secrets = loadSecrets(env);
  const ctx: AppContext = {
    env,
    db,
    cipher: createCipher(secrets.encryptionKey),
    now: options.now ?? (() => new Date()),
  };

  registerErrorHandling(app);
  registerRequestLog(app, env.SLOW_REQUEST_MS);
  registerGracefulClose(app);
  await registerSecurityHeaders(app);
  await registerRateLimits(app, {
    redisUrl: env.REDIS_URL,
    max: options.credentialLimit ?? env.AUTH_RATE_LIMIT,
  });
  await app.register(authPlugin, { secret: secrets.jwtSecret, ttlSeconds: env.JWT_TTL });
  // Before the routes: it reads their schemas as they are added.
  await registerOpenApi(app);

  const auth = createAuthService({ users: createUserRepository(db.kysely), now: ctx.now });
  const info = createSettingsService({ info: createSettingsRepository(db.kysely), cipher: ctx.cipher, now: ctx.now });
  const oanda = createOandaClient({
    ...options.oanda,
    practiceUrl: env.OANDA_PRACTICE_URL,
    liveUrl: env.OANDA_LIVE_URL,
    log: app.log,
  });
  app.addHook('onClose', () => oanda.close());
  const trading = createTradingService({ db: db.kysely, oanda, info, now: ctx.now });
  if (env.EXCURSION_REQUESTS_PER_MINUTE > 0) {
    // MAE/MFE from candles in the background; stopped before the database closes (registered after its hook).
    const excursions = createExcursionJob({
      db: db.kysely,
      oanda,
      credentials: (userId) => info.oandaCredentials(userId),
      now: ctx.now,
      requestsPerMinute: env.EXCURSION_REQUESTS_PER_MINUTE,
      log: (err, context) => app.log.warn({ err, ...context }, 'trade excursions failed'),
    });
    excursions.start();
    app.addHook('onClose', () => excursions.stop());
  }
  const syncJobs = createSyncJobs({
    ...options.syncJobs,
    db: db.kysely,
    databaseUrl: env.DATABASE_URL,
    trading,
    info,
    now: ctx.now,
    log: (err, context) => app.log.warn({ err, ...context }, 'background sync failed'),
    // Late-bound: analytics is built below; syncs run only after the app has started.
    afterSync: (userId) => analytics.refreshSnapshots(userId),
  });
  options.syncJobs?.expose?.(syncJobs);
  if (options.syncJobs?.enabled) await syncJobs.start();
  // After the database's hook, so it runs first: the running syncs end before the database closes.
  app.addHook('onClose', () => syncJobs.stop());
  const llm = createLlmProviders(env, options.llm);
  const chat = createChatModule({
    db: db.kysely,
    info,
    trading,
    providers: llm,
    now: ctx.now,
    timeoutMs: options.chatTimeoutMs,
    log: (err, context) => app.log.warn({ err, ...context }, 'assistant answer failed'),
  });

  const journal = createJournalService({ journal: createJournalRepository(db.kysely), trading, now: ctx.now });

  const analytics = createAnalyticsService({
    trading,
    info,
    providers: llm,
    insights: createInsightsRepository(db.kysely),
    journal: createJournalFactsService(db.kysely),
    source: createOverviewTrades(db.kysely),
    snapshots: createSnapshotRepository(db.kysely, db.dialect),
    now: ctx.now,
    timeoutMs: options.insightsTimeoutMs,
    log: (err, context) => app.log.warn({ err, ...context }, 'overview insights failed'),
  });
  // Registered after the database's own hook, so it runs first: the writers stop before the database closes.
  app.addHook('onClose', () => analytics.close());

  app.get('/healthz', () => ({ success: true, message: 'ok', database: db.dialect }));
  await app.register(authRoutes, { auth });
  await app.register(settingsRoutes, { info, auth, env });
  // The Sync buttons go through the background sync's lease and status.
  await app.register(tradingRoutes, { trading: syncJobs.manualTrading(trading) });
  await app.register(syncRoutes, { jobs: syncJobs });
  await app.register(chatRoutes, { chats: chat.chats });
  await app.register(chatAnswerRoutes, { answers: chat.answers });
  await app.register(analyticsRoutes, { analytics });
  await app.register(journalRoutes, { journal });
  await app.register(calendarRoutes, { calendar: createCalendarService({ db: db.kysely, trading, now: ctx.now }) });

  const imports = createImportService({
    db: db.kysely,
    trading,
    settings: info,
    parser: createReportParser(),
    now: ctx.now,
    afterImport: (userId) => analytics.refreshSnapshots(userId),
    log: (err, context) => app.log.warn({ err, ...context }, 'import follow-up failed'),
  });
  await app.register(importRoutes, { imports });

  registerNotFound(app, await registerStaticWeb(app, env.WEB_DIST ?? defaultWebDist));
  return app;
}
