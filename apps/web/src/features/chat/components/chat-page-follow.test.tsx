import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { chatRecord, messageRecord, sseEvent } from '../test/chat-fixtures';
import { renderWithProviders } from '../../../test/render';
import { chatApi, type ChatApi } from '../test/chat-server';
import { FOLLOW_EVERY_MS } from '../model/answer-status';
import { ChatPage } from './chat-page';

vi.mock('lightweight-charts', () => import('../../../test/lightweight-charts-fake'));

/**
 * docs/decisions/015-chat-answers-outlive-the-page.md: an answer runs on the server whether or not the page is open; a
 * page opened mid-answer follows it.
 */

const renderChatPage = () => renderWithProviders(<ChatPage />, { path: '/chat/ai_chat' });
const thread = () => screen.getByRole('log', { name: 'Conversation' });
const conversationReads = (api: ChatApi) => api.to('/api/v1/conversation/get_conversations/c1', 'GET').length;
/**
 * Lets more than one polling interval pass, for the checks that no poll came: an absence has no condition to wait
 * for. A busy machine only makes such a poll later, so these checks can miss a stray poll but never fail a sound page.
 */
const morePollsThanOne = () => new Promise((r) => setTimeout(r, FOLLOW_EVERY_MS + 300));

let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('jwt'));
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The page reloaded while the server writes the answer: the thread holds the question and the text so far. */
function reloadedMidAnswer() {
  return chatApi({
    chats: [chatRecord('c1', 'My chat')],
    conversations: {
      c1: [
        messageRecord('u1', 'c1', 'user', 'Show my open trades'),
        messageRecord('a1', 'c1', 'assistant', 'You have **2** open', { status: 'streaming' }),
      ],
    },
  });
}

/**
 * A query answered by a stream the test writes to: `start` names the stored question `u1` and answer `a1`, which
 * are stored at once (the answer streaming), as the server does.
 */
function liveQuestion(api: ChatApi) {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  api.onQuery((body) => {
    const question = messageRecord('u1', 'c1', 'user', String(body.query));
    const answer = messageRecord('a1', 'c1', 'assistant', '', { status: 'streaming' });
    api.store('c1', question);
    api.store('c1', answer);
    const stream = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
        c.enqueue(encoder.encode(sseEvent('start', { question, answer })));
      },
    });
    return new Response(stream, { headers: { 'Content-Type': 'text/event-stream' } });
  });
  return {
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
  };
}

describe('ChatPage with an answer still being written on the server', () => {
  it('shows the text so far after a reload and keeps it updating until the answer is complete', async () => {
    const api = reloadedMidAnswer();
    renderChatPage();

    expect(await within(thread()).findByText('You have 2 open')).toBeInTheDocument();
    expect(within(thread()).getByRole('status', { name: 'Writing the answer' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send message' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Stop the answer' })).toBeEnabled();

    // The server writes on: the page reads the conversation again and shows more.
    api.update('c1', 'a1', { content: 'You have **2** open trades: -12.50' });
    expect(await within(thread()).findByText('You have 2 open trades: -12.50')).toBeInTheDocument();

    api.update('c1', 'a1', { content: 'You have **2** open trades: -12.50 in total.', status: 'complete' });
    expect(await within(thread()).findByText('You have 2 open trades: -12.50 in total.')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: /Thinking|Writing/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Stop the answer' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled());

    // Complete: no more reads.
    const reads = conversationReads(api);
    await morePollsThanOne();
    expect(conversationReads(api)).toBe(reads);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('stops a followed answer, keeping the text with a note', async () => {
    const api = reloadedMidAnswer();
    const user = userEvent.setup();
    renderChatPage();
    await within(thread()).findByText('You have 2 open');

    await user.click(screen.getByRole('button', { name: 'Stop the answer' }));
    await waitFor(() => expect(api.to('/api/v1/query/cancel/a1', 'POST')).toHaveLength(1));
    expect(await within(thread()).findByText('The answer was cancelled before it was complete.')).toBeInTheDocument();
    expect(within(thread()).getByText('You have 2 open')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Stop the answer' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled();
  });

  it('stops the answer this page is streaming, keeping what was written', async () => {
    const api = chatApi({ chats: [chatRecord('c1', 'My chat')] });
    const stream = liveQuestion(api);
    const user = userEvent.setup();
    renderChatPage();
    await screen.findByText('No messages yet. Try one of these:');
    await user.type(screen.getByPlaceholderText('Ask AI'), 'Tell me everything{Enter}');

    stream.write(sseEvent('delta', { text: 'First part of the answer' }));
    expect(await within(thread()).findByText('First part of the answer')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Stop the answer' }));
    await waitFor(() => expect(api.to('/api/v1/query/cancel/a1', 'POST')).toHaveLength(1));

    // The server ends the stream with the stopped answer, as stored.
    api.update('c1', 'a1', { content: 'First part of the answer', status: 'cancelled' });
    const stored = api.state.conversations.c1!.find((m) => m._id === 'a1');
    stream.write(sseEvent('done', { success: true, message: 'Answer ready.', data: stored }));
    stream.close();

    expect(await within(thread()).findByText('The answer was cancelled before it was complete.')).toBeInTheDocument();
    // Once each: the streamed copies gave way to the stored ones.
    expect(within(thread()).getAllByText('First part of the answer')).toHaveLength(1);
    expect(within(thread()).getAllByText('Tell me everything')).toHaveLength(1);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled());
  });

  it('shows nothing twice when the conversation is read again while this page streams', async () => {
    const api = chatApi({ chats: [chatRecord('c1', 'My chat')] });
    const stream = liveQuestion(api);
    const user = userEvent.setup();
    const { client } = renderChatPage();
    await screen.findByText('No messages yet. Try one of these:');
    await user.type(screen.getByPlaceholderText('Ask AI'), 'Tell me everything{Enter}');
    stream.write(sseEvent('delta', { text: 'Streaming here' }));
    await within(thread()).findByText('Streaming here');
    await screen.findByRole('button', { name: 'Stop the answer' });

    const reads = conversationReads(api);
    await client.invalidateQueries();
    await waitFor(() => expect(conversationReads(api)).toBe(reads + 1));
    expect(within(thread()).getAllByText('Tell me everything')).toHaveLength(1);
    expect(within(thread()).getAllByRole('status', { name: 'Writing the answer' })).toHaveLength(1);
    // This page has the stream: it does not poll as well.
    await morePollsThanOne();
    expect(conversationReads(api)).toBe(reads + 1);

    api.update('c1', 'a1', { content: 'Streaming here', status: 'complete' });
    stream.write(sseEvent('done', { success: true, message: 'Answer ready.', data: api.state.conversations.c1![1] }));
    stream.close();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled());
    expect(within(thread()).getAllByText('Streaming here')).toHaveLength(1);
  });
});
