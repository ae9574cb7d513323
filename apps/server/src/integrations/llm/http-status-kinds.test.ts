import type { FakeLlmServer } from '@pipsense/fake-llm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { kindFromHttpStatus, type LlmErrorKind } from './errors';
import { collect, llmErrorOf, setups } from '../../test/llm-providers';
import type { LlmMessage, LlmProvider } from './types';

/** The table of decision 004: one kind per HTTP status, whichever provider answered it. */
const TABLE: ReadonlyArray<[status: number, kind: LlmErrorKind]> = [
  [400, 'bad_request'],
  [401, 'auth'],
  [403, 'auth'],
  [404, 'bad_request'],
  [405, 'bad_request'],
  [408, 'timeout'],
  [409, 'unavailable'],
  [413, 'bad_request'],
  [418, 'bad_request'],
  [422, 'bad_request'],
  [429, 'rate_limit'],
  [451, 'bad_request'],
  [500, 'unavailable'],
  [501, 'unavailable'],
  [502, 'unavailable'],
  [503, 'unavailable'],
  [504, 'timeout'],
  [507, 'unavailable'],
  [599, 'unavailable'],
];

/** Google's rpc status for an HTTP status (google.rpc.Code), as its own servers send them together. */
const RPC_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

describe('kindFromHttpStatus', () => {
  it.each(TABLE)('%i is %s', (status, kind) => {
    expect(kindFromHttpStatus(status)).toBe(kind);
  });
});

/**
 * Each status answered by a body that names nothing else (no OpenAI `code`, no Google rpc status), as a gateway in
 * front of the provider would answer: the kind comes from the status alone, the same through both SDKs.
 */
describe.each(setups)('$name: an HTTP error status reaches the caller as its one kind', (setup) => {
  let fake: FakeLlmServer;
  let provider: LlmProvider;
  const question: LlmMessage[] = [{ role: 'user', content: 'How did I do this week?' }];

  beforeAll(async () => {
    fake = await setup.start();
    provider = setup.provider(fake);
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const bareBody = (status: number): unknown =>
    setup.name === 'openai'
      ? { error: { message: 'upstream failure', type: 'error', param: null, code: null } }
      : { error: { code: status, message: 'upstream failure' } };

  it.each(TABLE)('%i is %s', async (status, kind) => {
    fake.enqueue({ raw: { status, body: bareBody(status) } }, { raw: { status, body: bareBody(status) } });
    const error = await llmErrorOf(provider.complete({ model: setup.model, messages: question }));
    expect(error).toMatchObject({ kind, status, provider: setup.name });
    const streamed = await llmErrorOf(collect(provider.stream({ model: setup.model, messages: question })));
    expect(streamed).toMatchObject({ kind, status });
  });

  if (setup.name === 'vertexai') {
    const withRpc = TABLE.filter(([status]) => RPC_STATUS[status] !== undefined);
    it.each(withRpc)('%i with its rpc status is still %s', async (status, kind) => {
      const body = { error: { code: status, message: 'upstream failure', status: RPC_STATUS[status] } };
      fake.enqueue({ raw: { status, body } });
      const error = await llmErrorOf(provider.complete({ model: setup.model, messages: question }));
      expect(error).toMatchObject({ kind, status });
    });
  }
});
