import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { StoredRuleSet } from '@pipsense/contract';
import { fakeApi, failure, ok, type Route } from '../../../test/fake-api';
import { account, accountPage } from '../../../test/account-fixtures';
import { renderWithProviders } from '../../../test/render';
import { browserTimeZone } from '../../../lib/time-zone';
import {
  GET_ACCOUNTS,
  GET_RULE_SETS,
  GET_STATUS,
  ruleSet,
  ruleSetsBody,
  status,
  statusBody,
} from '../../../test/rules-fixtures';
import { formatReset } from '../model/rules-card';
import { RulesCard } from './rules-card';

const MT_ACCOUNT = account({
  oandaAccountId: 'mt5-5100231',
  platform: 'metatrader',
  login: '5100231',
  alias: 'FTMO Demo',
});

function serve(sets: StoredRuleSet[], extra: Record<string, Route> = {}) {
  return fakeApi({
    [GET_RULE_SETS]: () => ok(ruleSetsBody(sets)),
    [GET_ACCOUNTS]: (call) =>
      ok(accountPage(call.search.get('platform') === 'metatrader' ? [MT_ACCOUNT] : [account()])),
    [GET_STATUS]: () => ok(statusBody()),
    ...extra,
  });
}

const card = () => screen.findByRole('region', { name: 'Rules' });

beforeEach(() => localStorage.setItem('token', JSON.stringify('test-token')));

describe('the Overview’s Rules card', () => {
  it('shows nothing without a rule set', async () => {
    const api = serve([]);
    renderWithProviders(<RulesCard />);
    await waitFor(() => expect(api.calls.some((c) => c.path.endsWith('/get_rule_sets'))).toBe(true));
    expect(screen.queryByRole('region', { name: 'Rules' })).toBeNull();
  });

  it("shows an active set's state, today's room with the floor and reset, the max-loss room, target and days", async () => {
    serve([ruleSet()]);
    renderWithProviders(<RulesCard />);
    const region = await card();
    const set = await within(region).findByRole('listitem', { name: 'FTMO challenge' });
    const text = set.textContent ?? '';
    expect(text).toContain('FTMO Demo · 5100231 (MetaTrader)');
    expect(within(set).getByText('On track')).toBeInTheDocument();
    // Today: 3,200.00 of 100,000.00 is 3.20 %; the floor and the next reset in the Overview's zone.
    expect(text).toContain('Left to lose today3,200.00 USD · 3.20 %');
    const zone = browserTimeZone() ?? 'UTC';
    expect(text).toContain(`Floor 96,800.00 USD · resets ${formatReset('2026-11-27T23:00:00.000Z', zone)} (${zone})`);
    expect(text).toContain('To the max-loss floor8,000.00 USD · 8.00 %Floor 90,000.00 USD');
    expect(text).toContain('Profit target+1,800.00 USD · 18.00 %');
    expect(set.querySelector('[aria-label="Progress to the target of FTMO challenge"]')).not.toBeNull();
    expect(text).toContain('Trading days2 of 4');
    expect(within(region).getByRole('link', { name: 'Open My Rules' })).toHaveAttribute('href', '/rules/my_rules');
  });

  it('lists only the active sets: not breached, not passed, and started', async () => {
    const api = serve(
      [
        ruleSet({ id: 'rs-1', name: 'Running' }),
        ruleSet({ id: 'rs-2', name: 'Blown' }),
        ruleSet({ id: 'rs-3', name: 'Done' }),
        ruleSet({ id: 'rs-4', name: 'Paused', preset: 'personal' }),
        ruleSet({ id: 'rs-5', name: 'Next month', startTime: '2999-01-01T00:00:00.000Z' }),
      ],
      {
        [GET_STATUS]: (call) => {
          if (call.path.endsWith('/rs-2'))
            return ok(
              statusBody(status({ state: 'breached', breach: { rule: 'daily_loss', time: '2026-11-03T10:00:00Z' } })),
            );
          if (call.path.endsWith('/rs-3'))
            return ok(statusBody(status({ state: 'passed', passedAt: '2026-11-04T10:00:00Z' })));
          if (call.path.endsWith('/rs-4')) return ok(statusBody(status({ state: 'paused' })));
          return ok(statusBody());
        },
      },
    );
    renderWithProviders(<RulesCard />);
    const region = await card();
    await within(region).findByRole('listitem', { name: 'Paused' });
    expect(
      within(region)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-labelledby')),
    ).toHaveLength(2);
    expect(within(region).getByRole('listitem', { name: 'Running' })).toBeInTheDocument();
    expect(within(region).getByText('Paused until the reset')).toBeInTheDocument();
    expect(within(region).queryByText('Blown')).toBeNull();
    expect(within(region).queryByText('Done')).toBeNull();
    expect(within(region).queryByText('Next month')).toBeNull();
    // A set that has not started has no status to ask for.
    expect(api.calls.some((c) => c.path.endsWith('/rs-5'))).toBe(false);
  });

  it('shows nothing when every set is breached or passed', async () => {
    const api = serve([ruleSet()], {
      [GET_STATUS]: () => ok(statusBody(status({ state: 'passed', passedAt: '2026-11-04T10:00:00Z' }))),
    });
    renderWithProviders(<RulesCard />);
    await waitFor(() => expect(api.calls.some((c) => c.path.includes('/get_status/'))).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Rules' })).toBeNull();
  });

  it('says when a status cannot be loaded', async () => {
    serve([ruleSet()], { [GET_STATUS]: () => failure(500, 'The rules are down') });
    renderWithProviders(<RulesCard />);
    const region = await card();
    expect(
      await within(region).findByText('The status of FTMO challenge could not be loaded: The rules are down'),
    ).toBeInTheDocument();
  });
});

describe('formatReset', () => {
  it('reads the reset on the given zone’s clock', () => {
    const prague = formatReset('2026-11-27T23:00:00.000Z', 'Europe/Prague');
    expect(prague).toContain('00:00');
    expect(prague).toContain('28');
    expect(formatReset('2026-11-27T23:00:00.000Z', 'America/New_York')).toContain('18:00');
  });
});
