import type { Attachment, ChatTopic, ConversationMessage, Mode } from '@pipsense/contract';
import type { LlmMessage, LlmProvider, LlmProviders } from '../../integrations/llm';
import { runToolLoop, ToolInputError } from '../../integrations/llm';
import { AppError, badRequest } from '../../lib/errors';
import { explainFailure } from './answer-failure';
import { BUILTIN_MODEL, type BuiltinAnalyst } from './builtin/analyst';
import type { ChatService } from './chat.service';
import { systemPrompt } from './prompts';
import type { ChatTools, ToolContext } from './tools/chat-tools';

export interface ChatAnswerServiceDeps {
  chats: ChatService;
  tools: ChatTools;
  analyst: BuiltinAnalyst;
  providers: LlmProviders;
  /** The user's `default_ai_platfrom`. */
  defaultAiPlatform: (userId: string) => Promise<string>;
  now: () => Date;
  /** Budget of a whole answer, every model call and tool run included (default 45 s). */
  timeoutMs?: number;
  /** Messages of the chat given to the model (default 20). */
  historyLimit?: number;
  /** Rounds of tool calls (default 5). */
  maxRounds?: number;
  /** Where failures are logged with their technical cause (never shown to users). */
  log?: (error: unknown, context: Record<string, unknown>) => void;
}

export interface ChatQuestion {
  userId: string;
  /** The topic of the endpoint asked. */
  topic: ChatTopic;
  chatId: string;
  query: string;
  mode?: Mode | undefined;
  instrument?: string | undefined;
  granularity?: string | undefined;
  timeZone?: string | undefined;
}

export interface AnswerHooks {
  /** Text of the answer as it is written (the final message may add a closing source line). */
  onText?: (delta: string) => void;
  /** The client went away: stop the provider call. */
  signal?: AbortSignal;
}

export const DEFAULT_TIMEOUT_MS = 45_000;
export const DEFAULT_HISTORY = 20;
const ENDPOINT: Record<ChatTopic, string> = { trading: 'trade', accounts: 'account', candles: 'candle' };
const TOPIC_DEFAULTS = { instrument: 'USD_JPY', granularity: 'M5' };
const PROVIDER_LABELS: Record<string, string> = { openai: 'OpenAI', vertexai: 'Vertex AI' };

/** Phrases by which an answer names its source; one is added when the model left it out. */
const SOURCE_PHRASES =
  /from OANDA just now|from your last sync|nothing synced yet|fetched from OANDA|from your MetaTrader import|nothing imported from MetaTrader/i;

interface Outcome {
  failed: boolean;
  text: string;
  model: string;
  attachments: Attachment[];
}

/** Settles with the promise, or rejects with the signal's reason as soon as it fires. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

class FatalToolError extends Error {
  constructor(readonly original: unknown) {
    super('a tool failed in a way the model cannot fix');
  }
}

/**
 * Answers a question in a chat: stores the user's message, answers it with the user's AI platform
 * (or the built-in analyst when that platform is not configured here), and stores the answer, or
 * a plain explanation marked `failed` when answering failed. Never throws once the user's message
 * is stored, and never waits longer than the timeout.
 */
export function createChatAnswerService(deps: ChatAnswerServiceDeps) {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const historyLimit = deps.historyLimit ?? DEFAULT_HISTORY;
  const log = deps.log ?? (() => undefined);

  function toolContext(input: ChatQuestion, now: Date): ToolContext {
    return {
      userId: input.userId,
      mode: input.mode ?? 'demo',
      instrument: input.instrument ?? TOPIC_DEFAULTS.instrument,
      granularity: input.granularity ?? TOPIC_DEFAULTS.granularity,
      timeZone: input.timeZone ?? 'UTC',
      now,
    };
  }

  async function withModel(
    provider: LlmProvider,
    input: ChatQuestion,
    history: ConversationMessage[],
    ctx: ToolContext,
    hooks: AnswerHooks,
    controller: AbortController,
  ): Promise<Outcome> {
    const model = provider.model(input.topic);

    const attachments: Attachment[] = [];
    const sources: string[] = [];
    let fatal: FatalToolError | undefined;
    let lastRound = 0;
    let roundHadText = false;

    const messages: LlmMessage[] = [
      { role: 'system', content: systemPrompt({ ...ctx, topic: input.topic }) },
      ...history.map((m): LlmMessage => ({ role: m.role, content: m.content })),
      { role: 'user', content: input.query },
    ];

    try {
      const result = await runToolLoop({
        provider,
        model,
        messages,
        tools: deps.tools.specs(input.topic),
        maxRounds: deps.maxRounds ?? 5,
        signal: controller.signal,
        ...(hooks.onText
          ? {
              onText: (delta: string, round: number) => {
                // Words said before calling tools ("Let me look…") are not part of the final answer: keep rounds apart.
                if (round !== lastRound && roundHadText) hooks.onText?.('\n\n');
                if (round !== lastRound) roundHadText = false;
                lastRound = round;
                if (delta) roundHadText = true;
                hooks.onText?.(delta);
              },
            }
          : {}),
        execute: async (name, args) => {
          try {
            // OANDA may retry for longer than the answer's budget: stop waiting when the budget is spent.
            const outcome = await untilAborted(deps.tools.run(input.topic, name, args, ctx), controller.signal);
            attachments.push(...outcome.attachments);
            const source = (outcome.result as { source?: unknown }).source;
            if (typeof source === 'string') sources.push(source);
            return outcome.result;
          } catch (error) {
            if (controller.signal.aborted) throw error;
            if (error instanceof ToolInputError || (error instanceof Error && error.name === 'ZodError')) throw error;
            if (error instanceof AppError && error.code === 'OANDA_BAD_REQUEST')
              throw new ToolInputError(error.message);
            // Not connected, refused, OANDA down: the model cannot fix that; stop and explain.
            fatal ??= new FatalToolError(error);
            controller.abort(fatal);
            throw error;
          }
        },
      });
      if (result.stoppedAtRoundLimit) return { failed: true, text: result.text, model, attachments: [] };
      let text = result.text.trim();
      if (!text)
        return {
          failed: true,
          text: `${PROVIDER_LABELS[provider.id] ?? provider.id} returned an empty answer. Please try again.`,
          model,
          attachments: [],
        };
      const cited = sources.length === 0 || SOURCE_PHRASES.test(text);
      if (!cited) {
        const line = `\n\nData: ${[...new Set(sources)].join('; ')}.`;
        hooks.onText?.(line);
        text += line;
      }
      return { failed: false, text, model: result.model || model, attachments: dedupe(attachments) };
    } catch (error) {
      // Our own deadline or the client leaving explains the failure better than the provider's echo of it.
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : undefined;
      const cause = fatal?.original ?? (reason instanceof DOMException ? reason : error);
      log(cause, { provider: provider.id, model, topic: input.topic });
      return {
        failed: true,
        text: explainFailure(cause, PROVIDER_LABELS[provider.id] ?? provider.id),
        model,
        attachments: [],
      };
    }
  }

  async function builtin(
    input: ChatQuestion,
    ctx: ToolContext,
    hooks: AnswerHooks,
    controller: AbortController,
  ): Promise<Outcome> {
    try {
      const answer = await untilAborted(deps.analyst.answer(input.topic, input.query, ctx), controller.signal);
      hooks.onText?.(answer.text);
      return { failed: false, text: answer.text, model: BUILTIN_MODEL, attachments: answer.attachments };
    } catch (error) {
      log(error, { provider: 'builtin', topic: input.topic });
      return {
        failed: true,
        text: explainFailure(error, 'The built-in analyst'),
        model: BUILTIN_MODEL,
        attachments: [],
      };
    }
  }

  /** Checks that the chat is the user's and on the endpoint's topic (404 / 400 otherwise). */
  async function check(userId: string, chatId: string, topic: ChatTopic): Promise<void> {
    const chat = await deps.chats.get(userId, chatId);
    if (chat.topic !== topic)
      throw badRequest(
        `This chat is about ${chat.topic}; ask it with the ${chat.topic} topic selected (query/oanda/${ENDPOINT[chat.topic]}).`,
        'TOPIC_MISMATCH',
      );
  }

  return {
    check,

    /**
     * Checks the chat (the user's, on this topic), stores the question, answers it and returns the
     * stored answer. Throws only before anything is stored (unknown chat, wrong topic).
     */
    async answer(input: ChatQuestion, hooks: AnswerHooks = {}): Promise<ConversationMessage> {
      await check(input.userId, input.chatId, input.topic);
      const history = await deps.chats.recent(input.userId, input.chatId, historyLimit);
      await deps.chats.append(input.userId, input.chatId, { role: 'user', content: input.query });

      const ctx = toolContext(input, deps.now());
      const platform = await deps.defaultAiPlatform(input.userId).catch(() => 'openai');
      const provider = platform === 'openai' || platform === 'vertexai' ? deps.providers[platform] : undefined;

      const controller = new AbortController();
      const timer = setTimeout(
        () => controller.abort(new DOMException('The answer took too long.', 'TimeoutError')),
        timeoutMs,
      );
      const onClientGone = () => controller.abort(new DOMException('The client went away.', 'AbortError'));
      if (hooks.signal?.aborted) onClientGone();
      hooks.signal?.addEventListener('abort', onClientGone, { once: true });
      let outcome: Outcome;
      try {
        outcome = provider
          ? await withModel(provider, input, history, ctx, hooks, controller)
          : await builtin(input, ctx, hooks, controller);
      } finally {
        clearTimeout(timer);
        hooks.signal?.removeEventListener('abort', onClientGone);
      }
      return deps.chats.append(input.userId, input.chatId, {
        role: 'assistant',
        content: outcome.text,
        provider: provider ? provider.id : 'builtin',
        model: outcome.model,
        attachments: outcome.attachments,
        failed: outcome.failed,
      });
    },
  };
}
export type ChatAnswerService = ReturnType<typeof createChatAnswerService>;

/** One attachment per distinct lookup, the latest kept; at most three under an answer. */
function dedupe(attachments: Attachment[]): Attachment[] {
  const byKey = new Map<string, Attachment>();
  for (const a of attachments) {
    const key = a.type === 'candles' ? `candles:${a.instrument}:${a.granularity}` : `trades:${a.title}`;
    byKey.delete(key);
    byKey.set(key, a);
  }
  return [...byKey.values()].slice(-3);
}
