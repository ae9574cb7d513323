import type { AiPlatformId } from '@pipsense/contract';

export interface TradingPlatform {
  /** Which modal the card opens: OANDA's form, MetaTrader's import, or the news that it is not available yet. */
  id: 'oanda' | 'metatrader' | 'tradingview';
  name: string;
  /** OANDA (synced through its API) and MetaTrader (imported reports) have data behind them. */
  available: boolean;
  mark: string;
  color: string;
  description: string;
}

export const tradingPlatforms: readonly TradingPlatform[] = [
  {
    id: 'oanda',
    name: 'OANDA',
    available: true,
    mark: 'OA',
    color: 'primary',
    description: 'Forex and CFD broker. PipSense syncs your trades and accounts through its v20 REST API.',
  },
  {
    id: 'metatrader',
    name: 'MetaTrader 4/5',
    available: true,
    mark: 'MT',
    color: 'info',
    description:
      'The MetaTrader 4 and 5 trading terminals. PipSense imports the account history report your terminal saves.',
  },
  {
    id: 'tradingview',
    name: 'TradingView',
    available: false,
    mark: 'TV',
    color: 'secondary',
    description: 'Charting and trading platform with broker integrations.',
  },
];

/** The two providers the server can run; their status comes from get_info's `providers`. */
type ProviderId = 'openai' | 'vertexai';

export interface AiPlatform {
  /** The `default_ai_platfrom` value this card stands for, when it can be one. */
  id: AiPlatformId | 'claudeai' | 'grokai';
  name: string;
  provider: ProviderId | null;
  mark: string;
  color: string;
  description: string;
}

export const aiPlatforms: readonly AiPlatform[] = [
  {
    id: 'openai',
    name: 'OpenAI',
    provider: 'openai',
    mark: 'OAI',
    color: 'success',
    description:
      "OpenAI's GPT models (or any OpenAI-compatible server your administrator sets, such as Ollama) answer your chat questions about trades, accounts and candles, with the numbers taken from your own data.",
  },
  {
    id: 'vertexai',
    name: 'VertexAI',
    provider: 'vertexai',
    mark: 'VX',
    color: 'info',
    description:
      "Google's Gemini models served through Vertex AI on Google Cloud answer the same chat questions, with the numbers taken from your own data.",
  },
  {
    id: 'gemini',
    name: 'Gemini',
    provider: null,
    mark: 'GM',
    color: 'secondary',
    description: "Google's Gemini models called directly through the Gemini API.",
  },
  {
    id: 'claudeai',
    name: 'ClaudeAI',
    provider: null,
    mark: 'CL',
    color: 'secondary',
    description: "Anthropic's Claude models.",
  },
  {
    id: 'grokai',
    name: 'GrokAI',
    provider: null,
    mark: 'GK',
    color: 'secondary',
    description: "xAI's Grok models.",
  },
];

/** The `default_trading_platfrom` label of MetaTrader (PLATFORM_TABLE). */
export const METATRADER_LABEL = 'MetaTrader';
