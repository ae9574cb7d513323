import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ruleSchema, type RuleInput, type RulePreset, type StoredRuleSet } from '@pipsense/contract';
import { fakeApi, failure, ok, type Route } from '../../../test/fake-api';
import { account, accountPage } from '../../../test/account-fixtures';
import { findOpenDialog, renderWithProviders } from '../../../test/render';
import {
  CREATE_RULE_SET,
  EDIT_RULE_SET,
  GET_ACCOUNTS,
  GET_DAYS,
  GET_PRESETS,
  GET_RULE_SETS,
  GET_STATUS,
  daysBody,
  presetsBody,
  ruleSet,
  ruleSetsBody,
  statusBody,
} from '../../../test/rules-fixtures';
import { RulesPage } from './rules-page';

const PRAGUE = { resetTime: '00:00', zone: 'Europe/Prague' };
const rules = (list: RuleInput[]) => list.map((rule) => ruleSchema.parse(rule));

/** FTMO 2-Step's challenge rules as the server stores them (defaults filled). */
const FTMO_RULES = rules([
  { kind: 'profit_target', effect: 'fail', params: { pct: 10 } },
  { kind: 'daily_loss', effect: 'fail', params: { pct: 5, ...PRAGUE } },
  { kind: 'max_loss', effect: 'fail', params: { pct: 10 } },
  { kind: 'min_trading_days', effect: 'fail', params: { min: 4, rule: 'opened', ...PRAGUE } },
]);

/** The personal preset's rules. */
const PERSONAL_RULES = rules([
  {
    kind: 'daily_loss',
    effect: 'pause_until_reset',
    params: { pct: 2, allowanceBase: 'anchor', measure: 'balance', comparator: 'lte', resetTime: '00:00', zone: 'UTC' },
  },
  { kind: 'max_risk_per_trade', effect: 'pause_until_reset', params: { pct: 1, basis: 'balance' } },
  { kind: 'max_trades_per_day', effect: 'pause_until_reset', params: { max: 3 } },
  { kind: 'max_consecutive_losses', effect: 'pause_until_reset', params: { max: 3 } },
]);

const FTMO_PRESET: RulePreset = {
  id: 'ftmo-2step-challenge',
  name: 'FTMO 2-Step: FTMO Challenge',
  source: 'FTMO, Trading Objectives: https://ftmo.com/en/trading-objectives',
  assumptions: ['Daily loss measured on equity against the balance at 00:00 Prague (anchor: start_balance)'],
  rules: FTMO_RULES,
};

const PERSONAL = ruleSet({ id: 'rs-2', name: 'My limits', preset: 'personal', rules: PERSONAL_RULES });

/** The page around the given sets; an edit answers with the set as sent unless `extra` says otherwise. */
function serve(sets: StoredRuleSet[], extra: Record<string, Route> = {}) {
  let current = sets;
  return fakeApi({
    [GET_PRESETS]: () => ok(presetsBody([FTMO_PRESET])),
    [GET_RULE_SETS]: () => ok(ruleSetsBody(current)),
    [GET_ACCOUNTS]: (call) =>
      ok(
        accountPage(
          call.search.get('platform') === 'metatrader'
            ? [account({ oandaAccountId: 'mt5-5100231', platform: 'metatrader', login: '5100231' })]
            : [],
        ),
      ),
    [GET_STATUS]: () => ok(statusBody()),
    [GET_DAYS]: () => ok(daysBody([])),
    [EDIT_RULE_SET]: (call) => {
      const body = call.body as { rules: RuleInput[] };
      current = current.map((set) => (set.id === call.params.id ? { ...set, rules: rules(body.rules) } : set));
      return ok({ success: true, message: 'Edited', data: current.find((set) => set.id === call.params.id) });
    },
    ...extra,
  });
}

const editBodies = (api: ReturnType<typeof serve>, id: string) =>
  api.to(`/api/v1/rules/edit_rule_set/${id}`, 'POST').map((call) => call.body);

beforeEach(() => localStorage.setItem('token', JSON.stringify('test-token')));

describe('Rules on a set’s card', () => {
  it('lists a preset’s rules in plain words with its assumptions', async () => {
    serve([ruleSet({ rules: FTMO_RULES })]);
    renderWithProviders(<RulesPage />);
    const list = await screen.findByRole('list', { name: 'Rules of FTMO challenge' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Profit target: 10 % of the initial balance in closed profit, every position closed — an objective',
      'Daily loss: 5 % of the initial balance, from the day’s start balance, on equity, resets 00:00 Europe/Prague — fails the phase',
      'Max loss: 10 % of the initial balance, a static floor, on equity — fails the phase',
      'Trading days: at least 4, a day counting when a position is opened — an objective',
    ]);
    const card = screen.getByRole('region', { name: 'FTMO challenge' });
    expect(card).toHaveTextContent(
      'Assumptions:Daily loss measured on equity against the balance at 00:00 Prague (anchor: start_balance)',
    );
    expect(card).toHaveTextContent('Source: FTMO, Trading Objectives');
  });

  it('changes a personal limit and sends the whole list with only that limit changed', async () => {
    const api = serve([PERSONAL]);
    const user = userEvent.setup();
    renderWithProviders(<RulesPage />);
    await user.click(await screen.findByRole('button', { name: 'Edit rules of My limits' }));
    const form = screen.getByRole('form', { name: 'Rules of My limits' });
    // The focus moves into the form, to its first input.
    expect(within(form).getAllByLabelText('Limit as')[0]).toHaveFocus();
    const trades = within(form).getByRole('group', { name: /Trades per day/ });
    const max = within(trades).getByLabelText('At most (trades a day)');
    expect(max).toHaveValue(3);
    await user.clear(max);
    await user.type(max, '5');
    await user.click(within(form).getByRole('button', { name: 'Save rules' }));
    expect(await screen.findByRole('list', { name: 'Rules of My limits' })).toHaveTextContent(
      'Trades per day: at most 5 opened — pauses trading until the reset',
    );
    expect(editBodies(api, 'rs-2')).toEqual([
      {
        rules: [
          {
            kind: 'daily_loss',
            effect: 'pause_until_reset',
            params: {
              pct: 2,
              allowanceBase: 'anchor',
              anchor: 'start_balance',
              measure: 'balance',
              check: 'continuous',
              comparator: 'lte',
              bookingAtReset: 'in_anchor',
              resetTime: '00:00',
              zone: 'UTC',
            },
          },
          { kind: 'max_risk_per_trade', effect: 'pause_until_reset', params: { pct: 1, basis: 'balance' } },
          { kind: 'max_trades_per_day', effect: 'pause_until_reset', params: { max: 5 } },
          { kind: 'max_consecutive_losses', effect: 'pause_until_reset', params: { max: 3 } },
        ],
      },
    ]);
  });

  it('adds a rule of a kind not yet present, removes one, and moves the day’s reset of every rule naming it', async () => {
    const api = serve([PERSONAL]);
    const user = userEvent.setup();
    renderWithProviders(<RulesPage />);
    await user.click(await screen.findByRole('button', { name: 'Edit rules of My limits' }));
    const form = screen.getByRole('form', { name: 'Rules of My limits' });
    const toAdd = within(form).getByLabelText('Rule to add');
    // One rule per kind: the kinds the set holds are not offered.
    expect(within(toAdd).queryByRole('option', { name: 'Trades per day' })).not.toBeInTheDocument();
    await user.selectOptions(toAdd, 'no_weekend_holding');
    await user.click(within(form).getByRole('button', { name: 'Add rule' }));
    await user.click(within(form).getByRole('button', { name: 'Remove Risk per trade' }));
    await waitFor(() => expect(within(form).getByLabelText('Rule to add')).toHaveFocus());
    await user.click(within(form).getByRole('button', { name: 'Remove Daily loss' }));
    await user.selectOptions(within(form).getByLabelText('Rule to add'), 'daily_loss');
    await user.click(within(form).getByRole('button', { name: 'Add rule' }));
    const daily = within(form).getByRole('group', { name: /Daily loss/ });
    await user.selectOptions(within(daily).getByLabelText('Limit as'), 'amount');
    await user.type(within(daily).getByLabelText('Limit (amount)'), '1500');
    await user.clear(within(form).getByLabelText('Time zone'));
    await user.type(within(form).getByLabelText('Time zone'), 'Europe/Prague');
    await user.click(within(form).getByRole('button', { name: 'Save rules' }));
    await screen.findByRole('list', { name: 'Rules of My limits' });
    expect(editBodies(api, 'rs-2')).toEqual([
      {
        rules: [
          { kind: 'max_trades_per_day', effect: 'pause_until_reset', params: { max: 3 } },
          { kind: 'max_consecutive_losses', effect: 'pause_until_reset', params: { max: 3 } },
          { kind: 'no_weekend_holding', effect: 'fail', params: {} },
          {
            kind: 'daily_loss',
            effect: 'fail',
            params: {
              amount: '1500',
              allowanceBase: 'initial',
              anchor: 'start_balance',
              measure: 'equity',
              check: 'continuous',
              comparator: 'lt',
              bookingAtReset: 'in_anchor',
              resetTime: '00:00',
              zone: 'Europe/Prague',
            },
          },
        ],
      },
    ]);
  });

  it('shows the server’s message at the form and keeps what was typed', async () => {
    const api = serve([PERSONAL], {
      [EDIT_RULE_SET]: () => failure(400, 'max must be a whole number of 0 or more', 'VALIDATION'),
    });
    const user = userEvent.setup();
    renderWithProviders(<RulesPage />);
    await user.click(await screen.findByRole('button', { name: 'Edit rules of My limits' }));
    const form = screen.getByRole('form', { name: 'Rules of My limits' });
    const max = within(form).getByLabelText('At most (trades a day)');
    await user.clear(max);
    await user.type(max, '2.5');
    await user.click(within(form).getByRole('button', { name: 'Save rules' }));
    // The contract's own check names the rule the server's message is about, and marks it.
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Trades per day: max must be a whole number of 0 or more',
    );
    expect(within(form).getByRole('group', { name: /Trades per day/ })).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByRole('group', { name: /Losses in a row/ })).not.toHaveAttribute('aria-invalid');
    expect(within(form).getByLabelText('At most (trades a day)')).toHaveValue(2.5);
    expect(editBodies(api, 'rs-2')).toHaveLength(1);

    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Rules of My limits' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit rules of My limits' })).toHaveFocus());
    expect(screen.getByRole('list', { name: 'Rules of My limits' })).toHaveTextContent('Trades per day: at most 3');
  });

  it('builds a custom set from an empty list in the add form', async () => {
    let sets: StoredRuleSet[] = [];
    const api = serve([], {
      [GET_RULE_SETS]: () => ok(ruleSetsBody(sets)),
      [CREATE_RULE_SET]: (call) => {
        const body = call.body as { name: string; rules: RuleInput[] };
        sets = [ruleSet({ id: 'rs-3', name: body.name, preset: null, rules: rules(body.rules) })];
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
    await user.selectOptions(within(dialog).getByLabelText('Preset'), 'custom');
    expect(dialog).toHaveTextContent('No rules yet: add the first one below.');
    await user.selectOptions(within(dialog).getByLabelText('Rule to add'), 'max_trades_per_day');
    await user.click(within(dialog).getByRole('button', { name: 'Add rule' }));
    const max = within(dialog).getByLabelText('At most (trades a day)');
    await user.clear(max);
    await user.type(max, '2');
    await user.clear(within(dialog).getByLabelText('Reset time (HH:MM)'));
    await user.type(within(dialog).getByLabelText('Reset time (HH:MM)'), '07:00');
    await user.clear(within(dialog).getByLabelText('Time zone'));
    await user.type(within(dialog).getByLabelText('Time zone'), 'Europe/London');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('list', { name: 'Rules of Custom rules' })).toHaveTextContent(
      'Trades per day: at most 2 opened — pauses trading until the reset',
    );
    expect(api.to('/api/v1/rules/create_rule_set', 'POST').map((call) => call.body)).toEqual([
      {
        accountId: 'mt5-5100231',
        name: 'Custom rules',
        rules: [
          {
            kind: 'max_trades_per_day',
            effect: 'pause_until_reset',
            params: { max: 2, resetTime: '07:00', zone: 'Europe/London' },
          },
        ],
      },
    ]);
  });
});
