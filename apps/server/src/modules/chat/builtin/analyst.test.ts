import { describe, expect, it } from 'vitest';
import type { Attachment, ChatTopic, TradeItem } from '@pipsense/contract';
import { createChatTools, type ToolContext } from '../tools/chat-tools';
import {
  DEMO_ACCOUNTS,
  DEMO_TRADES,
  FIXTURE_NOW,
  fixtureCandles,
  fixtureChatData,
  LIVE_TRADES,
} from '../../../test/chat-fixture-data';
import { createBuiltinAnalyst } from './analyst';

/*
 * Every expected number is computed here from the fixture trades, independently of the tools: in
 * ten-thousandths (OANDA's P/L precision), then shown as the answers show money (2 decimals, grouped).
 */
const units = (decimal: string) => Math.round(Number(decimal) * 10_000);
const money = (tenThousandths: number) =>
  (tenThousandths / 10_000).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const signed = (tenThousandths: number) => `${tenThousandths > 0 ? '+' : ''}${money(tenThousandths)} USD`;
const plOf = (t: TradeItem) => units(t.realizedPL) + units(t.unrealizedPL ?? '0');
const day = (iso: string | null) => iso?.slice(0, 10);
const time = (t: TradeItem) => (t.state === 'CLOSED' ? t.closeTime! : t.openTime);

function setup(connectedMode: 'demo' | 'live' | null = 'demo') {
  const { data, candleRequests } = fixtureChatData({ connectedMode });
  const analyst = createBuiltinAnalyst(createChatTools(data));
  const ask = (topic: ChatTopic, message: string, over: Partial<ToolContext> = {}) =>
    analyst.answer(topic, message, {
      userId: 'u1',
      mode: 'demo',
      instrument: 'USD_JPY',
      granularity: 'M5',
      timeZone: 'UTC',
      now: FIXTURE_NOW,
      ...over,
    });
  return { ask, candleRequests };
}

/** The numbered lines of an answer, in order. */
const listed = (text: string) => [...text.matchAll(/^\d+\. #(\d+) /gm)].map((m) => m[1]);
const tableIds = (attachments: Attachment[]) =>
  attachments.flatMap((a) => (a.type === 'trades' ? a.rows.map((r) => r.tradeId) : []));

describe('the built-in analyst: trading', () => {
  it('"Show my open trades" lists every open trade, newest first, with their total, from OANDA', async () => {
    const { ask } = setup();
    const open = DEMO_TRADES.filter((t) => t.state === 'OPEN').sort((a, b) => b.openTime.localeCompare(a.openTime));
    const { text, attachments } = await ask('trading', 'Show my open trades');
    expect(text).toContain(`You have ${open.length} open trades in demo mode.`);
    expect(listed(text)).toEqual(open.map((t) => t.tradeId));
    for (const t of open) expect(text).toContain(`P/L ${signed(plOf(t))}`);
    const total = open.reduce((s, t) => s + plOf(t), 0);
    expect(text).toContain(`Total P/L of all ${open.length}: ${signed(total)}`);
    expect(text).toContain('open trades from OANDA just now');
    expect(tableIds(attachments)).toEqual(open.map((t) => t.tradeId));
  });

  it('"What were my top 3 winners today?" ranks today\'s winning closed trades by P/L', async () => {
    const { ask } = setup();
    const winners = DEMO_TRADES.filter(
      (t) => t.state === 'CLOSED' && day(t.closeTime) === '2025-03-14' && plOf(t) > 0,
    ).sort((a, b) => plOf(b) - plOf(a));
    expect(winners.length).toBeGreaterThan(3);
    const { text, attachments } = await ask('trading', 'What were my top 3 winners today?');
    expect(text).toContain(`Found ${winners.length} winning trades in demo mode today (2025-03-14).`);
    expect(text).toContain('The top 3 by P/L:');
    expect(listed(text)).toEqual(winners.slice(0, 3).map((t) => t.tradeId));
    for (const t of winners.slice(0, 3)) expect(text).toContain(`P/L ${signed(plOf(t))}`);
    expect(text).toContain(`Total P/L of all ${winners.length}: ${signed(winners.reduce((s, t) => s + plOf(t), 0))}`);
    expect(tableIds(attachments)).toEqual(winners.slice(0, 3).map((t) => t.tradeId));
  });

  it('"List all trades with stop-loss orders" lists every such trade, open and closed', async () => {
    const { ask } = setup();
    const withStop = DEMO_TRADES.filter((t) => t.stopLossPrice !== null).sort((a, b) => time(b).localeCompare(time(a)));
    const { text } = await ask('trading', 'List all trades with stop-loss orders');
    expect(text).toContain(`Found ${withStop.length} trades with a stop-loss order in demo mode.`);
    expect(listed(text)).toEqual(withStop.map((t) => t.tradeId));
    for (const t of withStop)
      expect(text).toMatch(new RegExp(`#${t.tradeId} .*stop loss ${t.stopLossPrice!.replace('.', '\\.')}`));
    expect(text).toContain(`Total P/L of all ${withStop.length}: ${signed(withStop.reduce((s, t) => s + plOf(t), 0))}`);
  });

  it('"top 5 losers this week" ranks this week\'s losing trades from the worst', async () => {
    const { ask } = setup();
    const losers = DEMO_TRADES.filter((t) => t.state === 'CLOSED' && t.closeTime! >= '2025-03-10' && plOf(t) < 0).sort(
      (a, b) => plOf(a) - plOf(b),
    );
    const { text } = await ask('trading', 'top 5 losers this week');
    expect(text).toContain(`Found ${losers.length} losing trades in demo mode this week (since Monday 2025-03-10).`);
    expect(listed(text)).toEqual(losers.slice(0, 5).map((t) => t.tradeId));
    expect(text).toContain(`P/L ${signed(plOf(losers[0]!))}`);
  });

  it('reads instruments, periods and missing orders in other words', async () => {
    const { ask } = setup();
    const lastWeekEur = DEMO_TRADES.filter(
      (t) =>
        t.instrument === 'EUR_USD' &&
        t.state === 'CLOSED' &&
        t.closeTime! >= '2025-03-03' &&
        t.closeTime! < '2025-03-10',
    );
    const a = await ask('trading', 'closed eurusd trades last week');
    expect(listed(a.text)).toEqual(lastWeekEur.map((t) => t.tradeId));
    expect(a.text).toContain('last week (2025-03-03 to 2025-03-09)');

    const noStop = DEMO_TRADES.filter((t) => t.stopLossPrice === null).sort((x, y) => time(y).localeCompare(time(x)));
    const b = await ask('trading', 'which trades have no stop loss?');
    expect(b.text).toContain(`Found ${noStop.length} trades without a stop-loss order in demo mode.`);
    expect(listed(b.text)).toEqual(noStop.map((t) => t.tradeId));

    const bestTwoFeb = DEMO_TRADES.filter((t) => day(t.closeTime)?.startsWith('2025-02') && plOf(t) > 0)
      .sort((x, y) => plOf(y) - plOf(x))
      .slice(0, 2);
    const c = await ask('trading', 'my two best trades from 2025-02-01 to 2025-02-28');
    expect(listed(c.text)).toEqual(bestTwoFeb.map((t) => t.tradeId));
  });

  it('answers performance questions in a trading chat from the closed trades of the period', async () => {
    const { ask } = setup();
    const lastSeven = DEMO_TRADES.filter((t) => t.state === 'CLOSED' && t.closeTime! >= '2025-03-08');
    const wins = lastSeven.filter((t) => plOf(t) > 0).length;
    const losses = lastSeven.filter((t) => plOf(t) < 0).length;
    const even = lastSeven.length - wins - losses;
    expect(even).toBe(1);
    const { text } = await ask('trading', 'How did I do in the last 7 days?');
    expect(text).toContain(`${lastSeven.length} closed trades: ${wins} wins, ${losses} losses, ${even} break-even;`);
    expect(text).toContain(`Net P/L ${signed(lastSeven.reduce((s, t) => s + plOf(t), 0))}`);
  });

  it('counts "today" in the trader\'s time zone', async () => {
    const { ask } = setup();
    // 15:00 UTC on 14 March is already midnight of 15 March in Tokyo: nothing closed there "today" yet.
    const { text } = await ask('trading', 'What were my top 3 winners today?', { timeZone: 'Asia/Tokyo' });
    expect(text).toContain('Found no winning trades in demo mode today (2025-03-15).');
  });

  it('reads the mode asked for: live trades in live mode, from the last sync when OANDA is set up for demo', async () => {
    const { ask } = setup('demo');
    const { text } = await ask('trading', 'Show my open trades', { mode: 'live' });
    const open = LIVE_TRADES.filter((t) => t.state === 'OPEN');
    expect(listed(text)).toEqual(open.map((t) => t.tradeId));
    expect(text).toContain('in live mode');
    expect(text).toContain('open trades from your last sync at 2025-03-14 14:30 UTC');
    for (const t of DEMO_TRADES) expect(text).not.toContain(`#${t.tradeId} `);
  });

  it('says plainly what it can answer, and points to the right topic', async () => {
    const { ask } = setup();
    const unknown = await ask('trading', 'Tell me a joke about pips');
    expect(unknown.text).toContain('I did not understand that question.');
    expect(unknown.text).toContain('Show my open trades');
    expect(unknown.attachments).toEqual([]);
    const elsewhere = await ask('trading', 'What is my margin?');
    expect(elsewhere.text).toContain('a question for the accounts topic');
  });
});

describe('the built-in analyst: accounts', () => {
  const demo = DEMO_ACCOUNTS[0]!;

  it('"What is my current account balance?" gives balance and NAV from OANDA', async () => {
    const { ask } = setup();
    const { text } = await ask('accounts', 'What is my current account balance?');
    expect(text).toContain(`Primary (${demo.oandaAccountId}): balance ${money(units(demo.balance!))} USD`);
    expect(text).toContain(`NAV ${money(units(demo.NAV!))} USD`);
    expect(text).toContain('from OANDA just now');
  });

  it('"Show last month performance" sums February\'s closed trades', async () => {
    const { ask } = setup();
    const feb = DEMO_TRADES.filter((t) => t.state === 'CLOSED' && day(t.closeTime)?.startsWith('2025-02'));
    const wins = feb.filter((t) => plOf(t) > 0);
    const net = feb.reduce((s, t) => s + plOf(t), 0);
    const financing = feb.reduce((s, t) => s + units(t.financing), 0);
    const best = [...feb].sort((a, b) => plOf(b) - plOf(a))[0]!;
    const worst = [...feb].sort((a, b) => plOf(a) - plOf(b))[0]!;
    const { text } = await ask('accounts', 'Show last month performance');
    expect(text).toContain('Performance last month (February 2025), demo mode:');
    expect(text).toContain(`${feb.length} closed trades: ${wins.length} wins, ${feb.length - wins.length} loss`);
    expect(text).toContain(`win rate ${((wins.length / feb.length) * 100).toFixed(1)}%`);
    expect(text).toContain(`Net P/L ${signed(net)}`);
    expect(text).toContain(`${signed(net + financing)} after financing`);
    expect(text).toContain(`Best trade: #${best.tradeId} EUR/USD ${signed(plOf(best))}`);
    expect(text).toContain(`Worst trade: #${worst.tradeId} USD/JPY ${signed(plOf(worst))}`);
  });

  it('"What is my margin utilization?" divides margin used by NAV', async () => {
    const { ask } = setup();
    const utilisation = ((Number(demo.marginUsed) / Number(demo.NAV)) * 100).toFixed(2);
    const { text } = await ask('accounts', 'What is my margin utilization?');
    expect(text).toContain(
      `margin utilisation ${utilisation}%: margin used ${money(units(demo.marginUsed!))} USD of NAV ${money(units(demo.NAV!))} USD; margin available ${money(units(demo.marginAvailable!))} USD`,
    );
  });

  it('answers NAV, unrealized P/L and win-rate variations', async () => {
    const { ask } = setup();
    expect((await ask('accounts', "what's my equity")).text).toContain(`NAV ${money(units(demo.NAV!))} USD`);
    expect((await ask('accounts', 'floating P/L?')).text).toContain(
      `unrealized P/L ${money(units(demo.unrealizedPL!))} USD`,
    );
    const week = DEMO_TRADES.filter((t) => t.state === 'CLOSED' && t.closeTime! >= '2025-03-10');
    const rate = ((week.filter((t) => plOf(t) > 0).length / week.length) * 100).toFixed(1);
    expect((await ask('accounts', 'win rate this week')).text).toContain(`win rate ${rate}%`);
  });

  it('reads live accounts in live mode', async () => {
    const { ask } = setup('live');
    const { text } = await ask('accounts', 'What is my current account balance?', { mode: 'live' });
    expect(text).toContain('Real money');
    expect(text).toContain('balance 5,230.10 USD');
    expect(text).not.toContain('Primary');
  });
});

describe('the built-in analyst: candles', () => {
  const cases: Array<[string, string, string, string]> = [
    ['Get 5-minute candles for EUR/USD', 'EUR_USD', 'M5', 'EUR/USD 5-minute candles'],
    ['Fetch hourly candles for GBP/USD', 'GBP_USD', 'H1', 'GBP/USD hourly candles'],
    ['Show daily candles for USD/JPY', 'USD_JPY', 'D', 'USD/JPY daily candles'],
    ['candles for EUR/USD on the 15 minute chart', 'EUR_USD', 'M15', 'EUR/USD 15-minute candles'],
  ];

  it.each(cases)('"%s" fetches %s %s and describes them', async (message, instrument, granularity, title) => {
    // The screen has other choices selected: the message overrides them.
    const { ask, candleRequests } = setup();
    const { text, attachments } = await ask('candles', message, { instrument: 'GBP_USD', granularity: 'M1' });
    expect(candleRequests).toEqual([{ instrument, granularity, count: 100 }]);
    const bars = fixtureCandles(instrument, granularity, 100).candles.map((c) => c.mid!);
    const high = bars.map((b) => b.h).reduce((m, h) => (Number(h) > Number(m) ? h : m));
    const low = bars.map((b) => b.l).reduce((m, l) => (Number(l) < Number(m) ? l : m));
    expect(text).toContain(`${title}: the last 100`);
    expect(text).toContain(`Open ${bars[0]!.o}, last close ${bars[99]!.c}`);
    expect(text).toContain(`High ${high} at`);
    expect(text).toContain(`low ${low} at`);
    const places = instrument === 'USD_JPY' ? 3 : 5;
    expect(text).toContain(`range ${(Number(high) - Number(low)).toFixed(places)}`);
    expect(text).toContain('fetched from OANDA just now');
    expect(attachments).toEqual([{ type: 'candles', instrument, granularity, candles: expect.any(Array) }]);
  });

  it('uses the selected instrument and granularity when the message names none, and reads counts', async () => {
    const { ask, candleRequests } = setup();
    await ask('candles', 'show me the chart', { instrument: 'USD_JPY', granularity: 'M5' });
    await ask('candles', 'last 20 hourly candles for cable', { instrument: 'USD_JPY', granularity: 'M5' });
    expect(candleRequests).toEqual([
      { instrument: 'USD_JPY', granularity: 'M5', count: 100 },
      { instrument: 'GBP_USD', granularity: 'H1', count: 20 },
    ]);
  });
});
