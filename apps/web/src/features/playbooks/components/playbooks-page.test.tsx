import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, ok, type Route } from '../../../test/fake-api';
import { account, accountPage } from '../../../test/account-fixtures';
import { findOpenDialog, renderWithProviders } from '../../../test/render';
import { GET_ACCOUNTS } from '../../../test/rules-fixtures';
import {
  CREATE_PLAYBOOK,
  DELETE_PLAYBOOK,
  EDIT_PLAYBOOK,
  GET_PLAYBOOKS,
  GET_REPORT,
  playbook,
  playbookBody,
  playbooksBody,
  report,
  reportBody,
} from '../../../test/playbook-fixtures';
import { PlaybooksPage } from './playbooks-page';

function serve(extra: Record<string, Route> = {}) {
  return fakeApi({
    [GET_PLAYBOOKS]: () => ok(playbooksBody([playbook()])),
    [GET_REPORT]: () => ok(reportBody(report())),
    // The OANDA account; the MetaTrader list (asked with its platform) is empty.
    [GET_ACCOUNTS]: (call) => ok(accountPage(call.search.get('platform') === 'metatrader' ? [] : [account()])),
    ...extra,
  });
}

describe('Playbooks', () => {
  it('lists each playbook with its instruments, sessions, counts and follow rate', async () => {
    serve();
    renderWithProviders(<PlaybooksPage />, { path: '/journal/playbooks' });
    const card = await screen.findByRole('region', { name: 'London breakout' });
    expect(within(card).getByText('EUR/USD')).toBeInTheDocument();
    expect(within(card).getByText('London')).toBeInTheDocument();
    // 3 of the 4 reviewed trades followed every rule.
    expect(within(card).getByText('75 %')).toBeInTheDocument();
    expect(within(card).getByText('3 rules in 2 groups · risk 1 % a trade', { exact: false })).toBeInTheDocument();
  });

  it('creates a playbook from the suggested groups, leaving blank rows out', async () => {
    const api = serve({ [CREATE_PLAYBOOK]: () => ok(playbookBody(playbook({ id: 'pb-2', name: 'Pullback' }))) });
    renderWithProviders(<PlaybooksPage />, { path: '/journal/playbooks' });
    await userEvent.click(await screen.findByRole('button', { name: 'New playbook' }));
    const dialog = await findOpenDialog();
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Pullback');
    await userEvent.type(within(dialog).getByLabelText('Instruments'), 'eur/usd{Enter}');
    await userEvent.click(within(dialog).getByLabelText('New York'));
    await userEvent.type(within(dialog).getByLabelText('Rule 1 of Entry'), 'Trend on H4');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add group' }));
    await userEvent.type(within(dialog).getAllByLabelText('Name of group 5')[0]!, 'Timing');
    await userEvent.type(within(dialog).getByLabelText('Default risk % (optional)'), '0.5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save playbook' }));
    await waitFor(() => expect(api.to('/api/v1/playbook/create_playbook')).toHaveLength(1));
    expect(api.to('/api/v1/playbook/create_playbook')[0]!.body).toEqual({
      name: 'Pullback',
      description: '',
      instruments: ['EUR_USD'],
      sessions: ['New York'],
      groups: [
        { name: 'Entry', rules: [{ text: 'Trend on H4' }] },
        { name: 'Exit', rules: [] },
        { name: 'Risk', rules: [] },
        { name: 'Context', rules: [] },
        { name: 'Timing', rules: [] },
      ],
      defaultRiskPct: 0.5,
    });
  });

  it('keeps the ids of groups and rules on an edit, so the server keeps them; a rule removed is left out', async () => {
    const api = serve({ [EDIT_PLAYBOOK]: () => ok(playbookBody(playbook())) });
    renderWithProviders(<PlaybooksPage />, { path: '/journal/playbooks' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit London breakout' }));
    const dialog = await findOpenDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move group Risk up' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove rule 2 of Entry' }));
    const name = within(dialog).getByLabelText('Name of Risk');
    await userEvent.clear(name);
    await userEvent.type(name, 'Money');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save playbook' }));
    await waitFor(() => expect(api.to('/api/v1/playbook/edit_playbook/pb-1')).toHaveLength(1));
    expect(api.to('/api/v1/playbook/edit_playbook/pb-1')[0]!.body!.groups).toEqual([
      { id: 'g-risk', name: 'Money', rules: [{ id: 'r-risk', text: 'Risk at most 1 %' }] },
      { id: 'g-entry', name: 'Entry', rules: [{ id: 'r-level', text: 'Price at a higher-timeframe level' }] },
    ]);
  });

  it("shows the contract's message by field before sending, and the server's after", async () => {
    const api = serve({
      [CREATE_PLAYBOOK]: () => ({
        status: 400,
        body: {
          success: false,
          message: 'a playbook named Pullback exists already',
          code: 'VALIDATION_FAILED',
          requestId: 'r',
          issues: [{ path: 'name', message: 'a playbook named Pullback exists already' }],
        },
      }),
    });
    renderWithProviders(<PlaybooksPage />, { path: '/journal/playbooks' });
    await userEvent.click(await screen.findByRole('button', { name: 'New playbook' }));
    const dialog = await findOpenDialog();
    await userEvent.type(within(dialog).getByLabelText('Default risk % (optional)'), '150');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save playbook' }));
    expect(await within(dialog).findByText('name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('defaultRiskPct must be at most 100')).toBeInTheDocument();
    expect(api.to('/api/v1/playbook/create_playbook')).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('Name'), 'Pullback');
    const risk = within(dialog).getByLabelText('Default risk % (optional)');
    await userEvent.clear(risk);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save playbook' }));
    expect(await within(dialog).findByText('a playbook named Pullback exists already')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveClass('is-invalid');
  });

  it('deletes a playbook after the confirmation', async () => {
    const api = serve({ [DELETE_PLAYBOOK]: () => ok(playbookBody(playbook())) });
    renderWithProviders(<PlaybooksPage />, { path: '/journal/playbooks' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete London breakout' }));
    const dialog = await findOpenDialog();
    expect(dialog).toHaveTextContent('Its 5 trades lose the assignment');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete playbook' }));
    await waitFor(() => expect(api.to('/api/v1/playbook/delete_playbook/pb-1', 'POST')).toHaveLength(1));
  });

  it('opens a playbook with its report: the hand-checked figures, followed against broke, rules broken, missed', async () => {
    const api = serve();
    renderWithProviders(<PlaybooksPage />, { path: '/journal/playbooks?playbook=pb-1' });
    const figures = await screen.findByLabelText('Report figures');
    const figure = (label: string) => within(figures).getByText(label).nextElementSibling!;
    expect(figure('Trades')).toHaveTextContent('5');
    expect(figure('Win rate')).toHaveTextContent('60 %');
    expect(figure('Net P/L')).toHaveTextContent(/50\.00/);
    expect(figure('Profit factor')).toHaveTextContent('1.42');
    expect(figure('Expectancy')).toHaveTextContent(/10\.00.*\+0\.20R/);
    expect(figure('Average R')).toHaveTextContent('+0.20R');
    expect(figure('Follow rate')).toHaveTextContent('60 % of 5 reviewed');
    expect(figure('Missed')).toHaveTextContent('2 · would-be +3.50R');

    const compare = screen.getByRole('table', { name: 'Followed all rules against broke at least one' });
    const row = (label: string) => within(compare).getByRole('rowheader', { name: label }).closest('tr')!;
    expect(row('Trades')).toHaveTextContent(/Trades\s*3\s*2/);
    expect(row('Win rate')).toHaveTextContent('66.7 %50 %');
    expect(row('Net P/L')).toHaveTextContent(/120\.00.*-70\.00/);
    expect(row('Profit factor')).toHaveTextContent('5.000.22');
    expect(row('Average R')).toHaveTextContent('+0.67R-0.50R');

    const broken = screen.getByRole('list', { name: 'Rules broken' });
    expect(
      within(broken)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Price at a higher-timeframe levelbroken 2 times',
      'Wait for the news to passretiredbroken 1 time',
      'Risk at most 1 %never broken',
    ]);
    // The description is markdown kept as text: the script tag is words on the page.
    expect(screen.getByText('<script>alert(1)</script>')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Opened from'), '2026-11-01');
    await userEvent.selectOptions(screen.getByLabelText('Account'), '101-004-27183640-001');
    await waitFor(() => {
      const last = api.to('/api/v1/playbook/get_report/pb-1').at(-1)!;
      expect(last.search.get('accountId')).toBe('101-004-27183640-001');
      expect(last.search.get('from')).toBe(new Date('2026-11-01T00:00:00.000').toISOString());
    });
  });
});
