import type { Attachment, ChatTopic, ConversationMessage, Mode } from '@pipsense/contract';
import type { LlmMessage, LlmProvider, LlmProviders } from '../../integrations/llm';
import { runToolLoop, ToolInputError } from '../../integrations/llm';
import { AppError, badRequest } from '../../lib/errors';
import { CANCELLED_MESSAGE, explainFailure, INTERRUPTED_MESSAGE, withNote } from './answer-failure';
import { BUILTIN_MODEL, type BuiltinAnalyst } from './builtin/analyst';
import type { AnswerEnd, ChatService } from './chat.service';
import { systemPrompt } from './prompts';
import { budgetExhaustedMessage, type AiBudget } from '../ai-usage';
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
  /** Tool calls run per round (default 8; AI_MAX_TOOL_CALLS_PER_ROUND). */
  maxToolCallsPerRound?: number;
  /** The daily budget of provider requests (AI_DAILY_REQUESTS); unset: no limit. */
  budget?: AiBudget;
  /** Where failures are logged with their technical cause (never shown to users). */
  log?: (error: unknown, context: Record<string, unknown>) => void;
  /** The text of an answer being written is saved at most this often (default 500 ms). */
  saveEveryMs?: number;
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
  /** The question and the answer are stored (the answer empty, status streaming): called once, before any text. */
  onStart?: (stored: { question: ConversationMessage; answer: ConversationMessage }) => void;
  /** Text of the answer as it is written (the final message may add a closing source line). */
  onText?: (delta: string) => void;
}

/** Why an answer was stopped before its end: the trader's Stop (here or on another instance), or a shutdown. */
type StopKind = 'cancelled' | 'cancelled-elsewhere' | 'shutdown';

interface RunningAnswer {
  userId: string;
  stop: (kind: StopKind) => void;
  /** The stored message once the answer has ended (undefined when its chat was deleted meanwhile). */
  settled: Promise<ConversationMessage | undefined>;
}

export const DEFAULT_TIMEOUT_MS = 45_000;
/** The answer returned when its chat was deleted while it was written (nothing is stored then). */
const CHAT_GONE_MESSAGE = 'The chat was deleted while the answer was being written.';
const DEFAULT_HISTORY = 20;
const DEFAULT_SAVE_EVERY_MS = 500;
/** On shutdown, answers get this long to end by themselves; the rest are stopped and stored with a note. */
const DEFAULT_CLOSE_GRACE_MS = 5_000;
/** The abort reasons of stops, so that they are not logged as failures. */
const stopReasons = new WeakSet<object>();
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
        ...(deps.maxToolCallsPerRound !== undefined ? { maxToolCallsPerRound: deps.maxToolCallsPerRound } : {}),
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
      if (!(reason instanceof Object && stopReasons.has(reason)))
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
    notice: string | undefined,
  ): Promise<Outcome> {
    try {
      const answer = await untilAborted(deps.analyst.answer(input.topic, input.query, ctx), controller.signal);
      const text = notice ? withNote(notice, answer.text) : answer.text;
      hooks.onText?.(text);
      return { failed: false, text, model: BUILTIN_MODEL, attachments: answer.attachments };
    } catch (error) {
      if (!(error instanceof Object && stopReasons.has(error))) log(error, { provider: 'builtin', topic: input.topic });
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

  const running = new Map<string, RunningAnswer>();

  /**
   * Answers into the stored, streaming `answer`: saves its text as it is written (at most every `saveEveryMs`) and
   * its end. Runs to its end whoever listens; only a Stop, a shutdown or the time budget end it early.
   */
  async function run(
    input: ChatQuestion,
    history: ConversationMessage[],
    provider: LlmProvider | undefined,
    answer: ConversationMessage,
    hooks: AnswerHooks,
    controller: AbortController,
    stops: { stop: (kind: StopKind) => void; stopped: () => StopKind | undefined },
    notice: string | undefined,
  ): Promise<ConversationMessage | undefined> {
    const saveEveryMs = deps.saveEveryMs ?? DEFAULT_SAVE_EVERY_MS;
    let written = '';
    let saved = '';
    let saving = Promise.resolve();
    let saveTimer: ReturnType<typeof setTimeout> | undefined;
    const save = async () => {
      saveTimer = undefined;
      if (written === saved) return;
      const text = written;
      const stillStreaming = await deps.chats.saveText(answer._id, text).catch((error: unknown) => {
        log(error, { stage: 'saving the answer so far', topic: input.topic });
        return true;
      });
      saved = text;
      // Stopped on another instance (or the chat deleted): stop paying for it.
      if (!stillStreaming) stops.stop('cancelled-elsewhere');
    };
    const onText = (delta: string) => {
      written += delta;
      hooks.onText?.(delta);
      saveTimer ??= setTimeout(() => {
        saving = saving.then(save);
      }, saveEveryMs);
    };

    const ctx = toolContext(input, deps.now());
    const timer = setTimeout(
      () => controller.abort(new DOMException('The answer took too long.', 'TimeoutError')),
      timeoutMs,
    );
    let outcome: Outcome;
    try {
      outcome = provider
        ? await withModel(provider, input, history, ctx, { onText }, controller)
        : await builtin(input, ctx, { onText }, controller, notice);
    } finally {
      clearTimeout(timer);
      clearTimeout(saveTimer);
      await saving;
    }

    const stop = stops.stopped();
    const who = { provider: provider ? provider.id : ('builtin' as const), model: outcome.model };
    // A failure after some text (the time budget spent, the provider gone mid-answer) keeps the text, then explains.
    const content = outcome.failed && written.trim() ? withNote(written, outcome.text) : outcome.text;
    let end: AnswerEnd = { status: outcome.failed ? 'failed' : 'complete', content, ...who };
    // A Stop that came after the answer was complete changes nothing.
    if (stop && outcome.failed) {
      const kept = written.trim() !== '';
      end =
        stop === 'shutdown'
          ? { status: 'failed', content: withNote(written, INTERRUPTED_MESSAGE), ...who }
          : { status: 'cancelled', content: kept ? written : CANCELLED_MESSAGE, failed: !kept, ...who };
    }
    const from = stop === 'cancelled-elsewhere' ? 'cancelled' : 'streaming';
    const stored = await deps.chats.endAnswer(input.userId, answer._id, from, {
      ...end,
      attachments: outcome.failed ? [] : outcome.attachments,
    });
    return stored;
  }

  return {
    check,

    /**
     * Checks the chat (the user's, on this topic), stores the question and the answer as it starts (status
     * streaming), answers it and returns the stored answer. The answer runs to its end even if nobody waits for
     * it any more. Throws only before anything is stored (unknown chat, wrong topic).
     */
    async answer(input: ChatQuestion, hooks: AnswerHooks = {}): Promise<ConversationMessage> {
      await check(input.userId, input.chatId, input.topic);
      const history = await deps.chats.recent(input.userId, input.chatId, historyLimit);
      const question = await deps.chats.append(input.userId, input.chatId, { role: 'user', content: input.query });

      const platform = await deps.defaultAiPlatform(input.userId).catch(() => 'openai');
      const chosen = platform === 'openai' || platform === 'vertexai' ? deps.providers[platform] : undefined;
      // Today's provider requests used up (SECURITY.md, AI cost): the built-in analyst answers, after a sentence
      // saying so.
      const { budget } = deps;
      const exhausted = chosen !== undefined && budget !== undefined && !(await budget.hasRoom(input.userId));
      const notice = exhausted ? budgetExhaustedMessage(budget.limit) : undefined;
      const provider = chosen && !exhausted ? (budget ? budget.provider(chosen, input.userId) : chosen) : undefined;
      const answer = await deps.chats.startAnswer(input.userId, input.chatId, {
        provider: provider ? provider.id : 'builtin',
        model: provider ? provider.model(input.topic) : BUILTIN_MODEL,
      });
      hooks.onStart?.({ question, answer });

      const controller = new AbortController();
      let stopKind: StopKind | undefined;
      // Stops for a reason that is not a failure (the abort reason is marked so that it is not logged as one).
      const stop = (kind: StopKind) => {
        if (controller.signal.aborted) return;
        stopKind = kind;
        const reason = new DOMException(
          kind === 'shutdown' ? 'The server is shutting down.' : 'The trader stopped the answer.',
          'AbortError',
        );
        stopReasons.add(reason);
        controller.abort(reason);
      };
      const settled = run(
        input,
        history,
        provider,
        answer,
        hooks,
        controller,
        { stop, stopped: () => stopKind },
        notice,
      )
        .catch((error: unknown): ConversationMessage => {
          // Only storing the end can fail here (the answer itself never throws): the row stays streaming and
          // reads as interrupted once its time is up; the page is told now.
          log(error, { stage: 'storing the answer', topic: input.topic });
          return { ...answer, status: 'failed', failed: true, content: explainFailure(error, '') };
        })
        .finally(() => running.delete(answer._id));
      running.set(answer._id, { userId: input.userId, stop, settled });
      const stored = await settled;
      // The chat was deleted while the answer was written: nothing is stored, the answer is still returned.
      return stored ?? { ...answer, status: 'failed', failed: true, content: CHAT_GONE_MESSAGE };
    },

    /**
     * The trader's Stop: the answer ends now, keeping the text written so far. On the instance that runs it, the
     * whole text is kept; an answer running on another instance is marked cancelled in the database (with the
     * text saved so far) and that instance stops it at its next save.
     */
    async cancel(userId: string, messageId: string): Promise<ConversationMessage> {
      const local = running.get(messageId);
      if (local && local.userId === userId) {
        local.stop('cancelled');
        const stored = await local.settled;
        if (stored) return stored;
      }
      return deps.chats.cancel(userId, messageId);
    },

    /**
     * Shutdown: answers get `graceMs` to end by themselves; the others are stopped and stored with the text
     * written so far and a note. Resolves once every answer is stored.
     */
    async close(graceMs = DEFAULT_CLOSE_GRACE_MS): Promise<void> {
      const all = () => Promise.all([...running.values()].map((r) => r.settled));
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([all(), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      for (const r of running.values()) r.stop('shutdown');
      await all();
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
