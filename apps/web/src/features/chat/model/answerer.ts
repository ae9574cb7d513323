import type { AiPlatformId, ChatTopic, ConversationMessage } from '@pipsense/contract';

const aiPlatformNames: Record<AiPlatformId, string> = {
  openai: 'OpenAI',
  vertexai: 'VertexAI',
  gemini: 'Gemini',
};

/** The model labels for the OpenAI platform (docs/PRODUCT.md, Constants). */
const openAiModelLabels: Record<ChatTopic, string> = {
  trading: 'gpt-4o',
  accounts: 'gpt-4o',
  candles: 'gpt-3.5-turbo',
};

const builtinName = 'built-in analyst';

/**
 * What will answer: the user's default platform when the server has that provider configured, otherwise the
 * server's built-in analyst. `configured` is null while the info record loads; the spec's defaults hold until then.
 */
export interface Answerer {
  platform: AiPlatformId;
  configured: boolean | null;
}

const usesBuiltin = ({ configured }: Answerer) => configured === false;

/** The breadcrumb's 'Using: …' text, truthful about a provider the server cannot reach. */
export function usingLabel(answerer: Answerer): string {
  const name = aiPlatformNames[answerer.platform];
  return usesBuiltin(answerer) ? `Using: ${name} (${builtinName})` : `Using: ${name}`;
}

/** docs/PRODUCT.md, AI chat: with the OpenAI platform a model label is shown; null for other platforms. */
export function modelLabel(answerer: Answerer, topic: ChatTopic): string | null {
  if (answerer.platform !== 'openai') return null;
  return usesBuiltin(answerer) ? builtinName : openAiModelLabels[topic];
}

const providerNames: Record<NonNullable<ConversationMessage['provider']>, string> = {
  openai: 'OpenAI',
  vertexai: 'VertexAI',
  builtin: 'Built-in analyst',
};

/** Who really answered a stored message, as the server recorded it (e.g. 'OpenAI · gpt-4o-2024-08-06'). */
export function answeredBy(message: Pick<ConversationMessage, 'provider' | 'model'>): string | null {
  if (!message.provider) return null;
  const name = providerNames[message.provider];
  return message.provider !== 'builtin' && message.model ? `${name} · ${message.model}` : name;
}
