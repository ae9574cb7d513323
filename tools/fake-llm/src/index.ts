/**
 * Fake LLM provider servers for tests, end-to-end runs and benchmarks: OpenAI Chat Completions and
 * Vertex AI generateContent, speaking the real wire formats (the recorded exchanges in tools/fake-llm/fixtures) on loopback.
 */
export { startFakeOpenAI } from './openai-fake';
export { startFakeVertex, type FakeVertexOptions } from './vertex-fake';
export { defaultReply, summarizeToolResults } from './default-reply';
export type {
  FakeErrorKind,
  FakeHandler,
  FakeLlmServer,
  FakeMessage,
  FakeProvider,
  FakeReply,
  FakeRequest,
  FakeServerOptions,
  FakeTool,
  FakeToolCall,
} from './types';
