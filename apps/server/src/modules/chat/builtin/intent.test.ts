import { describe, expect, it } from 'vitest';
import { parseIntent } from './intent';

const now = new Date('2025-03-14T15:00:00Z');
const read = (topic: 'trading' | 'accounts' | 'candles', text: string) => parseIntent(topic, text, now);

describe('reading trading questions', () => {
  it.each([
    ['Show my open trades', { state: 'open', sort: 'newest', limit: 10, outcome: 'any' }],
    [
      'What were my top 3 winners today?',
      { state: 'closed', outcome: 'winners', sort: 'pl_desc', limit: 3, period: 'today' },
    ],
    ['List all trades with stop-loss orders', { state: 'all', stop_loss: 'with', limit: 50 }],
    ['top 5 losers this week', { outcome: 'losers', sort: 'pl_asc', limit: 5, period: 'this_week' }],
    ['my ten biggest losses last month', { outcome: 'losers', limit: 10, period: 'last_month' }],
    [
      'best 2 trades on GBP/USD yesterday',
      { outcome: 'winners', limit: 2, instrument: 'GBP_USD', period: 'yesterday' },
    ],
    ['open positions without take profit', { state: 'open', take_profit: 'without' }],
    ['trades with no SL', { stop_loss: 'without' }],
    [
      'closed usdjpy trades in the past 14 days',
      { state: 'closed', instrument: 'USD_JPY', period: 'last_n_days', days: 14 },
    ],
    ['trades from 2025-03-01 to 2025-03-07', { period: 'range', from: '2025-03-01', to: '2025-03-07' }],
    ['oldest trades on cable', { sort: 'oldest', instrument: 'GBP_USD' }],
  ])('"%s"', (text, args) => {
    expect(read('trading', text)).toEqual({ kind: 'trades', args: expect.objectContaining(args) });
  });

  it('reads results questions as performance', () => {
    expect(read('trading', 'How did I do in the last 7 days?')).toEqual({
      kind: 'performance',
      args: { period: 'last_n_days', days: 7 },
    });
    expect(read('trading', "what's my win rate on EUR/USD this month")).toEqual({
      kind: 'performance',
      args: { period: 'this_month', instrument: 'EUR_USD' },
    });
  });

  it('says when it does not understand, pointing to another topic when that fits', () => {
    expect(read('trading', 'good morning')).toEqual({ kind: 'help' });
    expect(read('trading', 'show me a chart')).toEqual({ kind: 'help', otherTopic: 'candles' });
    expect(read('trading', 'what is my balance')).toEqual({ kind: 'help', otherTopic: 'accounts' });
  });
});

describe('reading account questions', () => {
  it.each([
    ['What is my current account balance?', 'balance'],
    ['What is my margin utilization?', 'margin'],
    ['how much free margin do I have', 'margin'],
    ['NAV please', 'nav'],
    ['unrealised p/l', 'unrealized'],
    ['account overview', 'overview'],
  ])('"%s" → %s', (text, focus) => {
    expect(read('accounts', text)).toEqual({ kind: 'account', args: {}, focus });
  });

  it('reads performance with its period, and an account id when given', () => {
    expect(read('accounts', 'Show last month performance')).toEqual({
      kind: 'performance',
      args: { period: 'last_month' },
    });
    expect(read('accounts', 'P&L this week')).toEqual({ kind: 'performance', args: { period: 'this_week' } });
    expect(read('accounts', 'balance of 101-004-1234567-002')).toEqual({
      kind: 'account',
      args: { account_id: '101-004-1234567-002' },
      focus: 'balance',
    });
  });
});

describe('reading candle questions', () => {
  it.each([
    ['Get 5-minute candles for EUR/USD', { instrument: 'EUR_USD', granularity: 'M5' }],
    ['Fetch hourly candles for GBP/USD', { instrument: 'GBP_USD', granularity: 'H1' }],
    ['Show daily candles for USD/JPY', { instrument: 'USD_JPY', granularity: 'D' }],
    ['candles for EUR/USD on the 15 minute chart', { instrument: 'EUR_USD', granularity: 'M15' }],
    ['last 30 one-minute candles of eur-usd', { instrument: 'EUR_USD', granularity: 'M1', count: 30 }],
    ['4h chart for gold', { instrument: 'XAU_USD', granularity: 'H4' }],
    ['weekly candles', { granularity: 'W' }],
    ['EURUSD M15 50 bars', { instrument: 'EUR_USD', granularity: 'M15', count: 50 }],
    ['show me a few candles', {}],
  ])('"%s"', (text, args) => {
    expect(read('candles', text)).toEqual({ kind: 'candles', args });
  });

  it('does not read "5-minute" as a count of five', () => {
    expect(read('candles', 'Get 5 minute candles')).toEqual({ kind: 'candles', args: { granularity: 'M5' } });
  });

  it('asks for a candle question otherwise', () => {
    expect(read('candles', 'thanks!')).toEqual({ kind: 'help' });
  });
});

describe('reading rules questions (docs/rules.md, The assistant)', () => {
  it.each([
    'How much can I still lose today?',
    'how much more can i lose today',
    "What's my daily loss room?",
    "what's today's loss limit left",
    'How far am I from the daily loss limit?',
    'how much is left to lose before the daily floor',
    'remaining daily drawdown?',
    'How much could I risk today before hitting my daily loss?',
  ])('"%s" asks for today\'s room', (text) => {
    expect(read('trading', text)).toEqual({ kind: 'ruleToday' });
    expect(read('accounts', text)).toEqual({ kind: 'ruleToday' });
  });

  it.each([
    ['Am I on track for my FTMO challenge?', 'ftmo'],
    ['am i on track?', undefined],
    ['Did I pass the FTMO evaluation yet', 'ftmo'],
    ['how is my challenge going', undefined],
    ['status of my rules', undefined],
    ['How is my The5ers account doing against the rules', 'the5ers'],
    ['prop firm progress', undefined],
  ])('"%s" asks for the standing', (text, firm) => {
    expect(read('trading', text)).toEqual({ kind: 'ruleTrack', ...(firm ? { firm } : {}) });
  });

  it.each([
    'Which of my rules do I break most, and what did it cost?',
    'what rules did I violate the most?',
    'my rule breaks: which cost me most',
    'How often do I breach my rules?',
    'which rule have I broken most often',
  ])('"%s" asks for the breaks', (text) => {
    expect(read('trading', text)).toEqual({ kind: 'ruleBreaks' });
  });

  it.each([
    'Top 5 losers today',
    'my biggest losses today',
    'losing trades closed today',
    'How did I do today?',
    'trades with no SL',
    'What is my balance?',
  ])('leaves "%s" to the trades and accounts questions', (text) => {
    expect(read('trading', text).kind).not.toMatch(/^rule/);
    expect(read('accounts', text).kind).not.toMatch(/^rule/);
  });

  it('is not read in a candles chat', () => {
    expect(read('candles', 'How much can I still lose today?').kind).not.toMatch(/^rule/);
  });
});
