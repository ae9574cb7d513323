import type { ChatTopic } from '@pipsense/contract';
import type {
  AccountToolResult,
  CandlesToolResult,
  CompareTagsToolResult,
  PerformanceToolResult,
  TradesToolResult,
} from '../tools/chat-tools';
import type { AccountState } from '../tools/account-state';
import type { AccountFocus } from './intent';
import { plural } from '../../../lib/text';
import { money, pair, percent, pl, quantity, when } from './format';

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** 'today (2025-03-14)', 'from 2025-03-01 to 2025-03-10', 'in the last 7 days (…)'; '' for all time. */
function periodPhrase(p: { kind: string; label: string }): string {
  if (p.kind === 'all') return '';
  if (p.kind === 'last_n_days') return `in ${p.label}`;
  if (p.kind === 'range') {
    if (/^\d{4}-\d{2}-\d{2}$/.test(p.label)) return `on ${p.label}`;
    if (p.label.includes(' to ')) return `from ${p.label}`;
  }
  return p.label;
}

/** '5 winning trades on EUR/USD with a stop-loss order in demo mode today (2025-03-14)'. */
function describeTrades(r: TradesToolResult, count: number): string {
  const f = r.filters;
  const kind =
    f.outcome === 'winners' ? 'winning' : f.outcome === 'losers' ? 'losing' : f.state === 'all' ? '' : f.state;
  const parts = [`${count} ${kind ? `${kind} ` : ''}${count === 1 ? 'trade' : 'trades'}`];
  if (f.instrument) parts.push(`on ${pair(f.instrument)}`);
  const orders: string[] = [];
  if (f.stopLoss !== 'any') orders.push(`${f.stopLoss} a stop-loss order`);
  if (f.takeProfit !== 'any') orders.push(`${f.takeProfit} a take-profit order`);
  if (orders.length > 0) parts.push(orders.join(' and '));
  if (f.tags.length > 0) parts.push(`tagged ${f.tags.join(' or ')}`);
  parts.push(`in ${r.mode} mode`);
  const when = periodPhrase(r.period);
  if (when) parts.push(when);
  return parts.join(' ');
}

function tradeLine(index: number, t: TradesToolResult['trades'][number], timeZone: string): string {
  const open = t.state !== 'CLOSED';
  const pieces = [
    `${index}. #${t.tradeId} ${pair(t.instrument)} ${t.side} ${quantity(t.units)} units at ${t.openPrice ?? 'unknown price'}`,
    open
      ? `opened ${when(t.openTime, timeZone)}`
      : `closed ${when(t.closeTime, timeZone)}${t.closePrice ? ` at ${t.closePrice}` : ''}`,
    `P/L ${pl(t.pl, t.currency)}`,
  ];
  if (t.stopLoss) pieces.push(`stop loss ${t.stopLoss}`);
  if (t.takeProfit) pieces.push(`take profit ${t.takeProfit}`);
  if (t.tags.length > 0) pieces.push(`tags ${t.tags.join(', ')}`);
  if (t.rating !== null) pieces.push(`rated ${t.rating}/5`);
  const line = pieces.join(', ');
  return t.note ? `${line}\n   Note: ${oneLine(t.note)}` : line;
}

/** A note on one line, cut at 200 characters. */
function oneLine(note: string): string {
  const flat = note.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

export function tradesAnswer(r: TradesToolResult, timeZone: string): string {
  // Open trades are held now; anything else was found in the history.
  const lead = r.filters.state === 'open' && r.filters.outcome === 'any' ? 'You have' : 'Found';
  if (r.matched === 0)
    return [`${lead} ${describeTrades(r, 0).replace(/^0 /, 'no ')}.`, r.note ?? `Data: ${r.source}.`].join('\n');
  const ranked = r.filters.sort === 'pl_desc' || r.filters.sort === 'pl_asc';
  const lines = [`${lead} ${describeTrades(r, r.matched)}.`];
  if (r.shown < r.matched)
    lines.push(
      ranked
        ? `The top ${r.shown} by P/L:`
        : `The ${r.shown} ${r.filters.sort === 'oldest' ? 'oldest' : 'most recent'}:`,
    );
  else if (ranked && r.shown > 1) lines.push('By P/L:');
  r.trades.forEach((t, i) => lines.push(tradeLine(i + 1, t, timeZone)));
  const totals = r.totals.pl.map((p) => pl(p.amount, p.currency)).join(' and ');
  const scope = r.matched === 1 ? 'P/L' : `Total P/L of all ${r.matched}`;
  lines.push(`${scope}: ${totals} (${plural(r.totals.winners, 'winner')}, ${plural(r.totals.losers, 'loser')}).`);
  if (r.shown < r.matched && r.shown < 50) lines.push(`Ask for the "top ${Math.min(r.matched, 50)}" to see more.`);
  lines.push(`Data: ${r.source}.`);
  return lines.join('\n');
}

export function performanceAnswer(r: PerformanceToolResult, timeZone: string): string {
  const scope = `${r.mode} mode${r.instrument ? `, ${pair(r.instrument)}` : ''}`;
  const lines = [`Performance ${periodPhrase(r.period) || 'over all time'}, ${scope}:`];
  if (r.closedTrades === 0) {
    lines.push(`You closed no trades in this period.`);
    if (r.note) lines.push(r.note);
    lines.push(`Data: ${r.source}.`);
    return lines.join('\n');
  }
  for (const c of r.byCurrency) {
    const prefix = r.byCurrency.length > 1 ? `${c.currency ?? 'Unknown currency'} accounts: ` : '';
    lines.push(
      `${prefix}${plural(c.trades, 'closed trade')}: ${plural(c.wins, 'win')}, ${plural(c.losses, 'loss', 'losses')}${c.breakeven ? `, ${c.breakeven} break-even` : ''}; win rate ${percent(c.winRate, 1)}.`,
    );
    lines.push(
      `Net P/L ${pl(c.netPL, c.currency)} (gross profit ${money(c.grossProfit, c.currency)}, gross loss ${money(c.grossLoss, c.currency)}); financing ${money(c.financing, c.currency)}, so ${pl(c.netAfterFinancing, c.currency)} after financing.`,
    );
    if (c.profitFactor !== null)
      lines.push(
        `Profit factor ${c.profitFactor.toFixed(2)}; average ${pl(c.averagePL ?? '0', c.currency)} per trade.`,
      );
    else if (c.averagePL !== null) lines.push(`Average ${pl(c.averagePL, c.currency)} per trade.`);
    if (c.best)
      lines.push(
        `Best trade: #${c.best.tradeId} ${pair(c.best.instrument)} ${pl(c.best.realizedPL, c.currency)}, closed ${when(c.best.closeTime, timeZone)}.`,
      );
    if (c.worst && c.trades > 1)
      lines.push(
        `Worst trade: #${c.worst.tradeId} ${pair(c.worst.instrument)} ${pl(c.worst.realizedPL, c.currency)}, closed ${when(c.worst.closeTime, timeZone)}.`,
      );
  }
  lines.push(`Data: ${r.source}.`);
  return lines.join('\n');
}

const accountName = (a: AccountState) => (a.alias ? `${a.alias} (${a.accountId})` : a.accountId);

function accountLine(a: AccountState, focus: AccountFocus): string {
  const c = a.currency;
  switch (focus) {
    case 'balance':
      return `${accountName(a)}: balance ${money(a.balance, c)} (NAV ${money(a.NAV, c)}, unrealized P/L ${money(a.unrealizedPL, c)}).`;
    case 'nav':
      return `${accountName(a)}: NAV ${money(a.NAV, c)} (balance ${money(a.balance, c)} plus unrealized P/L ${money(a.unrealizedPL, c)}).`;
    case 'unrealized':
      return `${accountName(a)}: unrealized P/L ${money(a.unrealizedPL, c)} on ${plural(a.openTradeCount ?? 0, 'open trade')}.`;
    case 'margin':
      return `${accountName(a)}: margin utilisation ${percent(a.marginUtilisation)}: margin used ${money(a.marginUsed, c)} of NAV ${money(a.NAV, c)}; margin available ${money(a.marginAvailable, c)}${a.marginCloseoutPercent !== null ? `; margin closeout at ${percent(a.marginCloseoutPercent)} (positions are closed out at 100%)` : ''}.`;
    case 'overview':
      return `${accountName(a)}: balance ${money(a.balance, c)}, NAV ${money(a.NAV, c)}, unrealized P/L ${money(a.unrealizedPL, c)}, margin used ${money(a.marginUsed, c)}, margin available ${money(a.marginAvailable, c)}, utilisation ${percent(a.marginUtilisation)}, ${plural(a.openTradeCount ?? 0, 'open trade')}, ${plural(a.openPositionCount ?? 0, 'open position')}.`;
  }
}

const FOCUS_TITLE: Record<AccountFocus, string> = {
  balance: 'account balance',
  nav: 'net asset value (NAV)',
  unrealized: 'unrealized P/L',
  margin: 'margin utilisation (margin used as a share of NAV)',
  overview: 'accounts',
};

export function accountAnswer(r: AccountToolResult, focus: AccountFocus): string {
  if (r.accounts.length === 0) return [r.note ?? `No ${r.mode} account found.`, `Data: ${r.source}.`].join('\n');
  const lines = [`Your ${r.mode} ${FOCUS_TITLE[focus]}, ${r.source}:`];
  for (const a of r.accounts) lines.push(accountLine(a, focus));
  for (const t of r.totals) {
    if (t.accounts < 2) continue;
    const c = t.currency;
    const figure =
      focus === 'margin'
        ? `margin used ${money(t.marginUsed, c)} of NAV ${money(t.NAV, c)}, utilisation ${percent(t.marginUtilisation)}`
        : focus === 'unrealized'
          ? `unrealized P/L ${money(t.unrealizedPL, c)}`
          : `balance ${money(t.balance, c)}, NAV ${money(t.NAV, c)}`;
    lines.push(`Together (${t.accounts} ${c ?? ''} accounts): ${figure}.`.replace('  ', ' '));
  }
  return lines.join('\n');
}

export function candlesAnswer(r: CandlesToolResult, timeZone: string): string {
  const name = `${pair(r.instrument)} ${r.granularityName} candles`;
  if (r.count === 0 || r.open === null || r.close === null) return `OANDA returned no ${name}.`;
  const sign = r.change?.startsWith('-') ? '' : '+';
  const lines = [
    `${capitalise(name)}: the last ${r.count}, from ${when(r.firstTime, timeZone)} to ${when(r.lastTime, timeZone)}, fetched from OANDA just now.`,
    `Open ${r.open}, last close ${r.close}: change ${sign}${r.change} (${sign}${r.changePercent?.toFixed(3)}%).`,
    `High ${r.high} at ${when(r.highTime, timeZone)}, low ${r.low} at ${when(r.lowTime, timeZone)}; range ${r.range} (${r.rangePercent?.toFixed(3)}% of the low).`,
    `Average candle range ${r.averageCandleRange}; volatility ${r.volatilityPercent === null ? 'unknown (too few candles)' : `${r.volatilityPercent.toFixed(4)}%`} per candle (standard deviation of close-to-close changes).`,
    `${plural(r.upCandles, 'candle')} closed up and ${r.downCandles} down.`,
    'Latest candles (open / high / low / close):',
    ...r.recent.map(
      (b) =>
        `${when(b.time, timeZone)}: ${b.open} / ${b.high} / ${b.low} / ${b.close}${b.complete ? '' : ' (still forming)'}`,
    ),
  ];
  return lines.join('\n');
}

const EXAMPLES: Record<ChatTopic, string[]> = {
  trading: [
    'Show my open trades',
    'What were my top 3 winners today?',
    'List all trades with stop-loss orders',
    'Top 5 losers this week',
    'Closed EUR/USD trades last month',
    'How did I do in the last 30 days?',
  ],
  accounts: [
    'What is my current account balance?',
    'Show last month performance',
    'What is my margin utilization?',
    'What is my NAV?',
    'What is my unrealized P/L?',
    'Win rate this week',
  ],
  candles: [
    'Get 5-minute candles for EUR/USD',
    'Fetch hourly candles for GBP/USD',
    'Show daily candles for USD/JPY',
    'Last 50 candles for EUR/USD on the 15 minute chart',
  ],
};

const TOPIC_SCOPE: Record<ChatTopic, string> = {
  trading:
    'your trades (open or closed, by instrument and period, winners and losers, stop-loss and take-profit) and your results over a period',
  accounts:
    'your account balance, NAV, unrealized P/L, margin and margin utilisation, and your results over a period (net P/L, win rate, best and worst trade)',
  candles: 'price candles from OANDA (instrument, candle size and count) with their change, range and volatility',
};

export function helpAnswer(topic: ChatTopic, otherTopic?: ChatTopic): string {
  const lines: string[] = [];
  if (otherTopic)
    lines.push(
      `That sounds like a question for the ${otherTopic} topic: choose "${otherTopic}" under Select Topic and ask it there.`,
    );
  else lines.push('I did not understand that question.');
  lines.push(
    `I am the built-in analyst. In a ${topic} chat I can answer questions about ${TOPIC_SCOPE[topic]}. For example:`,
    ...EXAMPLES[topic].map((e) => `- ${e}`),
  );
  return lines.join('\n');
}

const KIND_NOUN: Record<string, string> = { setup: 'setup', mistake: 'mistake', emotion: 'emotion' };
const signed = (value: number) => `${value > 0 ? '+' : ''}${money(value.toFixed(2), null)}`;
const rText = (value: number | null) => (value === null ? 'no R (no initial stop)' : `average ${value.toFixed(2)}R`);

/**
 * "Which setup loses me the most?": the tags compared, ranked as asked (`rank` worst: lowest net P/L first; best:
 * highest first), from compare_tags.
 */
export function compareTagsAnswer(r: CompareTagsToolResult, rank: 'worst' | 'best' | 'all'): string {
  const noun = r.kind ? KIND_NOUN[r.kind]! : 'tag';
  const scope = [`${r.mode} mode`, ...(r.instrument ? [pair(r.instrument)] : []), periodPhrase(r.period)]
    .filter(Boolean)
    .join(', ');
  const used = r.tags.filter((t) => t.trades > 0);
  if (used.length === 0) {
    const why = r.note ?? `No closed trade carries a ${noun} tag (${scope}).`;
    return [why, `Data: ${r.source}.`].join('\n');
  }
  const ranked =
    rank === 'all' ? used : [...used].sort((a, b) => (rank === 'worst' ? a.netPL - b.netPL : b.netPL - a.netPL));
  const lines: string[] = [];
  const top = ranked[0]!;
  if (rank === 'worst')
    lines.push(
      top.netPL < 0
        ? `The ${noun} that loses you the most is "${top.name}": ${signed(top.netPL)} over ${plural(top.trades, 'closed trade')} (${scope}).`
        : `None of your ${noun}s lost money (${scope}); the weakest is "${top.name}" at ${signed(top.netPL)}.`,
    );
  else if (rank === 'best')
    lines.push(
      `Your best ${noun} is "${top.name}": ${signed(top.netPL)} over ${plural(top.trades, 'closed trade')} (${scope}).`,
    );
  else lines.push(`Your ${noun}s compared (${scope}):`);
  ranked.forEach((t, i) =>
    lines.push(
      `${i + 1}. ${t.name} (${t.kind}): ${plural(t.trades, 'trade')}, win rate ${percent(t.winRate, 1)}, net P/L ${signed(t.netPL)}, expectancy ${t.expectancy === null ? 'unknown' : signed(t.expectancy)} per trade, ${rText(t.averageR)}${t.averageR !== null ? ` over ${t.withInitialStop} with an initial stop` : ''}.`,
    ),
  );
  lines.push(`Data: ${r.source}.`);
  return lines.join('\n');
}
