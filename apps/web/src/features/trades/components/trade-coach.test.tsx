import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { deferred, fakeApi, failure, ok, type Reply } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { GET_TRADE_REVIEW, REVIEW_TRADE, review, tradeReviewBody, tradeReviewData } from '../../../test/coach-fixtures';
import { TradeCoachSection } from './trade-coach';

const ACCOUNT = '101-004-27183640-001';

const renderSection = async () => {
  renderWithProviders(<TradeCoachSection accountId={ACCOUNT} tradeId="5253" />);
  return screen.findByRole('region', { name: 'Coach' });
};
const fact = (section: HTMLElement, text: string) =>
  within(within(section).getByRole('list', { name: 'Facts' }))
    .getByText(text)
    .closest('li')!;

beforeEach(() => localStorage.setItem('token', JSON.stringify('test-token')));

describe("The trade's Coach section", () => {
  it('shows the stored review, its score and rubric, its source, the patterns and the cited facts marked', async () => {
    const api = fakeApi({ [GET_TRADE_REVIEW]: () => ok(tradeReviewBody()) });
    const section = await renderSection();
    await within(section).findByText('You traded with the H4 trend.');
    expect(api.to(`/api/v1/coach/get_trade_review/${ACCOUNT}/5253`, 'GET')).toHaveLength(1);
    expect(within(section).getByRole('list', { name: 'Went well' })).toHaveTextContent('Your stop sat outside');
    expect(within(section).getByRole('list', { name: 'To improve' })).toHaveTextContent('You gave back 1.2R.');
    expect(within(section).getByRole('list', { name: 'Next time' })).toHaveTextContent('Move the stop to break-even');
    expect(within(section).getByLabelText('Execution score 3 out of 5')).toHaveTextContent('Score 3/5');
    expect(within(section).getByText(/5: plan followed and exit managed/)).toBeInTheDocument();
    expect(within(section).getByText('Written by: built-in analysis')).toBeInTheDocument();
    expect(within(section).getByRole('list', { name: 'Patterns' })).toHaveTextContent('Early exits');
    // Every fact a point cites is marked; the session is cited by none.
    expect(fact(section, 'The exit kept 25 % of the best move.')).toHaveClass('coach-fact-cited');
    expect(fact(section, 'It was opened in the London session.')).not.toHaveClass('coach-fact-cited');
    expect(within(section).queryByText(/stale/)).not.toBeInTheDocument();
  });

  it('highlights the facts a point cites while it is hovered or focused', async () => {
    fakeApi({ [GET_TRADE_REVIEW]: () => ok(tradeReviewBody()) });
    const section = await renderSection();
    const point = await within(section).findByText('You traded with the H4 trend.');
    const user = userEvent.setup();
    await user.hover(point);
    expect(fact(section, 'The trade went with the H4 trend.')).toHaveClass('coach-fact-active');
    expect(fact(section, 'The H4 50-EMA rose 0.8 pips a candle.')).toHaveAttribute('aria-current', 'true');
    expect(fact(section, 'The stop sat 1.8 ATR(14) away.')).not.toHaveClass('coach-fact-active');
    await user.unhover(point);
    expect(fact(section, 'The trade went with the H4 trend.')).not.toHaveClass('coach-fact-active');

    // The keyboard reaches the same: a point takes focus.
    within(section).getByText('You kept 25 % of the move.').focus();
    await waitFor(() => expect(fact(section, 'The exit kept 25 % of the best move.')).toHaveClass('coach-fact-active'));
    expect(fact(section, 'The trade went with the H4 trend.')).not.toHaveClass('coach-fact-active');
  });

  it('reviews an unreviewed trade on the button, with a progress indicator, and names the model that wrote it', async () => {
    const held = deferred<Reply>();
    const api = fakeApi({
      [GET_TRADE_REVIEW]: () => ok(tradeReviewBody(tradeReviewData({ review: null, source: null, createdAt: null }))),
      [REVIEW_TRADE]: () => held.promise,
    });
    const section = await renderSection();
    const button = await within(section).findByRole('button', { name: 'Review this trade' });
    expect(within(section).queryByText('Went well')).not.toBeInTheDocument();
    await userEvent.click(button);
    expect(await within(section).findByText('Writing the review…')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Review this trade' })).toBeDisabled();
    held.resolve(ok(tradeReviewBody(tradeReviewData({ source: 'gpt-4o-mini' }))));
    expect(await within(section).findByText('Written by: gpt-4o-mini')).toBeInTheDocument();
    expect(api.to(`/api/v1/coach/review_trade/${ACCOUNT}/5253`, 'POST')).toHaveLength(1);
    expect(within(section).queryByText('Writing the review…')).not.toBeInTheDocument();
  });

  it('says a stale review is stale and reviews it again', async () => {
    const api = fakeApi({
      [GET_TRADE_REVIEW]: () => ok(tradeReviewBody(tradeReviewData({ stale: true }))),
      [REVIEW_TRADE]: () =>
        ok(
          tradeReviewBody(
            tradeReviewData({
              review: review({ action: { text: 'Let the winner run to 2R.', facts: ['r_left_on_table'] } }),
            }),
          ),
        ),
    });
    const section = await renderSection();
    const notice = await within(section).findByText(/This review is stale/);
    await userEvent.click(
      within(notice.closest('[role="status"]') as HTMLElement).getByRole('button', { name: 'Review again' }),
    );
    expect(await within(section).findByText('Let the winner run to 2R.')).toBeInTheDocument();
    expect(within(section).queryByText(/This review is stale/)).not.toBeInTheDocument();
    expect(api.to(/review_trade/, 'POST')).toHaveLength(1);
  });

  it.each([
    [
      429,
      'The daily review limit is reached.',
      'Too many reviews asked for: The daily review limit is reached. Try again later.',
    ],
    [409, 'A review is in progress.', 'A review of this trade is already being written: A review is in progress.'],
    [500, 'Database unavailable', 'The review could not be written: Database unavailable'],
  ])('shows a %i from review_trade clearly', async (status, message, shown) => {
    fakeApi({
      [GET_TRADE_REVIEW]: () => ok(tradeReviewBody(tradeReviewData({ review: null, source: null, createdAt: null }))),
      [REVIEW_TRADE]: () => failure(status, message),
    });
    const section = await renderSection();
    await userEvent.click(await within(section).findByRole('button', { name: 'Review this trade' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(shown);
    expect(within(section).getByRole('button', { name: 'Review this trade' })).toBeEnabled();
  });

  it('says when the review cannot be loaded', async () => {
    fakeApi({ [GET_TRADE_REVIEW]: () => failure(404, 'Trade not found') });
    const section = await renderSection();
    expect(await within(section).findByRole('alert')).toHaveTextContent(
      'The review could not be loaded: Trade not found',
    );
  });
});
