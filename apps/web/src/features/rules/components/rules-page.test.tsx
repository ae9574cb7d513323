import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StoredRuleSet } from '@pipsense/contract';
import { fakeApi, failure, ok, type Route } from '../../../test/fake-api';
import { account, accountPage } from '../../../test/account-fixtures';
import { alertRoutes, ruleAlert } from '../../../test/alert-fixtures';
import { findOpenDialog, renderWithProviders } from '../../../test/render';
import {
  CREATE_RULE_SET,
  day,
  daysBody,
  DELETE_RULE_SET,
  EDIT_RULE_SET,
  GET_ACCOUNTS,
  GET_DAYS,
  GET_HISTORY,
  GET_PRESETS,
  GET_RULE_SETS,
  GET_STATUS,
  historyBody,
  point,
  presetsBody,
  ruleSet,
  ruleSetsBody,
  status,
  statusBody,
} from '../../../test/rules-fixtures';
import { RulesPage } from './rules-page';

vi.mock('lightweight-charts', () => import('../../../test/lightweight-charts-fake'));

const MT_ACCOUNT = account({
  oandaAccountId: 'mt5-5100231',
  platform: 'metatrader',
  login: '5100231',
  alias: 'FTMO Demo',
});

/** The page's routes around the given rule sets; `extra` adds or replaces routes. */
function serve(sets: StoredRuleSet[], extra: Record<string, Route> = {}) {
  return fakeApi({
    [GET_PRESETS]: () => ok(presetsBody()),
    [GET_RULE_SETS]: () => ok(ruleSetsBody(sets)),
    [GET_ACCOUNTS]: (call) =>
      ok(accountPage(call.search.get('platform') === 'metatrader' ? [MT_ACCOUNT] : [account()])),
    ...alertRoutes([]),
    [GET_HISTORY]: () => ok(historyBody([point('2026-11-02T08:00:00Z', '100000', '100000')])),
    [GET_STATUS]: () => ok(statusBody()),
    [GET_DAYS]: () =>
      ok(
        daysBody([
          day({ date: '2026-11-02', closedPL: '1200.5', tradingDay: true }),
          day({
            date: '2026-11-03',
            lowestEquity: null,
            closedPL: '-300',
            tradingDay: true,
            breaks: ['max_trades_per_day'],
          }),
        ]),
      ),
    ...extra,
  });
}

beforeEach(() => localStorage.setItem('token', JSON.stringify('test-token')));

describe('RulesPage', () => {
  it('says what to do when there is no rule set yet', async () => {
    serve([]);
    renderWithProviders(<RulesPage />);
    expect(
      await screen.findByText('No rule sets yet: add one to see how much room is left today.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add rule set' })).toBeEnabled());
  });

  it('shows a set’s status at a glance, the preset’s assumptions and its days', async () => {
    serve([ruleSet()]);
    renderWithProviders(<RulesPage />);
    const card = await screen.findByRole('region', { name: 'FTMO challenge' });
    expect(await within(card).findByText('On track')).toBeInTheDocument();
    expect(within(card).getByText('3,200.00 USD')).toBeInTheDocument();
    expect(card).toHaveTextContent('3.20 % of the initial balance');
    expect(card).toHaveTextContent('Daily floor 96,800.00 USD');
    expect(card).toHaveTextContent('8,000.00 USD · 8.00 % of the initial balance');
    expect(card).toHaveTextContent('Floor 90,000.00 USD');
    expect(card).toHaveTextContent('+1,800.00 USD · 18.00 % of the target');
    expect(card).toHaveTextContent('2 of 4');
    expect(card).toHaveTextContent('FTMO Demo · 5100231 (MetaTrader)');
    expect(within(card).queryByText(/Closed P\/L only/)).not.toBeInTheDocument();
    expect(card).toHaveTextContent('Daily loss measured on equity against the balance at 00:00 Prague');

    const days = await within(card).findByRole('region', { name: 'Days of FTMO challenge' });
    const rows = within(days).getAllByRole('row').slice(1);
    // Newest first; a day whose equity was not known throughout has no lowest equity.
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['2026-11-03', '100,000.00 USD', '95,000.00 USD', '-', '-300.00 USD', 'Yes', 'Trades per day'],
      ['2026-11-02', '100,000.00 USD', '95,000.00 USD', '99,500.00 USD', '+1,200.50 USD', 'Yes', '-'],
    ]);
  });

  it('shows the last 31 days until all are asked for', async () => {
    const days = Array.from({ length: 40 }, (_, i) => day({ date: `2026-10-${String(i + 1).padStart(2, '0')}` }));
    serve([ruleSet()], { [GET_DAYS]: () => ok(daysBody(days)) });
    const user = userEvent.setup();
    renderWithProviders(<RulesPage />);
    const table = await screen.findByRole('region', { name: 'Days of FTMO challenge' });
    expect(within(table).getAllByRole('row')).toHaveLength(32);
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('2026-10-40');
    await user.click(screen.getByRole('button', { name: 'Show all 40 days' }));
    expect(within(table).getAllByRole('row')).toHaveLength(41);
    expect(screen.queryByRole('button', { name: /Show all/ })).not.toBeInTheDocument();
  });

  it('lists the best-day share and the trade-level limits, each held, broken or undecided', async () => {
    const base = status();
    serve([ruleSet({ preset: 'personal' })], {
      [GET_STATUS]: () =>
        ok(
          statusBody({
            ...base,
            state: 'paused',
            rules: [
              ...base.rules,
              {
                kind: 'consistency',
                unit: 'percent',
                limit: '50',
                used: '62.5',
                remaining: '-12.5',
                percentUsed: '125.00',
                floor: null,
                ok: false,
              },
              {
                kind: 'max_trades_per_day',
                unit: 'count',
                limit: 3,
                used: 2,
                remaining: 1,
                percentUsed: '66.67',
                floor: null,
                ok: true,
              },
            ],
          }),
        ),
    });
    renderWithProviders(<RulesPage />);
    const card = await screen.findByRole('region', { name: 'FTMO challenge' });
    expect(await within(card).findByText('Paused until the reset')).toBeInTheDocument();
    expect(card).toHaveTextContent('Best-day share62.50 % broken');
    expect(card).toHaveTextContent('Limit 50.00 %');
    expect(within(card).getByRole('list', { name: 'Other rules' })).toHaveTextContent('Trades per day: 2 of 3 held');
  });

  it('names the breaking rule and says when only closed P/L is known', async () => {
    serve([ruleSet()], {
      [GET_STATUS]: () =>
        ok(
          statusBody(
            status({
              state: 'breached',
              breach: { rule: 'daily_loss', time: '2026-11-03T14:05:00.000Z' },
              equityBasis: 'closed-only',
            }),
          ),
        ),
    });
    renderWithProviders(<RulesPage />);
    const card = await screen.findByRole('region', { name: 'FTMO challenge' });
    expect(await within(card).findByText('Breached')).toBeInTheDocument();
    expect(within(card).getByText(/^Daily loss at /)).toBeInTheDocument();
    expect(
      within(card).getByText('Closed P/L only: a breach by floating loss cannot be ruled out.'),
    ).toBeInTheDocument();
  });

  it('shows not enough data for an undecided status', async () => {
    serve([ruleSet()], { [GET_STATUS]: () => ok(statusBody(status({ state: 'unknown' }))) });
    renderWithProviders(<RulesPage />);
    const card = await screen.findByRole('region', { name: 'FTMO challenge' });
    expect(await within(card).findByText('Not enough data')).toBeInTheDocument();
  });

  it('adds a set from a preset, showing its source, and shows the server’s message when refused', async () => {
    let sets: StoredRuleSet[] = [];
    let refuse = true;
    const api = serve([], {
      [GET_RULE_SETS]: () => ok(ruleSetsBody(sets)),
      [CREATE_RULE_SET]: () => {
        if (refuse) return failure(400, 'initialBalance must be an amount above 0', 'VALIDATION');
        sets = [ruleSet()];
        return ok({ success: true, message: 'Created', data: sets[0] });
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<RulesPage />);
    const add = await screen.findByRole('button', { name: 'Add rule set' });
    await waitFor(() => expect(add).toBeEnabled());
    await user.click(add);
    const dialog = await findOpenDialog();
    await waitFor(() => expect(within(dialog).getByLabelText('Preset')).toBeEnabled());
    await user.selectOptions(within(dialog).getByLabelText('Account'), 'mt5-5100231');
    await user.selectOptions(within(dialog).getByLabelText('Preset'), 'ftmo-2step-challenge');
    expect(dialog).toHaveTextContent('Source: FTMO Trading Objectives');
    expect(dialog).toHaveTextContent('Daily loss measured on equity');
    await user.type(within(dialog).getByLabelText('Name'), 'FTMO challenge');
    await user.type(within(dialog).getByLabelText('Initial balance (optional)'), '0');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('initialBalance must be an amount above 0');

    refuse = false;
    await user.clear(within(dialog).getByLabelText('Initial balance (optional)'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('region', { name: 'FTMO challenge' })).toBeInTheDocument();
    const bodies = api.to('/api/v1/rules/create_rule_set', 'POST').map((call) => call.body);
    expect(bodies).toEqual([
      { accountId: 'mt5-5100231', name: 'FTMO challenge', preset: 'ftmo-2step-challenge', initialBalance: '0' },
      { accountId: 'mt5-5100231', name: 'FTMO challenge', preset: 'ftmo-2step-challenge' },
    ]);
  });

  it('renames a set, and deletes it only after the confirmation', async () => {
    let sets = [ruleSet()];
    const api = serve([], {
      [GET_RULE_SETS]: () => ok(ruleSetsBody(sets)),
      [EDIT_RULE_SET]: (call) => {
        sets = [ruleSet({ name: (call.body as { name: string }).name })];
        return ok({ success: true, message: 'Edited', data: sets[0] });
      },
      [DELETE_RULE_SET]: (call) => {
        sets = [];
        return ok({ success: true, message: 'Deleted', data: { id: call.params.id } });
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<RulesPage />);
    await user.click(await screen.findByRole('button', { name: 'Rename FTMO challenge' }));
    const input = screen.getByLabelText('New name');
    await user.clear(input);
    await user.type(input, 'FTMO phase 1{Enter}');
    expect(await screen.findByRole('region', { name: 'FTMO phase 1' })).toBeInTheDocument();
    expect(api.to('/api/v1/rules/edit_rule_set/rs-1', 'POST').map((c) => c.body)).toEqual([{ name: 'FTMO phase 1' }]);

    await user.click(screen.getByRole('button', { name: 'Delete FTMO phase 1' }));
    let dialog = await findOpenDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.to(/delete_rule_set/)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete FTMO phase 1' }));
    dialog = await findOpenDialog();
    const statusReads = api.to('/api/v1/rules/get_status/rs-1').length;
    await user.click(within(dialog).getByRole('button', { name: 'Delete rule set' }));
    expect(
      await screen.findByText('No rule sets yet: add one to see how much room is left today.'),
    ).toBeInTheDocument();
    expect(api.to('/api/v1/rules/delete_rule_set/rs-1', 'POST')).toHaveLength(1);
    // The deleted set's status is not asked again on its way out.
    expect(api.to('/api/v1/rules/get_status/rs-1')).toHaveLength(statusReads);
  });

  it('shows the server’s message when the sets cannot be loaded', async () => {
    serve([], { [GET_RULE_SETS]: () => failure(500, 'The database is not reachable.') });
    renderWithProviders(<RulesPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is not reachable.');
  });
});

describe('My Rules: alerts', () => {
  it('lists every alert, newest first, unread ones marked, and marks them all read', async () => {
    const alerts = [
      ruleAlert(),
      ruleAlert({
        id: 'al-2',
        threshold: 50,
        message: 'FTMO challenge: 50.2 % of the daily loss used (2,510.00 of 5,000.00 USD).',
        readAt: '2026-11-27T08:00:00.000Z',
      }),
    ];
    const api = serve([ruleSet()], alertRoutes(alerts));
    const user = userEvent.setup();
    renderWithProviders(<RulesPage />);
    const section = await screen.findByRole('region', { name: 'Alerts · 1 unread' });
    const items = await within(section).findAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.alert-message')?.textContent)).toEqual(
      alerts.map((a) => a.message),
    );
    expect(items[0]).toHaveClass('alert-unread');
    expect(items[1]).not.toHaveClass('alert-unread');

    await user.click(within(section).getByRole('button', { name: 'Mark all read' }));
    await screen.findByRole('region', { name: 'Alerts' });
    expect(api.to('/api/v1/rules/read_alerts', 'POST').map((c) => c.body)).toEqual([{}]);
    expect(section.querySelectorAll('.alert-unread')).toHaveLength(0);
  });

  it('says when there is no alert yet', async () => {
    serve([ruleSet()]);
    renderWithProviders(<RulesPage />);
    const section = await screen.findByRole('region', { name: 'Alerts' });
    expect(
      await within(section).findByText('No alerts yet. You are told here when a loss limit’s use crosses a threshold.'),
    ).toBeInTheDocument();
  });

  it('edits a set’s alert percents and email opt-in, showing the server’s message on bad input', async () => {
    let sets = [ruleSet()];
    const api = serve(sets, {
      [GET_RULE_SETS]: () => ok(ruleSetsBody(sets)),
      [EDIT_RULE_SET]: (call) => {
        const body = call.body as { alertThresholds: number[]; emailAlerts: boolean };
        if (body.alertThresholds.some((p) => p > 100))
          return failure(400, 'alertThresholds must be percents between 1 and 100', 'VALIDATION');
        sets = [ruleSet(body)];
        return ok({ success: true, message: 'Rule set saved', data: sets[0] });
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<RulesPage />);
    const card = await screen.findByRole('region', { name: 'FTMO challenge' });
    expect(card).toHaveTextContent('Alert at 50 %, 80 %, 100 % of the daily and maximum loss');

    await user.click(within(card).getByRole('button', { name: 'Edit alerts' }));
    const form = within(card).getByRole('form', { name: 'Alerts of FTMO challenge' });
    const percents = within(form).getByLabelText(/Alert at/);
    expect(percents).toHaveValue('50, 80, 100');
    await user.clear(percents);
    await user.type(percents, '60, 90 %, 120');
    await user.click(within(form).getByLabelText('Also email me'));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'alertThresholds must be percents between 1 and 100',
    );

    await user.clear(percents);
    await user.type(percents, '60, 90 %, 100');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(card).findByText('Saved')).toHaveAttribute('role', 'status');
    await waitFor(() =>
      expect(card).toHaveTextContent('Alert at 60 %, 90 %, 100 % of the daily and maximum loss · also by email'),
    );
    expect(api.to('/api/v1/rules/edit_rule_set/rs-1', 'POST').map((c) => c.body)).toEqual([
      { alertThresholds: [60, 90, 120], emailAlerts: true },
      { alertThresholds: [60, 90, 100], emailAlerts: true },
    ]);
  });

  it('asks for numbers before sending a text that is none', async () => {
    const api = serve([ruleSet()]);
    const user = userEvent.setup();
    renderWithProviders(<RulesPage />);
    const card = await screen.findByRole('region', { name: 'FTMO challenge' });
    await user.click(within(card).getByRole('button', { name: 'Edit alerts' }));
    const percents = within(card).getByLabelText(/Alert at/);
    await user.clear(percents);
    await user.type(percents, '50, eighty');
    await user.click(within(card).getByRole('button', { name: 'Save' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'Write the percents as numbers separated by commas, such as 50, 80, 100.',
    );
    expect(api.to('/api/v1/rules/edit_rule_set/rs-1')).toEqual([]);
  });
});
