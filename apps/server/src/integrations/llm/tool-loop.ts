import { LlmError, abortKind } from './errors';
import type { LlmMessage, LlmProvider, LlmResult, LlmUsage, ToolCall, ToolSpec } from './types';

/**
 * Thrown by a tool executor when the model's arguments are unusable (unknown instrument, period
 * out of range…). Its message goes back to the model, which may call again with better arguments.
 */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

export interface ToolLoopOptions {
  provider: LlmProvider;
  model: string;
  /** The conversation so far, system prompt first. Not modified. */
  messages: LlmMessage[];
  tools: ToolSpec[];
  /**
   * Runs one tool call; the value returned goes to the model as JSON. Errors never end the loop:
   * a `ToolInputError` (or a zod error) is shown to the model as is, any other error as a generic
   * failure, and each is kept in `ToolLoopResult.toolCalls[i].error` for logging.
   */
  execute: (name: string, args: Record<string, unknown>, call: ToolCall) => Promise<unknown>;
  /** Rounds of tool calls allowed before the loop gives up (default 5). */
  maxRounds?: number;
  /**
   * Tool calls run in one round (default 8): the model's further calls of that round are never run, each answered
   * with `toolCallLimitMessage` so the model can ask again in the next round.
   */
  maxToolCallsPerRound?: number;
  signal?: AbortSignal;
  /**
   * Streams the answer: each text delta with its round number (1 for the first model call). Text of
   * a round that ends in tool calls ("Let me look…") is not part of the final `text`.
   */
  onText?: (delta: string, round: number) => void;
  temperature?: number;
}

interface ExecutedToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** What the model was given: the tool's value, or an explanation when `isError`. */
  result: unknown;
  isError: boolean;
  /** The error thrown by `execute`, for logs. */
  error?: unknown;
}

export interface ToolLoopResult {
  /** The final answer, or `roundLimitMessage` when the model kept calling tools. */
  text: string;
  toolCalls: ExecutedToolCall[];
  /** The given messages followed by every assistant turn and tool result of the loop. */
  messages: LlmMessage[];
  /** Rounds of tool calls executed. */
  rounds: number;
  stoppedAtRoundLimit: boolean;
  /** Summed over every model call. */
  usage: LlmUsage;
  /** The model that answered, as reported by the provider. */
  model: string;
}

const DEFAULT_MAX_TOOL_ROUNDS = 5;

const DEFAULT_MAX_TOOL_CALLS_PER_ROUND = 8;

export function toolCallLimitMessage(limit: number): string {
  return `Not run: at most ${limit} tool calls are run in one round. Use the results you have, and call the tools you still need in your next turn.`;
}

export function roundLimitMessage(maxRounds: number): string {
  return `I could not finish this answer: it needed more than ${maxRounds} rounds of data lookups. Please ask a narrower question.`;
}

const MALFORMED_CALL_NUDGE =
  'Your last function call could not be read. Call the function again with arguments that match its parameters.';

function describeFailure(error: unknown, name: string): string {
  if (error instanceof ToolInputError) return error.message;
  // zod errors are detected by shape: the executor may use any zod instance.
  if (error instanceof Error && error.name === 'ZodError' && 'issues' in error && Array.isArray(error.issues)) {
    const issues = (error.issues as Array<{ path?: unknown[]; message?: string }>).map(
      (i) => `${i.path && i.path.length > 0 ? i.path.join('.') : 'arguments'}: ${i.message ?? 'invalid'}`,
    );
    return `Invalid arguments for "${name}": ${issues.join('; ')}.`;
  }
  return `The tool "${name}" failed. Answer without it, and say that this data could not be loaded.`;
}

/**
 * Lets the model call tools until it answers: at most `maxRounds` rounds of calls (the calls of a
 * round run concurrently), then, if it still wants more, it stops with `roundLimitMessage`. Bad
 * arguments and unknown tools are answered with an error result so the model can correct itself.
 * Rejects with `LlmError` (provider failures, or the signal), or with what a wrapping provider throws before a call
 * (the daily budget's `AiBudgetExhaustedError`, modules/ai-usage). Runs at most `maxToolCallsPerRound` calls a round.
 */
export async function runToolLoop(options: ToolLoopOptions): Promise<ToolLoopResult> {
  const { provider, model, tools, execute, signal, onText, temperature } = options;
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const maxCalls = options.maxToolCallsPerRound ?? DEFAULT_MAX_TOOL_CALLS_PER_ROUND;
  const transcript: LlmMessage[] = [...options.messages];
  const executed: ExecutedToolCall[] = [];
  const usage: LlmUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  let answeredBy = model;

  const request = () => ({
    model,
    messages: transcript,
    tools,
    ...(signal ? { signal } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
  });

  async function callModel(round: number): Promise<LlmResult> {
    if (!onText) return provider.complete(request());
    for await (const event of provider.stream(request())) {
      if (event.type === 'text') onText(event.text, round);
      else if (event.type === 'finish') return event;
    }
    throw new LlmError('invalid_response', {
      provider: provider.id,
      label: provider.label,
      detail: 'stream ended without finish',
    });
  }

  async function runCall(call: ToolCall): Promise<ExecutedToolCall> {
    const base = { id: call.id, name: call.name, args: call.args };
    if (!tools.some((t) => t.name === call.name)) {
      const available = tools.map((t) => t.name).join(', ') || 'none';
      return { ...base, isError: true, result: `Unknown tool "${call.name}". Available tools: ${available}.` };
    }
    if (call.argsError) {
      return {
        ...base,
        isError: true,
        result: `Invalid arguments for "${call.name}": ${call.argsError}. Call it again with a JSON object that matches its parameters.`,
      };
    }
    try {
      return { ...base, isError: false, result: await execute(call.name, call.args, call) };
    } catch (error) {
      return { ...base, isError: true, result: describeFailure(error, call.name), error };
    }
  }

  const finish = (text: string, rounds: number, stoppedAtRoundLimit: boolean): ToolLoopResult => ({
    text,
    toolCalls: executed,
    messages: transcript,
    rounds,
    stoppedAtRoundLimit,
    usage,
    model: answeredBy,
  });

  for (let rounds = 0; ; rounds += 1) {
    const turn = await callModel(rounds + 1);
    answeredBy = turn.model;
    if (turn.usage) {
      usage.inputTokens += turn.usage.inputTokens;
      usage.outputTokens += turn.usage.outputTokens;
      usage.totalTokens += turn.usage.totalTokens;
    }
    if (turn.finishReason === 'stop') {
      transcript.push({ role: 'assistant', content: turn.text });
      return finish(turn.text, rounds, false);
    }
    if (rounds >= maxRounds) return finish(roundLimitMessage(maxRounds), rounds, true);
    if (signal?.aborted) {
      throw new LlmError(abortKind(false, signal), { provider: provider.id, label: provider.label });
    }

    if (turn.finishReason === 'malformed_tool_call') {
      if (turn.text) transcript.push({ role: 'assistant', content: turn.text });
      transcript.push({ role: 'user', content: MALFORMED_CALL_NUDGE });
      continue;
    }
    transcript.push({ role: 'assistant', content: turn.text, toolCalls: turn.toolCalls });
    // Each call may cost a broker request or a database scan: only the first `maxCalls` of a round run.
    const results = await Promise.all(
      turn.toolCalls.map((call, i): Promise<ExecutedToolCall> =>
        i < maxCalls
          ? runCall(call)
          : Promise.resolve({
              id: call.id,
              name: call.name,
              args: call.args,
              isError: true,
              result: toolCallLimitMessage(maxCalls),
            }),
      ),
    );
    executed.push(...results);
    for (const r of results) {
      transcript.push({
        role: 'tool',
        toolCallId: r.id,
        name: r.name,
        result: r.result,
        ...(r.isError ? { isError: true } : {}),
      });
    }
  }
}
