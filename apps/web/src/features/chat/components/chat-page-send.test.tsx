import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { candlesAttachment, chatRecord, messageRecord, sseEvent, tradesAttachment } from '../test/chat-fixtures';
import { jsonResponse } from '../../../test/fake-api';
import { charts, resetCharts } from '../../../test/lightweight-charts-fake';
import { renderWithProviders } from '../../../test/render';
import { chatApi, type ChatApi } from '../test/chat-server';
import { ChatPage } from './chat-page';

vi.mock('lightweight-charts', () => import('../../../test/lightweight-charts-fake'));

const renderChatPage = () => renderWithProviders(<ChatPage />, { path: '/chat/ai_chat' });

let api: ChatApi;
let consoleError: ReturnType<typeof vi.spyOn>;

function useApi(seed: Parameters<typeof chatApi>[0] = { chats: [chatRecord('c1', 'My chat')] }) {
  api = chatApi(seed);
  return api;
}

/** A streamed response the test writes to event by event. */
function controlledStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }),
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
  };
}

const input = () => screen.getByPlaceholderText<HTMLTextAreaElement>('Ask AI');
const queryCalls = () => api.to(/^\/api\/v1\/query\/oanda\//, 'POST');
const thread = () => screen.getByRole('log', { name: 'Conversation' });

async function ready() {
  await screen.findByRole('button', { name: 'Send message' });
  await screen.findByText('No messages yet. Try one of these:');
}

beforeEach(() => {
  resetCharts();
  localStorage.setItem('token', JSON.stringify('jwt'));
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.clearAllMocks();
});

describe('ChatPage input', () => {
  it('sends on Enter with the topic, chat and mode, and clears the input', async () => {
    useApi();
    const user = userEvent.setup();
    renderChatPage();
    await ready();
    await user.type(input(), 'Show my open trades{Enter}');
    await waitFor(() => expect(queryCalls()).toHaveLength(1));
    const call = queryCalls()[0]!;
    expect(call.path).toBe('/api/v1/query/oanda/trade');
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(call.body).toEqual({ query: 'Show my open trades', chatId: 'c1', mode: 'demo', timeZone });
    expect(call.headers).toMatchObject({ Accept: 'text/event-stream', Authorization: 'Bearer jwt' });
    expect(input()).toHaveValue('');
  });

  it('inserts a new line on Shift+Enter without sending', async () => {
    useApi();
    const user = userEvent.setup();
    renderChatPage();
    await ready();
    await user.type(input(), 'line 1{Shift>}{Enter}{/Shift}line 2');
    expect(input()).toHaveValue('line 1\nline 2');
    expect(queryCalls()).toHaveLength(0);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(queryCalls()[0]?.body?.query).toBe('line 1\nline 2'));
  });

  it('does not send an empty or whitespace-only message', async () => {
    useApi();
    const user = userEvent.setup();
    renderChatPage();
    await ready();
    await user.type(input(), '{Enter}');
    await user.type(input(), '   {Shift>}{Enter}{/Shift}  {Enter}');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(queryCalls()).toHaveLength(0);
  });

  it('shows the send button only when the topic has a chat', async () => {
    useApi({ chats: [chatRecord('a1', 'Accounts chat', 'accounts')] });
    const user = userEvent.setup();
    renderChatPage();
    await screen.findByText('No chats on this topic yet. Start one with + New.');
    expect(screen.queryByRole('button', { name: 'Send message' })).not.toBeInTheDocument();
    await user.type(input(), 'hello{Enter}');
    expect(queryCalls()).toHaveLength(0);
    await user.click(screen.getByRole('radio', { name: 'accounts' }));
    expect(await screen.findByRole('button', { name: 'Send message' })).toBeEnabled();
  });

  it('puts a clicked example prompt in the input, per topic', async () => {
    useApi();
    const user = userEvent.setup();
    renderChatPage();
    await ready();
    for (const prompt of [
      'Show my open trades',
      'What were my top 3 winners today?',
      'List all trades with stop-loss orders',
    ])
      expect(screen.getByRole('button', { name: prompt })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'What were my top 3 winners today?' }));
    expect(input()).toHaveValue('What were my top 3 winners today?');
    expect(input()).toHaveFocus();
    expect(queryCalls()).toHaveLength(0);

    await user.click(screen.getByRole('radio', { name: 'candles' }));
    expect(await screen.findByRole('button', { name: 'Show daily candles for USD/JPY' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Get 5-minute candles for EUR/USD' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Fetch hourly candles for GBP/USD' })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'accounts' }));
    for (const prompt of [
      'What is my current account balance?',
      'Show last month performance',
      'What is my margin utilization?',
    ])
      expect(await screen.findByRole('button', { name: prompt })).toBeInTheDocument();
  });

  it('grows the textarea with its text up to 150 px, then scrolls', async () => {
    // jsdom does no layout: give every line of text 24 px of content height.
    vi.spyOn(HTMLTextAreaElement.prototype, 'scrollHeight', 'get').mockImplementation(function (
      this: HTMLTextAreaElement,
    ) {
      return this.value.split('\n').length * 24;
    });
    useApi();
    const user = userEvent.setup();
    renderChatPage();
    await ready();
    await user.type(input(), 'a{Shift>}{Enter}{/Shift}b');
    expect(input().style.height).toBe('48px');
    expect(input().style.overflowY).toBe('hidden');
    await user.type(input(), '{Shift>}{Enter}{Enter}{Enter}{Enter}{Enter}{/Shift}c');
    expect(input().style.height).toBe('150px');
    expect(input().style.overflowY).toBe('auto');
  });

  it('sends accounts questions with the live mode, and candles with the instrument and granularity', async () => {
    useApi({ chats: [chatRecord('a1', 'Acc', 'accounts'), chatRecord('k1', 'Candles', 'candles')] });
    const user = userEvent.setup();
    renderChatPage();
    await user.click(screen.getByRole('radio', { name: 'accounts' }));
    await user.click(screen.getByRole('radio', { name: 'live' }));
    await ready();
    await user.type(input(), 'What is my margin utilization?{Enter}');
    await waitFor(() => expect(queryCalls()).toHaveLength(1));
    expect(queryCalls()[0]).toMatchObject({
      path: '/api/v1/query/oanda/account',
      body: { query: 'What is my margin utilization?', chatId: 'a1', mode: 'live' },
    });
    await screen.findByText('Answer to: What is my margin utilization?');

    await user.click(screen.getByRole('radio', { name: 'candles' }));
    await user.selectOptions(screen.getByLabelText('Instrument'), 'EUR/USD');
    await user.selectOptions(screen.getByLabelText('Granularity'), '1 Hour');
    await ready();
    await user.type(input(), 'Fetch hourly candles{Enter}');
    await waitFor(() => expect(queryCalls()).toHaveLength(2));
    expect(queryCalls()[1]).toMatchObject({
      path: '/api/v1/query/oanda/candle',
      body: { query: 'Fetch hourly candles', chatId: 'k1', instrument: 'EUR_USD', granularity: 'H1' },
    });
  });
});

describe('ChatPage sending and streaming', () => {
  it('shows the message at once, streams the answer, then reloads the conversation', async () => {
    useApi();
    const stream = controlledStream();
    let stored = messageRecord('x', 'c1', 'assistant', '');
    api.onQuery((body) => {
      api.store('c1', messageRecord('u1', 'c1', 'user', String(body.query)));
      stored = messageRecord('a1', 'c1', 'assistant', '## Open trades\nYou have **2** open trades: -12.50 in total.');
      api.store('c1', stored);
      return stream.response;
    });
    const user = userEvent.setup();
    renderChatPage();
    await ready();
    await user.type(input(), 'Show my open trades{Enter}');

    expect(await within(thread()).findByText('Show my open trades')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send message' })).toBeDisabled();
    expect(screen.getByRole('status', { name: 'Thinking' })).toBeInTheDocument();

    stream.write(sseEvent('delta', { text: '## Open trades\nYou have **2' }));
    expect(await within(thread()).findByText(/^Open trades\s+You have \*\*2$/)).toBeInTheDocument();
    stream.write(sseEvent('delta', { text: '** open trades: -12.50 in total.' }));
    expect(
      await within(thread()).findByText(/^Open trades\s+You have 2 open trades: -12\.50 in total\.$/),
    ).toBeInTheDocument();
    expect(api.to('/api/v1/conversation/get_conversations/c1', 'GET')).toHaveLength(1);

    stream.write(sseEvent('done', { success: true, message: 'Answered', data: stored }));
    stream.close();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled());
    expect(api.to('/api/v1/conversation/get_conversations/c1', 'GET')).toHaveLength(2);
    expect(screen.queryByRole('status', { name: /Thinking|Writing/ })).not.toBeInTheDocument();
    // The stored pair, once each: the streamed copies are gone.
    expect(within(thread()).getAllByText('Show my open trades')).toHaveLength(1);
    const answer = within(thread()).getByText(/You have 2 open trades/);
    expect(answer.textContent).not.toContain('*');
    expect(answer.textContent).not.toContain('#');
    expect(within(thread()).getByText(/OpenAI · gpt-4o/)).toBeInTheDocument();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('aligns user messages right and assistant messages left', async () => {
    useApi({
      chats: [chatRecord('c1', 'My chat')],
      conversations: {
        c1: [
          messageRecord('m1', 'c1', 'user', 'My **question**'),
          messageRecord('m2', 'c1', 'assistant', 'The _answer_ is `2*3`'),
        ],
      },
    });
    renderChatPage();
    const question = await screen.findByText('My question');
    const reply = screen.getByText('The answer is 2*3');
    expect(question.closest('.chat-row')).toHaveClass('justify-content-end');
    expect(question.closest('.chat-message')).toHaveClass('chat-message-user');
    expect(reply.closest('.chat-row')).toHaveClass('justify-content-start');
    expect(reply.closest('.chat-message')).toHaveClass('chat-message-assistant');
  });

  it('logs a failed answer, stops the spinner and shows the failure the server stored', async () => {
    useApi();
    api.onQuery((body) => {
      api.store('c1', messageRecord('u1', 'c1', 'user', String(body.query)));
      api.store(
        'c1',
        messageRecord('a1', 'c1', 'assistant', 'The AI provider did not answer within 60 seconds.', { failed: true }),
      );
      return new Response(sseEvent('error', { message: 'The AI provider timed out.' }), {
        headers: { 'Content-Type': 'text/event-stream' },
      });
    });
    const user = userEvent.setup();
    renderChatPage();
    await ready();
    await user.type(input(), 'Show my open trades{Enter}');

    const failure = await within(thread()).findByText('The AI provider did not answer within 60 seconds.');
    expect(failure.closest('.chat-message')).toHaveClass('chat-message-failed');
    expect(within(thread()).getByText('The assistant could not answer')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled();
    expect(consoleError).toHaveBeenCalledWith('Message send failed:', 'The AI provider timed out.');
    expect(input()).toHaveValue('');
  });

  it('gives the text back when the server refused the message', async () => {
    useApi();
    api.onQuery(() =>
      jsonResponse(
        { success: false, message: 'A message can be at most 4000 characters.', code: 'BAD', requestId: 'r' },
        400,
      ),
    );
    const user = userEvent.setup();
    renderChatPage();
    await ready();
    await user.type(input(), 'Too long{Enter}');
    expect(await screen.findByText('Not sent: A message can be at most 4000 characters.')).toBeInTheDocument();
    expect(input()).toHaveValue('Too long');
    expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled();
    expect(consoleError).toHaveBeenCalledWith('Message send failed:', 'A message can be at most 4000 characters.');
  });

  it('names who answered when the server says another provider did', async () => {
    useApi({
      chats: [chatRecord('c1', 'My chat')],
      conversations: {
        c1: [
          messageRecord('m1', 'c1', 'assistant', 'Balance 100.00', { provider: 'builtin', model: 'pipsense-analyst' }),
        ],
      },
    });
    renderChatPage();
    expect(await screen.findByText(/Built-in analyst/)).toBeInTheDocument();
    expect(screen.queryByText(/pipsense-analyst/)).not.toBeInTheDocument();
  });
});

describe('ChatPage attachments', () => {
  it('renders a trades table and a candlestick chart below the answer text', async () => {
    useApi({
      chats: [chatRecord('c1', 'My chat')],
      conversations: {
        c1: [
          messageRecord('m1', 'c1', 'assistant', 'Here they are.', {
            attachments: [tradesAttachment, candlesAttachment],
          }),
        ],
      },
    });
    renderChatPage();
    const text = await screen.findByText('Here they are.');
    const bubble = text.closest('.chat-message') as HTMLElement;

    const table = within(bubble).getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Trade ID', 'Instrument', 'Unrealized P/L', 'Opened']);
    // Broker instants are shown in local time, not as raw RFC 3339 text.
    const opened = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    expect(within(table).getByText(opened.format(Date.parse('2025-05-01T09:30:00Z')))).toBeInTheDocument();
    expect(within(table).queryByText(/2025-05-01T/)).not.toBeInTheDocument();
    expect(within(table).getByText('-12.5000')).toHaveClass('text-danger');
    expect(within(table).getByText('-')).toBeInTheDocument();
    expect(within(bubble).getByText('Open trades')).toBeInTheDocument();
    // Text first, attachments after it.
    expect(text.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    expect(
      await within(bubble).findByRole('img', { name: 'Candlestick chart: EUR/USD · 5 Minutes · 2 candles' }),
    ).toBeInTheDocument();
    // One candlestick series (its price format), drawn with the candles.
    await waitFor(() => expect(charts.series).toHaveLength(1));
    const [series] = charts.series;
    expect(series!.options).toMatchObject({ priceFormat: { type: 'price', precision: 5, minMove: 0.00001 } });
    expect(series!.data).toEqual([
      { time: Date.parse('2025-05-01T10:00:00Z') / 1000, open: 1.08, high: 1.081, low: 1.0795, close: 1.0805 },
      { time: Date.parse('2025-05-01T10:05:00Z') / 1000, open: 1.0805, high: 1.0812, low: 1.0799, close: 1.0799 },
    ]);
    expect(within(bubble).getByText('-0.00010 (-0.01%)')).toHaveClass('text-danger');
  });
});
