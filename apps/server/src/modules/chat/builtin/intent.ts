import type { ChatTopic } from '@pipsense/contract';
import type {
  AccountArgs,
  CandleArgs,
  CompareTagsArgs,
  PatternsArgs,
  PerformanceArgs,
  TradesArgs,
} from '../tools/chat-tools';
import { MAX_TOP } from '../tools/trade-query';
import type { PeriodSpec } from '../tools/periods';
import { parseCandleCount, parseGranularity, parseInstrument } from './parse-market';
import { parsePeriod } from './parse-period';
import { COUNT, numberValue, TextScan } from './text-scan';

export type AccountFocus = 'balance' | 'nav' | 'margin' | 'unrealized' | 'overview';

export type Intent =
  | { kind: 'trades'; args: TradesArgs }
  | { kind: 'performance'; args: PerformanceArgs }
  | { kind: 'compareTags'; args: CompareTagsArgs; rank: 'worst' | 'best' | 'all' }
  | { kind: 'account'; args: AccountArgs; focus: AccountFocus }
  | { kind: 'candles'; args: CandleArgs }
  /** docs/rules.md, The assistant: today's loss room, a challenge's standing, the rules broken most. */
  | { kind: 'ruleToday' }
  | { kind: 'ruleTrack'; firm?: string }
  | { kind: 'ruleBreaks' }
  /** docs/coach.md, The assistant: what to work on, why a trade went as it did, the weekly review. */
  | { kind: 'coachFocus'; args: PatternsArgs }
  | { kind: 'tradeWhy'; args: TradesArgs }
  | { kind: 'weeklyReview'; week?: string }
  | { kind: 'help'; otherTopic?: ChatTopic };

const PERFORMANCE =
  /\b(?:performance|performed|perform|win ?rate|winning rate|hit rate|how (?:did|have|am) i (?:do|done|doing)|results?|profit factor|net p ?(?:\/|&|n) ?l|p ?(?:\/|&|n) ?l|pnl|net profit|profit|earn(?:ed|ings)?|made|summary|stats|statistics|best trade|worst trade)\b/;
const ACCOUNT_WORDS = /\b(?:balance|nav|equity|margin|utili[sz]ation|leverage|account|accounts|funds|cash)\b/;
const CANDLE_WORDS = /\b(?:candles?|candlesticks?|ohlc|chart)\b/;
const TRADE_WORDS =
  /\b(?:trades?|positions?|winners?|losers?|orders?|stop[- ]?loss(?:es)?|take[- ]?profits?|deals?|opened|closed)\b/;

const RULE_WORDS = /\brules?\b|\brule sets?\b|\bdaily (?:loss|drawdown)\b|\bmax(?:imum)? (?:loss|drawdown)\b/;
const BREAK_WORDS = /\b(?:break|breaks|broke|broken|breaking|violat(?:e|es|ed|ing|ions?)|breach(?:es|ed|ing)?)\b/;
/** "How much can I still lose today?", "what's my daily loss room?", "how far am I from the daily limit?" */
function asksTodayRoom(text: string): boolean {
  if (/\bhow much (?:more )?(?:can|could|may) i (?:still )?(?:lose|risk|draw ?down)\b/.test(text)) return true;
  if (/\bleft to lose\b/.test(text)) return true;
  const loss = /\b(?:lose|loss|losses|losing|drawdown|dd)\b/.test(text);
  const room = /\b(?:room|left|remaining|allowance|budget|headroom|buffer|cushion|limit|floor|far|close)\b/.test(text);
  const today = /\b(?:today|today's|daily|this session)\b/.test(text);
  return loss && room && today;
}
const FIRMS = /\b(ftmo|the ?5ers|fundednext|funded next|funding ?pips|topstep)\b/;
/** "Am I on track for my FTMO challenge?", "how is my challenge going?", "did I pass?", "status of my rules". */
const TRACK =
  /\bon track\b|\bchallenge\b|\bevaluation\b|\bverification\b|\bprop(?:[- ]?firm)?\b|\b(?:did|have|will) i pass\b|\bpass(?:ing)? (?:the|my)\b|\b(?:status|standing|progress) of my rules?\b|\bmy rules?\b|\brule sets?\b/;

/** The rules questions, asked in a trading or an accounts chat (docs/rules.md, The assistant). */
function rulesIntent(scan: TextScan): Intent | undefined {
  const text = scan.remaining;
  if (BREAK_WORDS.test(text) && RULE_WORDS.test(text)) return { kind: 'ruleBreaks' };
  if (asksTodayRoom(text)) return { kind: 'ruleToday' };
  const firm = FIRMS.exec(text)?.[1];
  if (TRACK.test(text) || firm) return { kind: 'ruleTrack', ...(firm ? { firm: firm.replace(/\s/g, '') } : {}) };
  return undefined;
}

/** "What should I work on?", "my bad habits", "do I revenge trade?": the patterns, over the last 90 days by default. */
const FOCUS =
  /\bwhat (?:should|do|can) i (?:work on|focus on|improve|fix|change|do better)\b|\bwhat (?:am i|do i) (?:do(?:ing)? )?wrong\b|\b(?:my|bad|trading) habits?\b|\b(?:my|behaviou?r(?:al)?) patterns?\b|\b(?:do|did|am) i (?:revenge|over) ?trad(?:e|ing)\b/;
const WEEKLY = /\bweekly review\b|\bhow (?:was|did) my (?:last )?week\b/;
const ISO_WEEK = /\b(\d{4})-w(\d{2})\b/i;
const WHY = /\bwhy (?:did|was|is|has)\b/;

/** The coach's questions (docs/coach.md, The assistant); a question naming a tag stays a trades question. */
function coachIntent(scan: TextScan, now: Date): Intent | undefined {
  const text = scan.remaining;
  const week = ISO_WEEK.exec(text);
  if (WEEKLY.test(text) || week) return { kind: 'weeklyReview', ...(week ? { week: `${week[1]}-W${week[2]}` } : {}) };
  if (WHY.test(text) && (TRADE_WORDS.test(text) || /\b(?:lose|lost|win|won|fail)\b/.test(text))) {
    const period = parsePeriod(scan, now);
    const instrument = parseInstrument(scan);
    const lost = /\b(?:lose|lost|losing|loss|fail(?:ed)?)\b/.test(text);
    const won = /\b(?:win|won|winning|work(?:ed)?)\b/.test(text);
    return {
      kind: 'tradeWhy',
      args: {
        state: 'closed',
        ...(instrument ? { instrument } : {}),
        ...periodArgs(period),
        outcome: lost && !won ? 'losers' : won && !lost ? 'winners' : 'any',
        sort: 'newest',
        limit: 1,
      },
    };
  }
  if (FOCUS.test(text)) {
    const period = parsePeriod(scan, now);
    return { kind: 'coachFocus', args: period ? periodArgs(period) : { period: 'last_n_days', days: 90 } };
  }
  return undefined;
}

function periodArgs(period: PeriodSpec | undefined) {
  if (!period) return {};
  return {
    period: period.kind,
    ...(period.days !== undefined ? { days: period.days } : {}),
    ...(period.weekday !== undefined ? { weekday: period.weekday } : {}),
    ...(period.from !== undefined ? { from: period.from } : {}),
    ...(period.to !== undefined ? { to: period.to } : {}),
  };
}

function presence(scan: TextScan, noun: string): 'with' | 'without' | undefined {
  if (scan.take(new RegExp(`\\b(?:without|no|missing|lacking|w/o|not having|with no)(?: an?| any)? (?:${noun})\\b`)))
    return 'without';
  if (scan.take(new RegExp(`\\b(?:${noun})\\b`))) return 'with';
  return undefined;
}

/** "tagged FOMO", "tagged as #late-entry", "with the tag Breakout", "#FOMO": the tag name. */
function parseTag(scan: TextScan): string | undefined {
  const m =
    scan.take(/\b(?:tagged|labell?ed|marked)(?: as| with)?\s+#?([\p{L}\p{N}_-]+)/u) ??
    scan.take(/\bwith (?:the |a )?tag\s+#?([\p{L}\p{N}_-]+)/u) ??
    scan.take(/(?:^|\s)#([\p{L}\p{N}_-]+)/u);
  return m?.[1];
}

const TAG_NOUNS = /\b(setups?|strateg(?:y|ies)|mistakes?|errors?|emotions?|feelings?|tags?)\b/;

/** "Which setup loses me the most?", "what do my mistakes cost?", "compare my setups", "my best strategy". */
function compareTagsIntent(scan: TextScan, now: Date): Intent | undefined {
  const noun = TAG_NOUNS.exec(scan.remaining)?.[1];
  if (!noun) return undefined;
  const worst = scan.has(/\b(?:lose|loses|losing|lost|cost|costs|costing|worst|weakest|hurts?|bleeds?)\b/);
  const best = scan.has(/\b(?:best|pays?|paying|profitable|makes? (?:me )?(?:the )?most|works?|strongest)\b/);
  const compare = scan.has(/\b(?:compare|comparison|which|what|how|breakdown|by)\b/);
  if (!worst && !best && !compare) return undefined;
  scan.take(TAG_NOUNS);
  const period = parsePeriod(scan, now);
  const instrument = parseInstrument(scan);
  const kind = /^(?:setup|strateg)/.test(noun)
    ? 'setup'
    : /^(?:mistake|error)/.test(noun)
      ? 'mistake'
      : /^(?:emotion|feeling)/.test(noun)
        ? 'emotion'
        : undefined;
  return {
    kind: 'compareTags',
    args: { ...periodArgs(period), ...(instrument ? { instrument } : {}), ...(kind ? { kind } : {}) },
    rank: worst && !best ? 'worst' : best && !worst ? 'best' : worst ? 'worst' : 'all',
  };
}

function tradingIntent(scan: TextScan, now: Date): Intent {
  const tag = parseTag(scan);
  if (!tag) {
    const comparison = compareTagsIntent(scan, now);
    if (comparison) return comparison;
  }
  const period = parsePeriod(scan, now);
  const instrument = parseInstrument(scan);
  const stopLoss = presence(scan, 'stop[- ]?loss(?:es)?(?: orders?)?|sl|stops?(?: orders?)?');
  const takeProfit = presence(scan, 'take[- ]?profits?(?: orders?)?|tp|profit targets?|targets?');

  const winners = scan.has(/\b(?:winners?|winning|wins|won|best|profitable|gainers?|biggest (?:wins|gains))\b/);
  const losers = scan.has(/\b(?:losers?|losing|losses|lost|worst|unprofitable|biggest loss(?:es)?)\b/);
  const outcome = winners && !losers ? 'winners' : losers && !winners ? 'losers' : 'any';

  let top =
    numberValue(scan.take(new RegExp(`\\b(?:top|best|worst|first|biggest|largest) ${COUNT}\\b`))?.[1]) ??
    numberValue(
      scan.take(
        new RegExp(`\\b${COUNT} (?:best|worst|biggest|largest|top|most|winners?|losers?|winning|losing)\\b`),
      )?.[1],
    ) ??
    numberValue(scan.take(new RegExp(`\\b(?:last|latest|recent) ${COUNT}\\b`))?.[1]);
  if (top === undefined && scan.has(/\b(?:all|every|each)\b/)) top = MAX_TOP;

  const open = scan.has(/\b(?:open|running|active|floating)\b|\bcurrent(?:ly)? (?:trades|positions)\b|\bpositions\b/);
  const closed = scan.has(/\b(?:closed|close|history|historical|past trades|finished|completed|realized|realised)\b/);
  const state = open && !closed ? 'open' : closed && !open ? 'closed' : outcome !== 'any' ? 'closed' : 'all';

  const wantsList =
    scan.has(/\b(?:list|show|which|what (?:are|were) (?:my|the) (?:trades|positions))\b/) || top !== undefined;
  if (scan.has(PERFORMANCE) && !wantsList && outcome === 'any' && !stopLoss && !takeProfit && !tag)
    return { kind: 'performance', args: { ...periodArgs(period), ...(instrument ? { instrument } : {}) } };

  const understood =
    tag !== undefined ||
    scan.has(TRADE_WORDS) ||
    open ||
    closed ||
    outcome !== 'any' ||
    stopLoss ||
    takeProfit ||
    instrument ||
    period ||
    top !== undefined;
  if (!understood) return help(scan, 'trading');

  const sort =
    outcome === 'winners'
      ? 'pl_desc'
      : outcome === 'losers'
        ? 'pl_asc'
        : scan.has(/\b(?:most profitable|biggest (?:profit|gain)s?|by (?:p\/?l|profit))\b/)
          ? 'pl_desc'
          : scan.has(/\boldest\b|\bfirst\b/)
            ? 'oldest'
            : 'newest';
  return {
    kind: 'trades',
    args: {
      state,
      ...(instrument ? { instrument } : {}),
      ...periodArgs(period),
      outcome,
      stop_loss: stopLoss ?? 'any',
      take_profit: takeProfit ?? 'any',
      ...(tag ? { tag: [tag] } : {}),
      sort,
      limit: Math.min(Math.max(top ?? 10, 1), MAX_TOP),
    },
  };
}

function accountsIntent(scan: TextScan, now: Date): Intent {
  const period = parsePeriod(scan, now);
  const account = /\b(\d{3}-\d{3}-\d+-\d{3})\b/.exec(scan.remaining)?.[1];
  const args: AccountArgs = account ? { account_id: account } : {};
  if (scan.has(/\b(?:unreali[sz]ed|floating|open p ?\/? ?l|open profit)\b/))
    return { kind: 'account', args, focus: 'unrealized' };
  if (scan.has(/\b(?:margin|utili[sz]ation|leverage|exposure)\b/)) return { kind: 'account', args, focus: 'margin' };
  if (period || scan.has(PERFORMANCE) || scan.has(/\btrades?\b/)) {
    const instrument = parseInstrument(scan);
    return { kind: 'performance', args: { ...periodArgs(period), ...(instrument ? { instrument } : {}) } };
  }
  if (scan.has(/\b(?:balance|cash|funds|deposit)\b/)) return { kind: 'account', args, focus: 'balance' };
  if (scan.has(/\b(?:nav|net asset value|equity|worth)\b/)) return { kind: 'account', args, focus: 'nav' };
  if (scan.has(/\b(?:accounts?|summary|overview|status|state)\b/)) return { kind: 'account', args, focus: 'overview' };
  return help(scan, 'accounts');
}

function candlesIntent(scan: TextScan): Intent {
  const granularity = parseGranularity(scan);
  const count = parseCandleCount(scan);
  const instrument = parseInstrument(scan);
  const understood =
    instrument ||
    granularity ||
    count ||
    scan.has(
      /\b(?:candles?|candlesticks?|chart|prices?|bars?|ohlc|quotes?|volatility|range|high|low|trend|moves?|moved|change|market|rate)\b/,
    );
  if (!understood) return help(scan, 'candles');
  return {
    kind: 'candles',
    args: {
      ...(instrument ? { instrument } : {}),
      ...(granularity ? { granularity } : {}),
      ...(count ? { count } : {}),
    },
  };
}

/** Points to the topic a question belongs to when it is not this one's. */
function help(scan: TextScan, topic: ChatTopic): Intent {
  const text = scan.remaining;
  if (topic !== 'candles' && CANDLE_WORDS.test(text)) return { kind: 'help', otherTopic: 'candles' };
  if (topic !== 'accounts' && ACCOUNT_WORDS.test(text)) return { kind: 'help', otherTopic: 'accounts' };
  if (topic !== 'trading' && TRADE_WORDS.test(text)) return { kind: 'help', otherTopic: 'trading' };
  return { kind: 'help' };
}

/** What the trader asks for, read without a language model: the topic decides which questions apply. */
export function parseIntent(topic: ChatTopic, message: string, now: Date): Intent {
  const scan = new TextScan(message);
  if (topic !== 'candles') {
    const rules = rulesIntent(scan);
    if (rules) return rules;
  }
  switch (topic) {
    case 'trading':
      return coachIntent(scan, now) ?? tradingIntent(scan, now);
    case 'accounts':
      return accountsIntent(scan, now);
    case 'candles':
      return candlesIntent(scan);
  }
}
