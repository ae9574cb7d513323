import { describe, expect, it } from 'vitest';
import { messageRecord } from '../test/chat-fixtures';
import {
  answerBeingWritten,
  FOLLOW_EVERY_MS,
  followInterval,
  noteOf,
  STOPPED_NOTE,
  withoutInFlight,
} from './answer-status';

const question = messageRecord('u1', 'c1', 'user', 'Show my open trades');
const writing = messageRecord('a1', 'c1', 'assistant', 'You have 2', { status: 'streaming' });
const done = messageRecord('a1', 'c1', 'assistant', 'You have 2 open trades.');

describe('following an answer still being written', () => {
  it('finds the answer being written and polls only while there is one', () => {
    expect(answerBeingWritten([question, writing])).toBe(writing);
    expect(answerBeingWritten([question, done])).toBeNull();
    expect(answerBeingWritten([])).toBeNull();
    expect(followInterval([question, writing])).toBe(FOLLOW_EVERY_MS);
    expect(followInterval([question, done])).toBe(false);
    expect(followInterval(undefined)).toBe(false);
  });

  it('notes a stopped answer that kept its text, not one whose text already says it was cancelled', () => {
    expect(noteOf({ status: 'cancelled', failed: false })).toBe(STOPPED_NOTE);
    expect(noteOf({ status: 'cancelled', failed: true })).toBeNull();
    expect(noteOf({ status: 'complete', failed: false })).toBeNull();
    expect(STOPPED_NOTE).toBe('The answer was cancelled before it was complete.');
  });

  it('leaves out the stored copies of the exchange the page is streaming itself', () => {
    const older = messageRecord('u0', 'c1', 'user', 'Earlier');
    expect(withoutInFlight([older, question, writing], { questionId: 'u1', answerId: 'a1' })).toEqual([older]);
    expect(withoutInFlight([older, question, writing], null)).toEqual([older, question, writing]);
    expect(withoutInFlight([older], {})).toEqual([older]);
  });
});
