import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, ok, type Route } from '../../../test/fake-api';
import { findOpenDialog, renderWithProviders } from '../../../test/render';
import {
  CREATE_MISSED,
  DELETE_MISSED,
  GET_MISSED,
  GET_PLAYBOOKS,
  missed,
  missedBody,
  missedOne,
  playbook,
  playbooksBody,
} from '../../../test/playbook-fixtures';
import { MissedTradesPage } from './missed-trades-page';

function serve(extra: Record<string, Route> = {}) {
  return fakeApi({
    [GET_PLAYBOOKS]: () => ok(playbooksBody([playbook()])),
    [GET_MISSED]: () =>
      ok(
        missedBody([
          missed(),
          missed({
            id: 'm-2',
            instrument: 'GBP_USD',
            side: 'short',
            playbookId: null,
            target: null,
            outcome: 'unavailable',
            wouldBeR: null,
            outcomeTime: null,
            outcomeNote: 'No candles for GBP_USD after this time yet.',
            note: '',
          }),
        ]),
      ),
    ...extra,
  });
}

describe('Missed Trades', () => {
  it('lists each missed trade with its prices, playbook, outcome and would-be R', async () => {
    serve();
    renderWithProviders(<MissedTradesPage />, { path: '/journal/missed_trades' });
    const list = await screen.findByRole('list', { name: 'Missed trades' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('EUR/USD');
    expect(first).toHaveTextContent('Target hit');
    expect(first).toHaveTextContent('would-be +2.00R');
    await waitFor(() => expect(first).toHaveTextContent('London breakout'));
    expect(first).toHaveTextContent('Hesitated after a loss.');
    expect(second).toHaveTextContent('Unavailable');
    expect(second).toHaveTextContent('No candles for GBP_USD after this time yet.');
    expect(second).toHaveTextContent('None');
    expect(second).not.toHaveTextContent('would-be');
  });

  it("checks the form with the contract's messages, then shows the server's by field", async () => {
    const api = serve({
      [CREATE_MISSED]: () => ({
        status: 400,
        body: {
          success: false,
          message: 'target must be above entry for a long and below it for a short',
          code: 'VALIDATION_FAILED',
          requestId: 'r',
          issues: [{ path: 'target', message: 'target must be above entry for a long and below it for a short' }],
        },
      }),
    });
    renderWithProviders(<MissedTradesPage />, { path: '/journal/missed_trades' });
    await userEvent.click(await screen.findByRole('button', { name: 'Log a missed trade' }));
    const dialog = await findOpenDialog();
    await userEvent.type(within(dialog).getByLabelText('Instrument'), 'eurusd');
    await userEvent.type(within(dialog).getByLabelText('Entry'), '1.0850');
    await userEvent.type(within(dialog).getByLabelText('Stop'), '1.0900');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('instrument must look like EUR_USD')).toBeInTheDocument();
    expect(
      within(dialog).getByText('stop must be below entry for a long and above it for a short'),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Time')).toHaveClass('is-invalid');
    expect(api.to('/api/v1/playbook/create_missed_trade')).toHaveLength(0);

    const instrument = within(dialog).getByLabelText('Instrument');
    await userEvent.clear(instrument);
    await userEvent.type(instrument, 'eur_usd');
    const stop = within(dialog).getByLabelText('Stop');
    await userEvent.clear(stop);
    await userEvent.type(stop, '1.0820');
    await userEvent.type(within(dialog).getByLabelText('Time'), '2026-11-03T09:30');
    await userEvent.type(within(dialog).getByLabelText('Target (optional)'), '1.0910');
    await userEvent.selectOptions(within(dialog).getByLabelText('Playbook'), 'pb-1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('target must be above entry for a long and below it for a short'),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Target (optional)')).toHaveClass('is-invalid');
    expect(api.to('/api/v1/playbook/create_missed_trade')[0]!.body).toEqual({
      instrument: 'EUR_USD',
      side: 'long',
      time: new Date('2026-11-03T09:30').toISOString(),
      playbookId: 'pb-1',
      entry: '1.0850',
      stop: '1.0820',
      target: '1.0910',
      note: '',
    });
  });

  it('deletes a missed trade after the confirmation', async () => {
    const api = serve({ [DELETE_MISSED]: () => ok(missedOne(missed())) });
    renderWithProviders(<MissedTradesPage />, { path: '/journal/missed_trades' });
    const list = await screen.findByRole('list', { name: 'Missed trades' });
    await userEvent.click(within(list).getAllByRole('button', { name: /^Delete EUR\/USD long/ })[0]!);
    const dialog = await findOpenDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete missed trade' }));
    await waitFor(() => expect(api.to('/api/v1/playbook/delete_missed_trade/m-1', 'POST')).toHaveLength(1));
  });
});
