import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, ok } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import {
  GET_PLAYBOOKS,
  GET_TRADE_PLAYBOOK,
  playbook,
  playbooksBody,
  tradeReview,
  tradeReviewBody,
  UPDATE_TRADE_PLAYBOOK,
} from '../../../test/playbook-fixtures';
import { TradePlaybookSection } from './trade-playbook';

const ACCOUNT = '101-004-27183640-001';
const SAVE = `/api/v1/playbook/update_trade_playbook/${ACCOUNT}/5253`;

/** The routes around a stored review; a save stores what was sent (every rule followed, as the tests send). */
function serve(review = tradeReview()) {
  let stored = review;
  return fakeApi({
    [GET_PLAYBOOKS]: () => ok(playbooksBody([playbook(), playbook({ id: 'pb-2', name: 'Pullback', groups: [] })])),
    [GET_TRADE_PLAYBOOK]: () => ok(tradeReviewBody(stored)),
    [UPDATE_TRADE_PLAYBOOK]: (call) => {
      stored = tradeReview({
        playbookId: (call.body!.playbookId as string | null) ?? null,
        reviewed: call.body!.reviewed as boolean,
        followedRuleIds: call.body!.followedRuleIds as string[],
        followedAll: true,
      });
      return ok(tradeReviewBody(stored));
    },
  });
}

describe("The trade's Playbook section", () => {
  it('shows the rules by group with their ticks, the retired rule as retired, and the broke state', async () => {
    serve();
    renderWithProviders(<TradePlaybookSection accountId={ACCOUNT} tradeId="5253" />);
    const section = await screen.findByRole('region', { name: 'Playbook' });
    await waitFor(() => expect(within(section).getByLabelText('Playbook')).toHaveValue('pb-1'));
    expect(within(section).getByRole('status')).toHaveTextContent('Broke a rule');
    const entry = within(section).getByRole('group', { name: 'Entry' });
    expect(within(entry).getByLabelText('Price at a higher-timeframe level')).toBeChecked();
    expect(within(entry).getByLabelText('Candle closes outside the range')).not.toBeChecked();
    const retired = within(entry).getByLabelText(/Wait for the news to pass/);
    expect(retired).toBeChecked();
    expect(retired).toBeDisabled();
    expect(within(entry).getByText('retired')).toBeInTheDocument();
    expect(within(section).getByRole('group', { name: 'Risk' })).toBeInTheDocument();
    expect(within(section).getByLabelText('Reviewed')).toBeChecked();
  });

  it("saves the ticks of the playbook's current rules and the review state", async () => {
    const api = serve();
    renderWithProviders(<TradePlaybookSection accountId={ACCOUNT} tradeId="5253" />);
    const section = await screen.findByRole('region', { name: 'Playbook' });
    await userEvent.click(await within(section).findByLabelText('Candle closes outside the range'));
    await userEvent.click(within(section).getByRole('button', { name: 'Save review' }));
    await waitFor(() => expect(api.to(SAVE)).toHaveLength(1));
    expect(api.to(SAVE)[0]!.body).toEqual({
      playbookId: 'pb-1',
      followedRuleIds: ['r-level', 'r-close', 'r-risk'],
      reviewed: true,
    });
    expect(await within(section).findByText('Followed all')).toBeInTheDocument();
  });

  it('starts an unreviewed review when another playbook is chosen, and sends none to unassign', async () => {
    const api = serve(
      tradeReview({ playbookId: null, reviewed: false, followedRuleIds: [], followedAll: null, rules: [] }),
    );
    renderWithProviders(<TradePlaybookSection accountId={ACCOUNT} tradeId="5253" />);
    const section = await screen.findByRole('region', { name: 'Playbook' });
    const select = await within(section).findByLabelText('Playbook');
    await userEvent.selectOptions(select, 'pb-1');
    expect(within(section).getByLabelText('Not reviewed yet')).not.toBeChecked();
    expect(within(section).getByLabelText('Risk at most 1 %')).not.toBeChecked();
    await userEvent.selectOptions(select, '');
    await userEvent.click(within(section).getByRole('button', { name: 'Save review' }));
    await waitFor(() => expect(api.to(SAVE)).toHaveLength(1));
    expect(api.to(SAVE)[0]!.body).toEqual({ playbookId: null, followedRuleIds: [], reviewed: false });
  });
});
