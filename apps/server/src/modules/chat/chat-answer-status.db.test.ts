import type { Kysely } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestDb } from '../../test/harness';
import { migrateTo } from '../../test/migrate-to';
import type { Db } from '../../db/client';
import type { Database } from '../../db/schema';

/* 016-chat-answer-status on a database holding answers from before: answered ones complete, failed ones failed. */

type Schema014 = Omit<Database, 'chat_messages'> & {
  chat_messages: Omit<Database['chat_messages'], 'status' | 'updated_at'>;
};

let db: Db;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ db, close } = await createTestDb());
});
afterEach(() => close());

it('marks every stored message complete, failed answers failed, and keeps their text', async () => {
  const old = db.kysely as unknown as Kysely<Schema014>;
  await migrateTo(old, '014-sync-schedules');
  const at = '2025-03-01T00:00:00.000Z';
  await old
    .insertInto('users')
    .values({
      id: 'u',
      username: 'u',
      username_key: 'u',
      email: 'u@x.io',
      password_hash: 'h',
      created_at: at,
      updated_at: at,
    })
    .execute();
  await old
    .insertInto('chats')
    .values({ id: 'c', user_id: 'u', title: 'T', topic: 'trading', created_at: at, updated_at: at })
    .execute();
  const message = (id: string, role: string, content: string, failed: number) => ({
    id,
    chat_id: 'c',
    user_id: 'u',
    role,
    content,
    provider: role === 'user' ? null : 'openai',
    model: role === 'user' ? null : 'gpt-4o',
    attachments: '[]',
    failed,
    created_at: at,
  });
  await old
    .insertInto('chat_messages')
    .values([
      message('q', 'user', 'Show my open trades', 0),
      message('a', 'assistant', 'You have 2 open trades.', 0),
      message('f', 'assistant', 'The answer was cancelled before it was complete.', 1),
    ])
    .execute();

  await migrateTo(db.kysely, '016-chat-answer-status');
  const rows = await db.kysely
    .selectFrom('chat_messages')
    .select(['id', 'content', 'failed', 'status', 'updated_at'])
    .orderBy('id')
    .execute();
  expect(rows.map((r) => ({ ...r, failed: Number(r.failed) }))).toEqual([
    { id: 'a', content: 'You have 2 open trades.', failed: 0, status: 'complete', updated_at: null },
    {
      id: 'f',
      content: 'The answer was cancelled before it was complete.',
      failed: 1,
      status: 'failed',
      updated_at: null,
    },
    { id: 'q', content: 'Show my open trades', failed: 0, status: 'complete', updated_at: null },
  ]);
});
