/** Test helpers: each provider wired to its fake server (tools/fake-llm). */
import { startFakeOpenAI, startFakeVertex, type FakeLlmServer, type FakeServerOptions } from '@pipsense/fake-llm';
import { LlmError } from '../integrations/llm/errors';
import { createOpenAiProvider } from '../integrations/llm/openai';
import type { LlmEvent, LlmProvider, ToolSpec } from '../integrations/llm/types';
import { createVertexProvider } from '../integrations/llm/vertex';

export interface ProviderSetup {
  name: 'openai' | 'vertexai';
  model: string;
  start(options?: FakeServerOptions): Promise<FakeLlmServer>;
  /** No retries and a 5 s budget unless overridden, so failures are fast and requests countable. */
  provider(fake: FakeLlmServer, overrides?: { timeoutMs?: number; maxRetries?: number }): LlmProvider;
}

export const setups: ProviderSetup[] = [
  {
    name: 'openai',
    model: 'gpt-4o',
    start: (options) => startFakeOpenAI(options),
    provider: (fake, overrides) =>
      createOpenAiProvider({
        apiKey: 'sk-test-key',
        baseURL: fake.url,
        models: { trading: 'gpt-4o', accounts: 'gpt-4o', candles: 'gpt-3.5-turbo' },
        maxRetries: 0,
        timeoutMs: 5000,
        ...overrides,
      }),
  },
  {
    name: 'vertexai',
    model: 'gemini-2.5-flash',
    start: (options) => startFakeVertex(options),
    provider: (fake, overrides) =>
      createVertexProvider({
        apiKey: 'test-vertex-key',
        baseUrl: fake.url,
        model: 'gemini-2.5-flash',
        maxRetries: 0,
        timeoutMs: 5000,
        ...overrides,
      }),
  },
];

export const tradeTools: ToolSpec[] = [
  {
    name: 'get_account_summary',
    description: 'Balance, NAV, unrealized P/L and margin of the account.',
    parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
  },
  {
    name: 'list_trades',
    description: 'List the trades of the account, newest first.',
    parameters: {
      type: 'object',
      properties: {
        state: { type: 'string', enum: ['OPEN', 'CLOSED', 'ALL'] },
        instrument: { type: ['string', 'null'], description: 'e.g. EUR_USD, or null for all' },
        count: { type: 'integer', minimum: 1, maximum: 500 },
      },
      required: ['state', 'instrument', 'count'],
      additionalProperties: false,
    },
  },
];

export async function collect(events: AsyncIterable<LlmEvent>): Promise<LlmEvent[]> {
  const out: LlmEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** The LlmError a promise rejects with (fails the test if it resolves or throws something else). */
export async function llmErrorOf(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LlmError) return error;
    throw new Error(`expected an LlmError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected an LlmError, but the call succeeded');
}
