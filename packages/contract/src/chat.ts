import { z } from 'zod';
import { envelope, MODES, timeZone as sharedTimeZone } from './common';
import { candle } from './trading';

export const CHAT_TOPICS = ['trading', 'accounts', 'candles'] as const;
export type ChatTopic = (typeof CHAT_TOPICS)[number];
export const CHAT_INSTRUMENTS = ['USD_JPY', 'EUR_USD', 'GBP_USD'] as const;
export const CHAT_GRANULARITIES = ['M1', 'M5', 'M15', 'H1', 'D'] as const;

const topic = z.enum(CHAT_TOPICS, { error: 'topic must be trading, accounts or candles' });
const chatId = z.string().trim().min(1, 'chatId is required.').max(64);

/** A chat title is trimmed and 1–100 characters. */
export const chatTitle = z
  .string({ error: 'Chat Title is required.' })
  .trim()
  .min(1, 'Chat Title is required.')
  .max(100, 'Chat Title must be at most 100 characters.');

const chat = z.object({
  _id: z.string(),
  title: z.string(),
  topic,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Chat = z.infer<typeof chat>;

export const getChatsQuery = z.object({ topic });
export const getChatsResponse = envelope.extend({ data: z.array(chat) });
export type GetChatsResponse = z.infer<typeof getChatsResponse>;
export const createChatBody = z.object({ title: chatTitle, topic });
export const editChatBody = z.object({ title: chatTitle });
export const chatIdParams = z.object({ chatId });
export const chatResponse = envelope.extend({ data: chat });

/** What an answer may carry for the UI to render beside its text. */
const attachment = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('candles'),
    instrument: z.string(),
    granularity: z.string(),
    /** OANDA's candles as fetched (mid prices), oldest first. */
    candles: z.array(candle),
  }),
  z.object({
    type: z.literal('trades'),
    title: z.string(),
    columns: z.array(z.object({ key: z.string(), label: z.string() })),
    rows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
  }),
]);
export type Attachment = z.infer<typeof attachment>;

const ANSWER_PROVIDERS = ['openai', 'vertexai', 'builtin'] as const;

/**
 * Where an answer stands. An answer runs on the server whether or not the page that asked is still open:
 * `streaming` while it is written (the content is the text so far, saved about twice a second), then `complete`,
 * `cancelled` (the trader pressed Stop; the content keeps what was written until then, or says the answer was
 * cancelled when nothing was, with `failed` true) or `failed` (the content explains why). Questions are always `complete`.
 */
export const ANSWER_STATUSES = ['streaming', 'complete', 'cancelled', 'failed'] as const;
export type AnswerStatus = (typeof ANSWER_STATUSES)[number];

const conversationMessage = z.object({
  _id: z.string(),
  chatId: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  createdAt: z.string(),
  /** Assistant messages: who answered, with which model, and what the answer carries. */
  provider: z.enum(ANSWER_PROVIDERS).nullable(),
  model: z.string().nullable(),
  attachments: z.array(attachment),
  /** True when the answer is an explanation of a failure rather than an answer. */
  failed: z.boolean(),
  status: z.enum(ANSWER_STATUSES),
});
export type ConversationMessage = z.infer<typeof conversationMessage>;
export const getConversationsResponse = envelope.extend({ conversations: z.array(conversationMessage) });
export type GetConversationsResponse = z.infer<typeof getConversationsResponse>;

const query = z
  .string({ error: 'query is required.' })
  .trim()
  .min(1, 'Type a message first.')
  .max(4000, 'A message can be at most 4000 characters.');
/**
 * Optional: the trader's IANA time zone (the browser's `Intl.DateTimeFormat().resolvedOptions().timeZone`),
 * so that "today" or "last week" mean the trader's calendar days and times read in local time. Default UTC.
 */
const timeZone = sharedTimeZone.optional();
/** The body of the trade and the account query calls alike. */
export const tradeQueryBody = z.object({
  query,
  chatId,
  mode: z.enum(MODES, { error: 'mode must be demo or live' }),
  timeZone,
});
export const candleQueryBody = z.object({
  query,
  chatId,
  timeZone,
  instrument: z.enum(CHAT_INSTRUMENTS, { error: 'instrument must be USD_JPY, EUR_USD or GBP_USD' }),
  granularity: z.enum(CHAT_GRANULARITIES, { error: 'granularity must be M1, M5, M15, H1 or D' }),
});
export type TradeQueryBody = z.infer<typeof tradeQueryBody>;
export type CandleQueryBody = z.infer<typeof candleQueryBody>;

/**
 * The answer of a query call, and of the Stop: the stored assistant message (after the Stop, the text written so
 * far; an answer already finished is returned as it is). With `Accept: text/event-stream` the same call
 * streams server-sent events instead: `delta` ({ text }) as the answer is written, then one `done` carrying this
 * body, or one `error` ({ message }).
 */
export const queryResponse = envelope.extend({ data: conversationMessage });
export type QueryResponse = z.infer<typeof queryResponse>;

/**
 * Streamed query calls send one `start` event first: the stored question and the answer being written (status
 * `streaming`), so the page can stop it (`POST /api/v1/query/cancel/{messageId}`) or find it again after a reload.
 */
export const answerStartEvent = z.object({ question: conversationMessage, answer: conversationMessage });
export type AnswerStartEvent = z.infer<typeof answerStartEvent>;

/** `POST /api/v1/query/cancel/{messageId}`: the trader's Stop. The answer keeps the text written so far. */
export const cancelAnswerParams = z.object({
  messageId: z.string().trim().min(1, 'messageId is required.').max(64),
});
