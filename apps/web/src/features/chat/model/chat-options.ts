import { GRANULARITY_LABELS } from '../../../components/charts/candle-series';
import {
  CHAT_GRANULARITIES,
  CHAT_INSTRUMENTS,
  CHAT_TOPICS,
  MODES,
  type ChatTopic,
  type Mode,
} from '@pipsense/contract';

export type Instrument = (typeof CHAT_INSTRUMENTS)[number];
export type Granularity = (typeof CHAT_GRANULARITIES)[number];

export const topics = CHAT_TOPICS;
export const modes = MODES;

/** docs/PRODUCT.md, Chat flow and Constants: the screen's state before anything is chosen. */
export const chatDefaults = {
  topic: 'trading',
  mode: 'demo',
  instrument: 'USD_JPY',
  granularity: 'M5',
} as const satisfies { topic: ChatTopic; mode: Mode; instrument: Instrument; granularity: Granularity };

/** OANDA names the pair with an underscore; traders read it with a slash. */
export const instrumentLabel = (instrument: string) => instrument.replace('_', '/');

export const instrumentOptions = CHAT_INSTRUMENTS.map((value) => ({ value, label: instrumentLabel(value) }));

/**
 * docs/PRODUCT.md, AI chat: M1 '1 Minute', M5 '5 Minutes', M15 '15 Minutes', H1 '1 Hour', D '1 Day' (the charts'
 * labels).
 */
export const granularityLabels = Object.fromEntries(
  CHAT_GRANULARITIES.map((value) => [value, GRANULARITY_LABELS[value]]),
) as Record<Granularity, string>;

export const granularityOptions = CHAT_GRANULARITIES.map((value) => ({ value, label: granularityLabels[value] }));

/** docs/PRODUCT.md, AI chat: three example prompts per topic, shown while a conversation is empty. */
export const examplePrompts: Record<ChatTopic, readonly [string, string, string]> = {
  trading: ['Show my open trades', 'What were my top 3 winners today?', 'List all trades with stop-loss orders'],
  accounts: ['What is my current account balance?', 'Show last month performance', 'What is my margin utilization?'],
  candles: ['Get 5-minute candles for EUR/USD', 'Fetch hourly candles for GBP/USD', 'Show daily candles for USD/JPY'],
};

/** The query endpoint that answers each topic (docs/PRODUCT.md, HTTP calls). */
export const queryPath: Record<ChatTopic, 'trade' | 'account' | 'candle'> = {
  trading: 'trade',
  accounts: 'account',
  candles: 'candle',
};
