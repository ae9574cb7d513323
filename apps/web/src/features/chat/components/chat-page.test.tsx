import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { chatRecord, messageRecord } from '../test/chat-fixtures';
import { renderWithProviders } from '../../../test/render';
import { chatApi, type ChatApi } from '../test/chat-server';
import { ChatPage } from './chat-page';

vi.mock('lightweight-charts', () => import('../../../test/lightweight-charts-fake'));

const renderChatPage = () => renderWithProviders(<ChatPage />, { path: '/chat/ai_chat' });

let api: ChatApi;
let consoleError: ReturnType<typeof vi.spyOn>;

function useApi(seed: Parameters<typeof chatApi>[0] = {}) {
  api = chatApi(seed);
  return api;
}

const chatList = () => screen.getByRole('list', { name: 'Chats' });
const findChat = async (title: string) => within(await screen.findByRole('list', { name: 'Chats' })).findByText(title);
const chatItem = (title: string) => screen.getByRole('button', { name: title }).closest('li') as HTMLElement;
const selectedTitle = () =>
  screen.getAllByRole('button').find((b) => b.getAttribute('aria-current') === 'true')?.textContent;

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('jwt'));
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ChatPage defaults and panel', () => {
  it('starts on trading, demo, and shows the candle settings defaults for candles', async () => {
    useApi();
    const user = userEvent.setup();
    renderChatPage();
    expect(screen.getByRole('group', { name: 'Select Topic' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'trading' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'demo' })).toBeChecked();
    expect(screen.queryByLabelText('Instrument')).not.toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'candles' }));
    expect(screen.queryByRole('group', { name: 'Select Mode' })).not.toBeInTheDocument();
    const instrument = screen.getByLabelText<HTMLSelectElement>('Instrument');
    const granularity = screen.getByLabelText<HTMLSelectElement>('Granularity');
    expect(instrument.value).toBe('USD_JPY');
    expect(granularity.value).toBe('M5');
    expect([...instrument.options].map((o) => [o.value, o.text])).toEqual([
      ['USD_JPY', 'USD/JPY'],
      ['EUR_USD', 'EUR/USD'],
      ['GBP_USD', 'GBP/USD'],
    ]);
    expect([...granularity.options].map((o) => [o.value, o.text])).toEqual([
      ['M1', '1 Minute'],
      ['M5', '5 Minutes'],
      ['M15', '15 Minutes'],
      ['H1', '1 Hour'],
      ['D', '1 Day'],
    ]);
  });

  it('shows the platforms in the breadcrumb, truthful when the provider is not configured', async () => {
    useApi();
    api.state.configured.openai = false;
    renderChatPage();
    expect(await screen.findByText('Using: OpenAI (built-in analyst)')).toBeInTheDocument();
    expect(screen.getByText('Querying: OANDA')).toBeInTheDocument();
  });

  it('names MetaTrader in the breadcrumb when it is the default trading platform', async () => {
    useApi();
    api.state.tradingPlatform = 'MetaTrader';
    renderChatPage();
    expect(await screen.findByText('Querying: MetaTrader')).toBeInTheDocument();
  });

  it('names a configured provider plainly', async () => {
    useApi();
    api.state.platform = 'vertexai';
    renderChatPage();
    expect(await screen.findByText('Using: VertexAI')).toBeInTheDocument();
    // docs/PRODUCT.md, AI chat: the model label belongs to the OpenAI platform.
    expect(screen.queryByText('gpt-4o')).not.toBeInTheDocument();
  });

  it('labels the model per topic with OpenAI', async () => {
    useApi();
    const user = userEvent.setup();
    renderChatPage();
    expect(await screen.findByText('Using: OpenAI')).toBeInTheDocument();
    expect(screen.getByText('gpt-4o')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'accounts' }));
    expect(screen.getByText('gpt-4o')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'candles' }));
    expect(screen.getByText('gpt-3.5-turbo')).toBeInTheDocument();
    expect(screen.queryByText('gpt-4o')).not.toBeInTheDocument();
  });
});

describe('ChatPage chat list', () => {
  it('loads the list for the topic and reloads it with ?topic= when the topic changes', async () => {
    useApi({ chats: [chatRecord('t1', 'Trading chat'), chatRecord('a1', 'Accounts chat', 'accounts')] });
    const user = userEvent.setup();
    renderChatPage();
    expect(await findChat('Trading chat')).toBeInTheDocument();
    expect(screen.queryByText('Accounts chat')).not.toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'accounts' }));
    expect(await findChat('Accounts chat')).toBeInTheDocument();
    expect(screen.queryByText('Trading chat')).not.toBeInTheDocument();
    expect(api.to('/api/v1/chat/get_chats', 'GET').map((c) => c.search.get('topic'))).toEqual(['trading', 'accounts']);
    expect(selectedTitle()).toBe('Accounts chat');
  });

  it('auto-selects the first chat and shows its conversation; a click selects another', async () => {
    useApi({
      chats: [chatRecord('c1', 'First'), chatRecord('c2', 'Second')],
      conversations: {
        c1: [messageRecord('m1', 'c1', 'user', 'Hello first')],
        c2: [messageRecord('m2', 'c2', 'user', 'Hello second')],
      },
    });
    const user = userEvent.setup();
    renderChatPage();
    expect(await screen.findByText('Hello first')).toBeInTheDocument();
    expect(selectedTitle()).toBe('First');
    expect(api.to('/api/v1/conversation/get_conversations/c1', 'GET')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Second' }));
    expect(await screen.findByText('Hello second')).toBeInTheDocument();
    expect(screen.queryByText('Hello first')).not.toBeInTheDocument();
    expect(selectedTitle()).toBe('Second');
  });

  it('gives every chat a rename and a delete button', async () => {
    useApi({ chats: [chatRecord('c1', 'First'), chatRecord('c2', 'Second')] });
    renderChatPage();
    await findChat('Second');
    for (const title of ['First', 'Second']) {
      expect(within(chatItem(title)).getByRole('button', { name: 'Rename chat' })).toBeInTheDocument();
      expect(within(chatItem(title)).getByRole('button', { name: 'Delete chat' })).toBeInTheDocument();
    }
  });

  it('empties the list and only logs when the list cannot be fetched', async () => {
    useApi({ chats: [chatRecord('c1', 'First')] });
    api.state.failing.add('/api/v1/chat/get_chats');
    renderChatPage();
    expect(await screen.findByText('No chats on this topic yet. Start one with + New.')).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith('Failed to load chats:', 'Server exploded.');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('only logs a failed conversation fetch and shows the thread empty', async () => {
    useApi({ chats: [chatRecord('c1', 'First')] });
    api.state.failing.add('/api/v1/conversation/get_conversations/c1');
    renderChatPage();
    expect(await screen.findByText('No messages yet. Try one of these:')).toBeInTheDocument();
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith('Failed to load the conversation:', 'Server exploded.'),
    );
  });

  it('creates a chat, reloads the list and selects the new chat', async () => {
    useApi({
      chats: [chatRecord('c1', 'Old chat')],
      conversations: { c1: [messageRecord('m1', 'c1', 'user', 'Old message')] },
    });
    const user = userEvent.setup();
    renderChatPage();
    await screen.findByText('Old message');

    await user.click(screen.getByRole('button', { name: '+ New' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Start a New Chat')).toBeInTheDocument();
    const input = within(dialog).getByLabelText('Chat Title');
    expect(input).toHaveAttribute('placeholder', 'Enter chat title');
    await user.type(input, '  EUR/USD plan  ');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Chat created successfully!')).toBeInTheDocument();
    expect(api.to('/api/v1/chat/create_chat', 'POST')[0]?.body).toEqual({
      title: 'EUR/USD plan',
      topic: 'trading',
    });
    await waitFor(() => expect(selectedTitle()).toBe('EUR/USD plan'));
    expect(
      within(chatList())
        .getAllByRole('listitem')
        .map((li) => li.querySelector('button')?.textContent),
    ).toEqual(['EUR/USD plan', 'Old chat']);
    expect(api.to('/api/v1/chat/get_chats', 'GET')).toHaveLength(2);
    expect(await screen.findByText('No messages yet. Try one of these:')).toBeInTheDocument();
  });

  it('refuses an empty or too long title before calling the server', async () => {
    useApi();
    const user = userEvent.setup();
    renderChatPage();
    await user.click(screen.getByRole('button', { name: '+ New' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Chat Title'), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Chat Title is required.')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Chat Title'));
    await user.click(within(dialog).getByLabelText('Chat Title'));
    await user.paste('x'.repeat(101));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Chat Title must be at most 100 characters.')).toBeInTheDocument();
    expect(api.to('/api/v1/chat/create_chat', 'POST')).toHaveLength(0);
  });

  it("toasts a failed create and shows the server's message in the modal", async () => {
    useApi();
    api.state.failing.add('/api/v1/chat/create_chat');
    const user = userEvent.setup();
    renderChatPage();
    await user.click(screen.getByRole('button', { name: '+ New' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Chat Title'), 'Plan');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Failed to create chat.')).toBeInTheDocument();
    expect(within(dialog).getByText('Server exploded.')).toBeInTheDocument();
  });

  it('renames a chat through the Edit Chat Title modal', async () => {
    useApi({ chats: [chatRecord('c1', 'Old title')] });
    const user = userEvent.setup();
    renderChatPage();
    await findChat('Old title');
    await user.click(within(chatItem('Old title')).getByRole('button', { name: 'Rename chat' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Edit Chat Title')).toBeInTheDocument();
    const input = within(dialog).getByLabelText('Chat Title');
    expect(input).toHaveValue('Old title');
    await user.clear(input);
    await user.type(input, 'New title');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Chat title updated.')).toBeInTheDocument();
    expect(api.to('/api/v1/chat/edit_chat/c1', 'POST')[0]?.body).toEqual({ title: 'New title' });
    expect(await findChat('New title')).toBeInTheDocument();
  });

  it('toasts a failed rename', async () => {
    useApi({ chats: [chatRecord('c1', 'Old title')] });
    api.state.failing.add('/api/v1/chat/edit_chat/c1');
    const user = userEvent.setup();
    renderChatPage();
    await findChat('Old title');
    await user.click(within(chatItem('Old title')).getByRole('button', { name: 'Rename chat' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update chat title.')).toBeInTheDocument();
  });

  it('asks before deleting; deleting the selected chat clears its messages', async () => {
    useApi({
      chats: [chatRecord('c1', 'Only chat')],
      conversations: { c1: [messageRecord('m1', 'c1', 'user', 'Doomed message')] },
    });
    const user = userEvent.setup();
    renderChatPage();
    await screen.findByText('Doomed message');

    await user.click(within(chatItem('Only chat')).getByRole('button', { name: 'Delete chat' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.to(/delete_chat/, 'GET')).toHaveLength(0);

    await user.click(within(chatItem('Only chat')).getByRole('button', { name: 'Delete chat' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Chat deleted.')).toBeInTheDocument();
    expect(api.to('/api/v1/chat/delete_chat/c1', 'GET')).toHaveLength(1);
    expect(screen.queryByText('Doomed message')).not.toBeInTheDocument();
    expect(screen.getByText('No chat selected')).toBeInTheDocument();
    expect(screen.getByText('No messages yet. Try one of these:')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send message' })).not.toBeInTheDocument();
  });

  it('after deleting the selected chat the first remaining chat of the reloaded list is selected', async () => {
    useApi({
      chats: [chatRecord('c1', 'First'), chatRecord('c2', 'Second')],
      conversations: {
        c1: [messageRecord('m1', 'c1', 'user', 'First message')],
        c2: [messageRecord('m2', 'c2', 'user', 'Second message')],
      },
    });
    const user = userEvent.setup();
    renderChatPage();
    await screen.findByText('First message');
    await user.click(within(chatItem('First')).getByRole('button', { name: 'Delete chat' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Second message')).toBeInTheDocument();
    expect(screen.queryByText('First message')).not.toBeInTheDocument();
    expect(selectedTitle()).toBe('Second');
  });

  it('toasts a failed delete and keeps the chat', async () => {
    useApi({ chats: [chatRecord('c1', 'Kept')] });
    api.state.failing.add('/api/v1/chat/delete_chat/c1');
    const user = userEvent.setup();
    renderChatPage();
    await findChat('Kept');
    await user.click(within(chatItem('Kept')).getByRole('button', { name: 'Delete chat' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete chat.')).toBeInTheDocument();
    expect(within(chatList()).getByText('Kept')).toBeInTheDocument();
  });
});
