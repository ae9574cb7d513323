import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat, ConversationMessage } from '@pipsense/contract';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const create = (token: string, title: unknown, topic: unknown = 'trading') =>
  t.call(token, { method: 'POST', url: '/api/v1/chat/create_chat', payload: { title, topic } });
const list = async (token: string, topic = 'trading') => {
  const res = await t.call(token, { method: 'GET', url: `/api/v1/chat/get_chats?topic=${topic}` });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: Chat[] }>().data;
};
const conversation = (token: string, chatId: string) =>
  t.call(token, { method: 'GET', url: `/api/v1/conversation/get_conversations/${chatId}` });
const ask = (token: string, chatId: string, query: string) =>
  t.call(token, { method: 'POST', url: '/api/v1/query/oanda/trade', payload: { query, chatId, mode: 'demo' } });

describe('chats', () => {
  it('creates chats per topic and lists them newest first, only the topic asked for', async () => {
    const u = await t.user();
    const first = await create(u.token, 'First');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      success: true,
      message: 'Chat created successfully!',
      data: { title: 'First', topic: 'trading' },
    });
    await create(u.token, 'Second');
    await create(u.token, 'Balances', 'accounts');

    const trading = await list(u.token);
    expect(trading.map((c) => c.title)).toEqual(['Second', 'First']);
    expect(trading[0]).toEqual({
      _id: expect.any(String),
      title: 'Second',
      topic: 'trading',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await list(u.token, 'accounts')).map((c) => c.title)).toEqual(['Balances']);
    expect(await list(u.token, 'candles')).toEqual([]);
  });

  it('trims titles and refuses empty, blank or over-long ones with a clear message', async () => {
    const u = await t.user();
    const trimmed = await create(u.token, '   Scalps  ');
    expect(trimmed.json<{ data: Chat }>().data.title).toBe('Scalps');
    expect((await create(u.token, 'x'.repeat(100))).statusCode).toBe(200);

    for (const [title, message] of [
      ['', 'Chat Title is required.'],
      ['    ', 'Chat Title is required.'],
      ['x'.repeat(101), 'Chat Title must be at most 100 characters.'],
      [undefined, 'Chat Title is required.'],
    ] as const) {
      const res = await create(u.token, title);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message });
    }
    const badTopic = await create(u.token, 'Fine', 'crypto');
    expect(badTopic.statusCode).toBe(400);
    expect(badTopic.json().message).toBe('topic must be trading, accounts or candles');
    expect((await list(u.token)).map((c) => c.title)).toEqual(['x'.repeat(100), 'Scalps']);
  });

  it('renames a chat with the same title rules', async () => {
    const u = await t.user();
    const chat = (await create(u.token, 'Old')).json<{ data: Chat }>().data;
    const res = await t.call(u.token, {
      method: 'POST',
      url: `/api/v1/chat/edit_chat/${chat._id}`,
      payload: { title: '  New name ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Chat title updated.',
      data: { _id: chat._id, title: 'New name' },
    });
    const blank = await t.call(u.token, {
      method: 'POST',
      url: `/api/v1/chat/edit_chat/${chat._id}`,
      payload: { title: ' ' },
    });
    expect(blank.statusCode).toBe(400);
    expect((await list(u.token))[0]?.title).toBe('New name');
  });

  it('deletes a chat with its messages', async () => {
    const u = await t.user();
    const chat = (await create(u.token, 'Doomed')).json<{ data: Chat }>().data;
    const keep = (await create(u.token, 'Kept')).json<{ data: Chat }>().data;
    expect((await ask(u.token, chat._id, 'hello')).statusCode).toBe(200);
    expect((await ask(u.token, keep._id, 'hello')).statusCode).toBe(200);

    const res = await t.call(u.token, { method: 'GET', url: `/api/v1/chat/delete_chat/${chat._id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Chat deleted.' });
    expect((await list(u.token)).map((c) => c.title)).toEqual(['Kept']);
    expect((await conversation(u.token, chat._id)).statusCode).toBe(404);

    const { createDb } = await import('../../db/client');
    const db = createDb({ dataDir: t.dataDir, databaseUrl: t.env.DATABASE_URL });
    const rows = await db.kysely
      .selectFrom('chat_messages')
      .select(['chat_id'])
      .where('chat_id', 'in', [chat._id, keep._id])
      .execute();
    await db.close();
    expect(rows.map((r) => r.chat_id)).toEqual([keep._id, keep._id]);
  });

  it("never shows or changes another user's chat: 404 'Chat not found.' and nothing changes", async () => {
    const owner = await t.user();
    const other = await t.user();
    const chat = (await create(owner.token, 'Mine')).json<{ data: Chat }>().data;
    await ask(owner.token, chat._id, 'Show my open trades');

    const attempts = [
      t.call(other.token, { method: 'POST', url: `/api/v1/chat/edit_chat/${chat._id}`, payload: { title: 'Hacked' } }),
      t.call(other.token, { method: 'GET', url: `/api/v1/chat/delete_chat/${chat._id}` }),
      conversation(other.token, chat._id),
      ask(other.token, chat._id, 'Show my open trades'),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, message: 'Chat not found.' });
    }
    expect(await list(other.token)).toEqual([]);
    const mine = await list(owner.token);
    expect(mine.map((c) => c.title)).toEqual(['Mine']);
    expect((await conversation(owner.token, chat._id)).json<{ conversations: unknown[] }>().conversations).toHaveLength(
      2,
    );
  });

  it('lists a conversation oldest first with the message fields of the contract', async () => {
    const u = await t.user();
    const chat = (await create(u.token, 'Thread')).json<{ data: Chat }>().data;
    for (const q of ['first question', 'second question'])
      expect((await ask(u.token, chat._id, q)).statusCode).toBe(200);
    const res = await conversation(u.token, chat._id);
    expect(res.statusCode).toBe(200);
    const { conversations } = res.json<{ conversations: ConversationMessage[] }>();
    expect(conversations.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(conversations[0]).toEqual({
      _id: expect.any(String),
      chatId: chat._id,
      role: 'user',
      content: 'first question',
      createdAt: expect.any(String),
      provider: null,
      model: null,
      attachments: [],
      failed: false,
      status: 'complete',
    });
    expect(conversations[2]?.content).toBe('second question');
    expect(conversations[1]).toMatchObject({ role: 'assistant', provider: 'builtin', status: expect.any(String) });
  });

  it('requires a session', async () => {
    const res = await t.call(undefined, { method: 'GET', url: '/api/v1/chat/get_chats?topic=trading' });
    expect(res.statusCode).toBe(401);
  });
});
