import { describe, expect, it } from 'vitest';
import { headingFromPath } from './heading';

describe('headingFromPath', () => {
  it.each([
    ['/', 'Dashboard'],
    ['', 'Dashboard'],
    ['/overview', 'Overview'],
    ['/trades/all_trades', 'All Trades'],
    ['/accounts/my_accounts', 'My Accounts'],
    ['/rules/my_rules', 'My Rules'],
    ['/chat/ai_chat', 'AI Chat'],
    ['/settings/ai_platforms', 'AI Platforms'],
    ['/settings/trading_platforms/', 'Trading Platforms'],
    ['/x/new%20ideas_ai', 'New ideas AI'],
  ])('%s → %s', (path, heading) => {
    expect(headingFromPath(path)).toBe(heading);
  });
});
