import type { Kysely } from 'kysely';
import type { LlmProviders } from '../../integrations/llm';
import type { SettingsService } from '../settings';
import { createBuiltinAnalyst } from './builtin/analyst';
import { createChatRepository } from './chat.repository';
import { createChatService } from './chat.service';
import { createMessageRepository } from './message.repository';
import { createChatAnswerService, DEFAULT_TIMEOUT_MS } from './chat-answer.service';

/** Beyond its time budget, how long an answer may take to be stored before it reads as interrupted. */
const STALE_MARGIN_MS = 30_000;
import { createChatTools } from './tools/chat-tools';
import type { ChatData } from './tools/chat-data';
import type { ChatRules } from './tools/rule-status';
import type { ChatCoach } from './tools/coach';
import { createTradingChatData, type TradingChatDataDeps } from './tools/trading-chat-data';
import type { AiBudget } from '../ai-usage';
import type { ChatTables } from './tables';

export interface ChatModuleDeps {
  db: Kysely<ChatTables>;
  settings: Pick<SettingsService, 'oandaCredentials' | 'defaultAiPlatform' | 'defaultTradingPlatform'>;
  /** The trading service's reads the assistant's data uses (trading-chat-data.ts). */
  trading: TradingChatDataDeps['trading'];
  /** The journal's facts of trades (tags, notes), built once in app.ts. */
  journal: TradingChatDataDeps['journal'];
  /** The stored trades by one selection (modules/trade-views). */
  views: TradingChatDataDeps['views'];
  providers: LlmProviders;
  now: () => Date;
  /** Budget of one answer (default 45 s). */
  timeoutMs?: number | undefined;
  /** The daily budget of provider requests (SECURITY.md, "AI cost"); unset: no limit. */
  budget?: AiBudget | undefined;
  /** Tool calls run per round of the assistant (AI_MAX_TOOL_CALLS_PER_ROUND; default 8). */
  maxToolCallsPerRound?: number | undefined;
  /** The trader's home currency and daily rates, for totals over several currencies (app.ts hands them in). */
  currencyRule?: TradingChatDataDeps['currencyRule'];
  /** The rules module's status and breaks (docs/rules.md, The assistant), wired in app.ts. */
  rules?: ChatRules | undefined;
  /** The coach's reviews, patterns and weekly reviews (docs/coach.md, The assistant), wired in app.ts. */
  coach?: ChatCoach | undefined;
  /** Replaces the trading service as the tools' data (tests, benchmarks). */
  data?: ChatData;
  log?: (error: unknown, context: Record<string, unknown>) => void;
}

/** The assistant's services: chats and their threads, and the answers to questions. */
export function createChatModule(deps: ChatModuleDeps) {
  const chats = createChatService({
    chats: createChatRepository(deps.db),
    messages: createMessageRepository(deps.db),
    now: deps.now,
    // An answer still streaming this long after it started has lost its instance (each one stops at its budget).
    staleAfterMs: (deps.timeoutMs ?? DEFAULT_TIMEOUT_MS) + STALE_MARGIN_MS,
  });
  const tools = createChatTools(
    deps.data ??
      createTradingChatData({
        trading: deps.trading,
        views: deps.views,
        settings: deps.settings,
        journal: deps.journal,
        now: deps.now,
        currencyRule: deps.currencyRule,
      }),
    deps.rules,
    deps.coach,
  );
  const answers = createChatAnswerService({
    chats,
    tools,
    analyst: createBuiltinAnalyst(tools),
    providers: deps.providers,
    defaultAiPlatform: (userId) => deps.settings.defaultAiPlatform(userId),
    now: deps.now,
    ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
    ...(deps.budget ? { budget: deps.budget } : {}),
    ...(deps.maxToolCallsPerRound !== undefined ? { maxToolCallsPerRound: deps.maxToolCallsPerRound } : {}),
    ...(deps.log ? { log: deps.log } : {}),
  });
  return { chats, answers, tools };
}
