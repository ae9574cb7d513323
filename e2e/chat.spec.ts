import { expect, test, type Locator, type Page } from '@playwright/test';
import type { GetChatsResponse, GetConversationsResponse, TradeItem } from '@pipsense/contract';
import { simControl } from './stack/stack-client';
import { readStackFacts, type StackFacts } from './stack/stack-facts';
import {
  allTradesByApi,
  apiAs,
  canvasPainted,
  fakeLlmControl,
  SHOTS,
  syncedOandaUser,
  toast,
  VIEWPORTS,
} from './support';

/*
 * The AI chat end to end (docs/PRODUCT.md, AI chat and Chat flow): the built app in Chromium against the OANDA
 * simulator and the fake OpenAI of e2e/stack. Expected numbers come from the trades API and the simulator, never from
 * the answer.
 */

const CHAT_PAGE = '/chat/ai_chat';
const PROMPTS = {
  trading: ['Show my open trades', 'What were my top 3 winners today?', 'List all trades with stop-loss orders'],
  accounts: ['What is my current account balance?', 'Show last month performance', 'What is my margin utilization?'],
  candles: ['Get 5-minute candles for EUR/USD', 'Fetch hourly candles for GBP/USD', 'Show daily candles for USD/JPY'],
} as const;
const NO_CHATS = 'No chats on this topic yet. Start one with + New.';
const FROM_OANDA = 'Data: open trades from OANDA just now.';

function chatScreen(page: Page) {
  const log = page.getByRole('log', { name: 'Conversation' });
  return {
    breadcrumb: page.getByRole('navigation', { name: 'breadcrumb' }),
    topic: (name: string) =>
      page.getByRole('group', { name: 'Select Topic' }).getByRole('radio', { name, exact: true }),
    modeGroup: page.getByRole('group', { name: 'Select Mode' }),
    mode: (name: string) => page.getByRole('group', { name: 'Select Mode' }).getByRole('radio', { name, exact: true }),
    /** The list exists only while the topic has chats; the panel around it always does. */
    panel: page.getByRole('region', { name: 'Chats' }),
    chats: page.getByRole('list', { name: 'Chats' }).getByRole('listitem'),
    selectedChat: page.getByRole('list', { name: 'Chats' }).locator('button[aria-current="true"]'),
    log,
    userMessages: log.locator('[data-role="user"]'),
    /** What the user wrote, without the time under it. */
    userTexts: log.locator('[data-role="user"] .chat-text'),
    answers: log.locator('[data-role="assistant"]'),
    input: page.getByPlaceholder('Ask AI'),
    send: page.getByRole('button', { name: 'Send message' }),
    modelLabel: page.getByTitle('The model that answers'),
    newChat: page.getByRole('button', { name: '+ New' }),
  };
}

type ChatScreen = ReturnType<typeof chatScreen>;

/** '+ New', the modal, Create: the spec's toast, and the new chat is the selected one. */
async function createChatInUi(page: Page, screen: ChatScreen, title: string) {
  await screen.newChat.click();
  const modal = page.getByRole('dialog', { name: 'Start a New Chat' });
  await expect(modal.getByLabel('Chat Title')).toHaveAttribute('placeholder', 'Enter chat title');
  await modal.getByLabel('Chat Title').fill(title);
  await modal.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page, 'Chat created successfully!')).toBeVisible();
  await expect(modal).toBeHidden();
  await expect(screen.selectedChat).toHaveText(title);
}

/** The example prompts of a topic under the empty-state line, as buttons. */
async function expectEmptyState(screen: ChatScreen, prompts: readonly string[]) {
  await expect(screen.log.getByText('No messages yet. Try one of these:')).toBeVisible();
  const buttons = screen.log.getByRole('button');
  await expect(buttons).toHaveText([...prompts]);
}

/** Where a bubble sits in the conversation: against the right edge (the user) or the left edge (the assistant). */
async function expectAligned(log: Locator, bubble: Locator, side: 'left' | 'right') {
  const area = await log.boundingBox();
  const box = await bubble.boundingBox();
  expect(area && box, 'conversation and bubble are laid out').toBeTruthy();
  const gapLeft = box!.x - area!.x;
  const gapRight = area!.x + area!.width - (box!.x + box!.width);
  if (side === 'right') {
    expect(gapRight, 'a user message ends at the right edge').toBeLessThan(48);
    expect(gapLeft, 'a short user message does not start at the left edge').toBeGreaterThan(area!.width / 3);
  } else {
    expect(gapLeft, 'an answer starts at the left edge').toBeLessThan(48);
  }
}

/** The text a bubble displays, lines kept (what a reader sees, not the DOM's text nodes). */
function shownText(bubble: Locator): Promise<string> {
  return bubble.locator('.chat-text').evaluate((el) => (el as HTMLElement).innerText);
}

/** Markdown markup that must not reach the screen: emphasis stars, code ticks, heading hashes, '-' bullets. */
function expectNoMarkdown(text: string) {
  expect(text).not.toContain('*');
  expect(text).not.toContain('`');
  expect(text).not.toMatch(/^\s*#{1,6}\s/m);
  expect(text).not.toMatch(/^\s*[-+]\s/m);
}

const pair = (instrument: string) => instrument.replace('_', '/');
const absUnits = (units: string) => BigInt(units.replace('-', '')).toLocaleString('en-US');
const side = (t: TradeItem) => (t.initialUnits.startsWith('-') ? 'short' : 'long');

async function openTradesByApi(page: Page, token: string): Promise<TradeItem[]> {
  const open = (await allTradesByApi(page, token)).filter((t) => t.state === 'OPEN');
  expect(open.length, 'the simulator book has open trades to ask about').toBeGreaterThan(0);
  return open;
}

async function chatsByApi(page: Page, token: string, topic: string) {
  return (await apiAs<GetChatsResponse>(page, token, `/api/v1/chat/get_chats?topic=${topic}`)).data;
}

test('built-in analyst: chats CRUD, example prompts, sending, stripping, modes, topics and a candle chart', async ({
  page,
  baseURL,
}) => {
  const facts = readStackFacts(baseURL);
  // Gemini has no provider on the server (the stack configures OpenAI and Vertex AI): the built-in analyst answers.
  const { token } = await syncedOandaUser(page, facts, { prefix: 'chatb', aiPlatform: 'gemini' });
  const openTrades = await openTradesByApi(page, token);
  const screen = chatScreen(page);
  await page.goto(CHAT_PAGE);

  await test.step('breadcrumb, defaults and the empty state', async () => {
    await expect(screen.breadcrumb).toContainText('Querying: OANDA');
    await expect(screen.breadcrumb).toContainText('Using: Gemini (built-in analyst)');
    await expect(screen.topic('trading')).toBeChecked();
    await expect(screen.mode('demo')).toBeChecked();
    await expect(screen.modelLabel, 'the model label is for the OpenAI platform only').toHaveCount(0);
    await expect(screen.panel.getByText(NO_CHATS)).toBeVisible();
    await expectEmptyState(screen, PROMPTS.trading);
    await expect(screen.send, 'no send button before a chat exists').toHaveCount(0);
  });

  await test.step('a chat title is required; Create adds and selects the chat', async () => {
    await screen.newChat.click();
    const modal = page.getByRole('dialog', { name: 'Start a New Chat' });
    await modal.getByLabel('Chat Title').fill('   ');
    await modal.getByRole('button', { name: 'Create' }).click();
    await expect(modal.getByText('Chat Title is required.')).toBeVisible();
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await expect(modal).toBeHidden();
    await createChatInUi(page, screen, 'Morning review');
    await expect(screen.chats).toHaveCount(1);
    await expect(screen.send).toBeVisible();
  });

  await test.step('an example prompt fills the input; Enter sends; the answer lists the open trades', async () => {
    await screen.log.getByRole('button', { name: 'Show my open trades' }).click();
    await expect(screen.input).toHaveValue('Show my open trades');
    await expect(screen.input).toBeFocused();
    await screen.input.press('Enter');
    await expect(screen.input).toHaveValue('');

    await expect(screen.userTexts).toHaveText(['Show my open trades']);
    await expect(screen.answers).toHaveCount(1);
    const answer = screen.answers.first();
    await expect(answer).toContainText(`You have ${openTrades.length} open trades in demo mode.`);
    // What is open now: a partly closed trade shows the units still open (currentUnits), as OANDA lists it.
    for (const t of openTrades) {
      await expect(answer).toContainText(
        `#${t.tradeId} ${pair(t.instrument)} ${side(t)} ${absUnits(t.currentUnits)} units at ${t.price}`,
      );
    }
    await expect(answer).toContainText(`Total P/L of all ${openTrades.length}:`);
    await expect(answer).toContainText(FROM_OANDA);
    // The same trades as a table under the text.
    const rows = answer.getByRole('table').getByRole('rowgroup').last().getByRole('row');
    await expect(rows).toHaveCount(openTrades.length);
    await expect(answer).toContainText('Built-in analyst');

    await expectAligned(screen.log, screen.userMessages.first(), 'right');
    await expectAligned(screen.log, answer, 'left');
    expectNoMarkdown(await shownText(answer));
  });

  await test.step('Shift+Enter breaks the line instead of sending', async () => {
    await screen.input.fill('first line');
    await screen.input.press('Shift+Enter');
    await screen.input.pressSequentially('second line');
    await expect(screen.input).toHaveValue('first line\nsecond line');
    await expect(screen.userMessages).toHaveCount(1);
    await screen.input.fill('');
    // Whitespace only is not sent either (docs/PRODUCT.md, Validation).
    await screen.input.fill('   ');
    await screen.input.press('Enter');
    await expect(screen.userMessages).toHaveCount(1);
    await screen.input.fill('');
  });

  await test.step('live mode: the demo connection does not answer for live', async () => {
    await screen.mode('live').check();
    await expect(page.getByText('Trades · live account')).toBeVisible();
    await screen.input.fill('Show my open trades');
    await screen.send.click();
    await expect(screen.answers).toHaveCount(2);
    await expect(screen.answers.nth(1)).toContainText('You have no open trades in live mode.');
    await expect(screen.answers.nth(1)).not.toContainText(FROM_OANDA);
    await screen.mode('demo').check();
  });

  await test.step('rename: the modal holds the title; Save shows the toast and the new title', async () => {
    await screen.chats.first().getByRole('button', { name: 'Rename chat' }).click();
    const modal = page.getByRole('dialog', { name: 'Edit Chat Title' });
    await expect(modal.getByLabel('Chat Title')).toHaveValue('Morning review');
    await modal.getByLabel('Chat Title').fill('  Open trades check  ');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Chat title updated.')).toBeVisible();
    await expect(modal).toBeHidden();
    await expect(screen.selectedChat).toHaveText('Open trades check');
    expect((await chatsByApi(page, token, 'trading')).map((c) => c.title)).toEqual(['Open trades check']);
  });

  await test.step('reload: the chat and its messages are still there', async () => {
    await page.reload();
    await expect(screen.selectedChat).toHaveText('Open trades check');
    await expect(screen.userTexts).toHaveText(['Show my open trades', 'Show my open trades']);
    await expect(screen.answers).toHaveCount(2);
    await expect(screen.answers.first()).toContainText(`You have ${openTrades.length} open trades in demo mode.`);
  });

  await test.step('accounts topic: its own prompts and an empty chat list', async () => {
    await screen.topic('accounts').check();
    await expect(screen.panel.getByText(NO_CHATS)).toBeVisible();
    await expect(page.getByText('No chat selected')).toBeVisible();
    await expectEmptyState(screen, PROMPTS.accounts);
    await expect(screen.mode('demo')).toBeVisible();
    await expect(screen.send).toHaveCount(0);
    await screen.topic('trading').check();
    await expect(screen.selectedChat).toHaveText('Open trades check');
    await expect(screen.answers).toHaveCount(2);
  });

  await test.step('delete (confirmed): the toast, the chat and its messages are gone', async () => {
    const [chat] = await chatsByApi(page, token, 'trading');
    await screen.chats.first().getByRole('button', { name: 'Delete chat' }).click();
    const modal = page.getByRole('dialog', { name: 'Delete chat?' });
    await expect(modal).toContainText('Open trades check');
    await modal.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Chat deleted.')).toBeVisible();
    await expect(modal).toBeHidden();
    await expect(screen.panel.getByText(NO_CHATS)).toBeVisible();
    await expect(screen.userMessages).toHaveCount(0);
    await expectEmptyState(screen, PROMPTS.trading);
    expect(await chatsByApi(page, token, 'trading')).toEqual([]);
    const gone = await page.request.get(`/api/v1/conversation/get_conversations/${chat!._id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(gone.status()).toBe(404);
  });

  await test.step('candles topic: instrument and granularity, and an answer with a drawn candle chart', async () => {
    await screen.topic('candles').check();
    await expect(screen.modeGroup).toHaveCount(0);
    const instrument = page.getByLabel('Instrument');
    const granularity = page.getByLabel('Granularity');
    await expect(instrument).toHaveValue('USD_JPY');
    await expect(instrument.locator('option')).toHaveText(['USD/JPY', 'EUR/USD', 'GBP/USD']);
    await expect(granularity).toHaveValue('M5');
    await expect(granularity.locator('option:checked')).toHaveText('5 Minutes');
    await expect(granularity.locator('option')).toHaveText(['1 Minute', '5 Minutes', '15 Minutes', '1 Hour', '1 Day']);
    await expect(page.getByText('USD/JPY · 5 Minutes candles')).toBeVisible();
    await expectEmptyState(screen, PROMPTS.candles);

    await createChatInUi(page, screen, 'Yen dailies');
    await screen.log.getByRole('button', { name: 'Show daily candles for USD/JPY' }).click();
    await screen.send.click();
    const answer = screen.answers.first();
    await expect(answer).toContainText('USD/JPY daily candles: the last 100,');
    const chart = answer.getByRole('img', { name: 'Candlestick chart: USD/JPY · 1 Day · 100 candles' });
    await expect(chart).toBeVisible();
    await expect.poll(() => canvasPainted(chart), { message: 'the candle chart drew' }).toBe(true);

    // The candles OANDA (the simulator) serves for the request the server made: the first open and the
    // chart's last close must be theirs.
    const sim = simControl(facts, 'practice');
    const request = (await sim.requests()).findLast((r) => r.path.includes('/instruments/USD_JPY/candles'));
    expect(request, 'the server fetched USD/JPY candles from OANDA').toBeDefined();
    expect(request!.query.granularity).toBe('D');
    const wire = await simCandles(facts, request!.path, request!.query);
    const first = wire.candles[0]!;
    const last = wire.candles.at(-1)!;
    const shown = /Open (\S+), last close (\S+):/.exec(await shownText(answer));
    expect(shown, 'the answer names the first open and the last close').not.toBeNull();
    expect(shown![1]).toBe(first.mid.o);
    await expect(answer.getByRole('definition').first()).toHaveText(shown![2]!);
    if (last.complete) expect(shown![2]).toBe(last.mid.c);
    else {
      // The last candle is still forming: its close moves on in real time, but its low and high only widen, so the
      // close the answer saw lies within the range the candle has now.
      const close = Number(shown![2]);
      expect(close).toBeGreaterThanOrEqual(Number(last.mid.l));
      expect(close).toBeLessThanOrEqual(Number(last.mid.h));
    }
    expectNoMarkdown(await shownText(answer));
  });
});

interface WireCandles {
  candles: { time: string; complete: boolean; mid: { o: string; h: string; l: string; c: string } }[];
}

/** Replays a candles request on the practice simulator, as OANDA would answer it now. */
async function simCandles(facts: StackFacts, path: string, query: Readonly<Record<string, string>>) {
  const url = new URL(path, facts.practice.url);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await fetch(url, { headers: { Authorization: `Bearer ${facts.practice.token}` } });
  expect(res.status, `candles from the simulator: ${url.toString()}`).toBe(200);
  return (await res.json()) as WireCandles;
}

test('OpenAI: model labels, tool results sent back, a streamed answer kept after reload, a quota error explained', async ({
  page,
  baseURL,
}) => {
  const facts = readStackFacts(baseURL);
  const fake = fakeLlmControl(facts.openaiUrl);
  await fake.reset();
  const { token } = await syncedOandaUser(page, facts, { prefix: 'chato', aiPlatform: 'openai' });
  const openTrades = await openTradesByApi(page, token);
  const screen = chatScreen(page);
  await page.goto(CHAT_PAGE);

  await test.step('breadcrumb and the model per topic', async () => {
    await expect(screen.breadcrumb).toContainText('Querying: OANDA');
    await expect(screen.breadcrumb).toContainText('Using: OpenAI');
    await expect(screen.breadcrumb).not.toContainText('built-in');
    await expect(screen.modelLabel).toHaveText('gpt-4o');
    await screen.topic('accounts').check();
    await expect(screen.modelLabel).toHaveText('gpt-4o');
    await screen.topic('candles').check();
    await expect(screen.modelLabel).toHaveText('gpt-3.5-turbo');
    await screen.topic('trading').check();
    await expect(screen.modelLabel).toHaveText('gpt-4o');
  });

  await test.step('the model calls a tool; the answer quotes what the tool returned', async () => {
    await createChatInUi(page, screen, 'Open book');
    await screen.input.fill('Show my open trades');
    await screen.input.press('Enter');
    const answer = screen.answers.first();
    await expect(answer).toContainText('From query_trades:');
    await expect(answer).toContainText(`matched ${openTrades.length},`);
    await expect(answer).toContainText(FROM_OANDA);
    await expect(answer).toContainText('OpenAI · gpt-4o');

    const requests = (await fake.requests()).filter((r) => r.lastUserText === 'Show my open trades');
    expect(requests.map((r) => r.model)).toEqual(['gpt-4o', 'gpt-4o']);
    expect(requests.every((r) => r.stream)).toBe(true);
    expect(requests[0]!.toolResults).toEqual([]);
    const results = requests[1]!.toolResults;
    expect(results.map((r) => r.name)).toEqual(['query_trades']);
    const result = results[0]!.result as { matched: number; trades: { tradeId: string }[] };
    expect(result.matched).toBe(openTrades.length);
    expect(result.trades.map((t) => t.tradeId).sort()).toEqual(openTrades.map((t) => t.tradeId).sort());
  });

  // A markdown answer written from the open trades, streamed slowly enough to be seen arriving.
  const lines = openTrades.map((t) => ({
    markdown: `- **#${t.tradeId}** ${pair(t.instrument)}: \`${absUnits(t.initialUnits)}\` units at *${t.price}*`,
    plain: `• #${t.tradeId} ${pair(t.instrument)}: ${absUnits(t.initialUnits)} units at ${t.price}`,
  }));
  const LAST_WORDS = 'That is the whole open book.';
  const scripted = [
    '## Open trades',
    `You have **${openTrades.length} open trades** in demo mode:`,
    ...lines.map((l) => l.markdown),
    LAST_WORDS,
  ].join('\n');
  const shown = [
    'Open trades',
    `You have ${openTrades.length} open trades in demo mode:`,
    ...lines.map((l) => l.plain),
    LAST_WORDS,
    '',
    FROM_OANDA,
  ].join('\n');

  await test.step('a streamed answer appears piece by piece, stripped of markdown', async () => {
    await fake.script(
      { toolCalls: [{ name: 'query_trades', args: { state: 'open' } }] },
      { text: scripted, chunkDelayMs: 150 },
    );
    await screen.input.fill('Summarise my open trades');
    await screen.input.press('Enter');
    const streaming = screen.log.locator('[data-role="assistant"][aria-busy="true"]');
    // Seen at least once: the beginning of the answer without its end.
    await expect
      .poll(
        async () =>
          (await streaming.locator('.chat-text').allInnerTexts()).some(
            (t) => t.startsWith('Open trades') && !t.includes(LAST_WORDS),
          ),
        { message: 'part of the answer shows while it is written', intervals: [50] },
      )
      .toBe(true);
    await expect(streaming.getByRole('status', { name: 'Writing the answer' })).toBeVisible();
    await expect(screen.send).toBeDisabled();

    await expect(screen.answers).toHaveCount(2);
    await expect(streaming).toHaveCount(0);
    const answer = screen.answers.nth(1);
    expect(await shownText(answer)).toBe(shown);
    expectNoMarkdown(await shownText(answer));
    await expect(screen.send).toBeEnabled();
  });

  await test.step('a quota error: a plain explanation in the thread, the question kept', async () => {
    await fake.script({ error: 'insufficient_quota' });
    await screen.input.fill('What were my top 3 winners today?');
    await screen.input.press('Enter');
    await expect(screen.answers).toHaveCount(3);
    const failed = screen.answers.nth(2);
    await expect(failed).toContainText('The assistant could not answer');
    await expect(failed).toContainText(/run out of quota or credit/);
    await expect(screen.userTexts.nth(2)).toHaveText('What were my top 3 winners today?');
    await expect(screen.input).toHaveValue('');
  });

  await test.step('reload: the chat, the stored streamed answer and the explained failure are all there', async () => {
    await page.reload();
    await expect(screen.selectedChat).toHaveText('Open book');
    await expect(screen.userTexts).toHaveText([
      'Show my open trades',
      'Summarise my open trades',
      'What were my top 3 winners today?',
    ]);
    await expect(screen.answers).toHaveCount(3);
    expect(await shownText(screen.answers.nth(1))).toBe(shown);
    await expect(screen.answers.nth(2)).toContainText(/run out of quota or credit/);
    const [chat] = await chatsByApi(page, token, 'trading');
    const stored = await apiAs<GetConversationsResponse>(
      page,
      token,
      `/api/v1/conversation/get_conversations/${chat!._id}`,
    );
    expect(stored.conversations.map((m) => [m.role, m.failed])).toEqual([
      ['user', false],
      ['assistant', false],
      ['user', false],
      ['assistant', false],
      ['user', false],
      ['assistant', true],
    ]);
    expect(stored.conversations[3]!.content).toBe(`${scripted}\n\n${FROM_OANDA}`);
  });

  await test.step('candles go to gpt-3.5-turbo with the chosen instrument', async () => {
    await screen.topic('candles').check();
    await page.getByLabel('Instrument').selectOption('EUR_USD');
    await createChatInUi(page, screen, 'Euro candles');
    await screen.log.getByRole('button', { name: 'Get 5-minute candles for EUR/USD' }).click();
    await screen.input.press('Enter');
    const answer = screen.answers.first();
    await expect(answer).toContainText('OpenAI · gpt-3.5-turbo');
    const asked = (await fake.requests()).filter((r) => r.lastUserText === 'Get 5-minute candles for EUR/USD');
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(new Set(asked.map((r) => r.model))).toEqual(new Set(['gpt-3.5-turbo']));
    const toolResult = asked.at(-1)!.toolResults[0];
    expect(toolResult, 'a candles tool result was sent back').toBeDefined();
    expect(JSON.stringify(toolResult!.result)).toContain('EUR_USD');
    const chart = answer.getByRole('img', { name: /^Candlestick chart: EUR\/USD · 5 Minutes · \d+ candles$/ });
    await expect(chart).toBeVisible();
    await expect.poll(() => canvasPainted(chart), { message: 'the candle chart drew' }).toBe(true);
  });
});

/** The window as it is now, at each size of VIEWPORTS with `subject` scrolled into view, then back at its size. */
async function shotAtEachSize(page: Page, name: string, subject: Locator) {
  const size = page.viewportSize();
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await subject.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/${name}-${viewport.name}.png` });
  }
  if (size) await page.setViewportSize(size);
}

/** "word1 word2 … wordN." */
const words = (n: number) =>
  Array.from({ length: n }, (_, i) => `word${i + 1}`)
    .join(' ')
    .concat('.');

test('an answer outlives the page: reloaded mid-answer it shows the text so far, then all of it; Stop keeps the text', async ({
  page,
  baseURL,
}) => {
  const facts = readStackFacts(baseURL);
  const fake = fakeLlmControl(facts.openaiUrl);
  await fake.reset();
  const { token } = await syncedOandaUser(page, facts, { prefix: 'chatr', aiPlatform: 'openai' });
  const screen = chatScreen(page);
  const stop = page.getByRole('button', { name: 'Stop the answer' });
  const writing = screen.log.locator('[data-role="assistant"][aria-busy="true"]');
  await page.goto(CHAT_PAGE);
  await createChatInUi(page, screen, 'Long answers');
  const stored = async () => {
    const [chat] = await chatsByApi(page, token, 'trading');
    const body = await apiAs<GetConversationsResponse>(
      page,
      token,
      `/api/v1/conversation/get_conversations/${chat!._id}`,
    );
    return body.conversations;
  };

  await test.step('reloaded as soon as the text shows: the text so far, updating until the whole answer', async () => {
    const full = words(50);
    await fake.script({ text: full, chunkDelayMs: 100 });
    await screen.input.fill('Tell me everything');
    await screen.input.press('Enter');
    await expect(writing.locator('.chat-text')).toContainText('word1');
    await page.reload();

    await expect(screen.userTexts).toHaveText(['Tell me everything']);
    await expect(writing.locator('.chat-text')).toContainText('word1');
    await expect(writing.getByRole('status', { name: 'Writing the answer' })).toBeVisible();
    await expect(stop).toBeVisible();
    await expect(screen.send).toBeDisabled();

    await expect(screen.answers.first().locator('.chat-text')).toHaveText(full);
    await expect(writing).toHaveCount(0);
    await expect(stop).toHaveCount(0);
    await expect(screen.send).toBeEnabled();
    expect((await stored()).map((m) => [m.role, m.status, m.content])).toEqual([
      ['user', 'complete', 'Tell me everything'],
      ['assistant', 'complete', full],
    ]);
  });

  await test.step('Stop after a reload keeps what was written, with a note', async () => {
    const full = words(300);
    await fake.script({ text: full, chunkDelayMs: 100 });
    await screen.input.fill('And more');
    await screen.input.press('Enter');
    await expect(writing.locator('.chat-text')).toContainText('word3');
    await expect(stop).toBeVisible();
    await shotAtEachSize(page, 'chat-stop-while-streaming', stop);
    await page.reload();
    await expect(writing.locator('.chat-text')).toContainText('word5');
    await expect(stop).toBeVisible();
    await shotAtEachSize(page, 'chat-reloaded-mid-answer', stop);
    await stop.click();

    const answer = screen.answers.nth(1);
    await expect(answer).toContainText('The answer was cancelled before it was complete.');
    await expect(writing).toHaveCount(0);
    await expect(screen.send).toBeEnabled();
    await shotAtEachSize(page, 'chat-stopped', screen.send);
    const last = (await stored()).at(-1)!;
    expect(last).toMatchObject({ role: 'assistant', status: 'cancelled', failed: false });
    expect(full.startsWith(last.content)).toBe(true);
    expect(last.content.length).toBeLessThan(full.length);
    await expect(answer.locator('.chat-text')).toHaveText(last.content);
  });
});
