import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, ok } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { BULK_ASSIGN, GET_PLAYBOOKS, playbook, playbooksBody } from '../../../test/playbook-fixtures';
import { toggleSelection } from '../model/trade-selection';
import { BulkPlaybookBar } from './bulk-playbook-bar';

const selection = toggleSelection(
  new Map(),
  [
    { accountId: 'A', tradeId: '1' },
    { accountId: 'B', tradeId: '2' },
  ],
  true,
);

describe('Assign to playbook', () => {
  it('assigns every selected trade to the chosen playbook, or takes them off theirs', async () => {
    const api = fakeApi({
      [GET_PLAYBOOKS]: () => ok(playbooksBody([playbook()])),
      [BULK_ASSIGN]: () => ok({ success: true, message: 'OK', data: { updated: 2 } }),
    });
    const onDone = vi.fn();
    renderWithProviders(<BulkPlaybookBar selection={selection} onDone={onDone} />);
    const select = await screen.findByLabelText('Playbook for the selected trades');
    const button = screen.getByRole('button', { name: 'Assign to playbook' });
    expect(button).toBeDisabled();
    await waitFor(() => expect(select).toBeEnabled());
    await userEvent.selectOptions(select, 'pb-1');
    await userEvent.click(button);
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(await screen.findByText('Assigned 2 trades to “London breakout”.')).toBeInTheDocument();
    await userEvent.selectOptions(select, 'none');
    await userEvent.click(button);
    await waitFor(() => expect(api.to('/api/v1/playbook/bulk_assign')).toHaveLength(2));
    expect(api.to('/api/v1/playbook/bulk_assign').map((c) => c.body)).toEqual([
      {
        trades: [
          { accountId: 'A', tradeId: '1' },
          { accountId: 'B', tradeId: '2' },
        ],
        playbookId: 'pb-1',
      },
      {
        trades: [
          { accountId: 'A', tradeId: '1' },
          { accountId: 'B', tradeId: '2' },
        ],
        playbookId: null,
      },
    ]);
  });
});
