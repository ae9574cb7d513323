import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { COACH_PATTERNS, DEFAULT_COACH_SETTINGS } from '@pipsense/contract';
import { account, accountPage, metaTraderAccount } from '../../../test/account-fixtures';
import { deferred, fakeApi, failure, ok, type Reply } from '../../../test/fake-api';
import { GET_INFO, metaTraderInfoBody } from '../../../test/info-fixtures';
import { findOpenDialog, renderWithProviders } from '../../../test/render';
import {
  GET_PATTERNS,
  GET_SETTINGS,
  patternResult,
  patternsBody,
  settingsBody,
  UPDATE_SETTINGS,
} from '../../../test/coach-fixtures';
import { PatternsPage } from './patterns-page';

const ALL = COACH_PATTERNS.map((pattern) =>
  pattern === 'revenge_trading'
    ? patternResult()
    : patternResult({ pattern, count: 0, trades: [], netPL: null, averageR: null, definition: `${pattern} rule.` }),
);

const PATTERNS = '/api/v1/coach/get_patterns';
const ACCOUNTS = '/api/v1/account/get_accounts';
const optionsOf = (select: HTMLElement) => [...(select as HTMLSelectElement).options].map((o) => o.textContent);

/** The screen a link opened, showing the router state the link gave it. */
function RouterState() {
  return <pre data-testid="router-state">{JSON.stringify(useLocation().state)}</pre>;
}

beforeEach(() => localStorage.setItem('token', JSON.stringify('test-token')));

describe('the Patterns screen', () => {
  it('shows a card per pattern with its definition, count and cost, linking to the trade list filtered by it', async () => {
    fakeApi({ [GET_PATTERNS]: () => ok(patternsBody(ALL)) });
    renderWithProviders(<PatternsPage />, { path: '/coach/patterns' });
    const card = await screen.findByRole('region', { name: 'Revenge trading' });
    for (const name of [
      'Overtrading',
      'Size escalation',
      'Off-session trading',
      'Holding losers',
      'Stop moved away',
      'Early exits',
    ])
      expect(screen.getByRole('region', { name })).toBeInTheDocument();
    expect(card).toHaveTextContent('A trade opened within 30 minutes after a losing trade');
    expect(card).toHaveTextContent('2 trades');
    expect(within(card).getByText('-120.50 USD')).toHaveClass('text-danger');
    expect(within(card).getByText('340.25 USD')).toHaveClass('text-success');
    expect(card).toHaveTextContent('-0.75R vs the others +0.40R');
    expect(within(card).getByRole('link', { name: 'Show the revenge trading trades' })).toHaveAttribute(
      'href',
      '/trades/all_trades?pattern=revenge_trading',
    );
    // A pattern with no trade has nothing to list, and says so rather than setting a dash against the others.
    const none = screen.getByRole('region', { name: 'Overtrading' });
    expect(within(none).queryByRole('link')).not.toBeInTheDocument();
    expect(none).toHaveTextContent('No trade flagged, so nothing to compare.');
    expect(none).not.toHaveTextContent('vs the others');
  });

  it('sends the range and account, and carries them into the trade list link', async () => {
    const api = fakeApi({ [GET_PATTERNS]: () => ok(patternsBody(ALL)) });
    renderWithProviders(<PatternsPage />, { path: '/coach/patterns?from=2026-11-01&to=2026-11-20&accountId=acc-1' });
    const card = await screen.findByRole('region', { name: 'Revenge trading' });
    const sent = api.to('/api/v1/coach/get_patterns')[0]!.search;
    expect(sent.get('from')).toBe(new Date('2026-11-01T00:00:00.000').toISOString());
    expect(sent.get('to')).toBe(new Date('2026-11-20T23:59:59.999').toISOString());
    expect(sent.get('accountId')).toBe('acc-1');
    expect(within(card).getByRole('link')).toHaveAttribute(
      'href',
      '/trades/all_trades?pattern=revenge_trading&from=2026-11-01&to=2026-11-20&accountId=acc-1',
    );
  });

  it('applies new filters and refuses an inverted range without asking the server', async () => {
    const api = fakeApi({ [GET_PATTERNS]: () => ok(patternsBody(ALL)) });
    renderWithProviders(<PatternsPage />, { path: '/coach/patterns' });
    await screen.findByRole('region', { name: 'Revenge trading' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Opened from'), '2026-11-10');
    await user.type(screen.getByLabelText('Opened to'), '2026-11-01');
    expect(screen.getByRole('alert')).toHaveTextContent('The ‘from’ day is after the ‘to’ day');
    expect(screen.getByRole('button', { name: 'Apply filters' })).toBeDisabled();
    await user.clear(screen.getByLabelText('Opened to'));
    await user.type(screen.getByLabelText('Opened to'), '2026-11-30');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(api.to('/api/v1/coach/get_patterns')).toHaveLength(2));
    expect(api.to('/api/v1/coach/get_patterns')[1]!.search.get('from')).toBe(
      new Date('2026-11-10T00:00:00.000').toISOString(),
    );
  });

  it('asks for the chosen platform’s patterns with its accounts, and opens the trade list on that platform', async () => {
    const mt5 = metaTraderAccount('FTMO-Demo', '5100231', { alias: 'FTMO' });
    const metaTrader = deferred<Reply>();
    const api = fakeApi({
      [GET_PATTERNS]: ({ search }) => (search.has('platform') ? metaTrader.promise : ok(patternsBody(ALL))),
      [ACCOUNTS]: ({ search }) => ok(accountPage(search.get('platform') === 'metatrader' ? [mt5] : [account()])),
    });
    const user = userEvent.setup();
    renderWithProviders(
      <Routes>
        <Route path="/coach/patterns" element={<PatternsPage />} />
        <Route path="/trades/all_trades" element={<RouterState />} />
      </Routes>,
      { path: '/coach/patterns?accountId=101-004-27183640-001' },
    );
    await screen.findByRole('region', { name: 'Revenge trading' });
    // OANDA, the server's default: no platform named, OANDA's accounts only.
    expect(api.to(PATTERNS)[0]!.search.has('platform')).toBe(false);
    const accountSelect = screen.getByLabelText('Account');
    await waitFor(() => expect(optionsOf(accountSelect)).toContain('Primary · 101-004-27183640-001 (OANDA)'));
    expect(optionsOf(accountSelect)).not.toContain('FTMO · 5100231 (MetaTrader)');

    await user.click(screen.getByRole('button', { name: 'Trading platform: OANDA' }));
    await user.click(screen.getByRole('button', { name: /MetaTrader/ }));
    await waitFor(() => expect(api.to(PATTERNS).at(-1)!.search.get('platform')).toBe('metatrader'));
    // OANDA's patterns never stand in for MetaTrader's while they load.
    expect(screen.getByRole('status', { name: 'Loading patterns' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Revenge trading' })).not.toBeInTheDocument();
    metaTrader.resolve(ok(patternsBody(ALL)));
    // The OANDA account chosen names no MetaTrader trade: the filter lets it go.
    expect(api.to(PATTERNS).at(-1)!.search.has('accountId')).toBe(false);
    await waitFor(() => expect(optionsOf(screen.getByLabelText('Account'))).toContain('FTMO · 5100231 (MetaTrader)'));
    expect(optionsOf(screen.getByLabelText('Account'))).not.toContain('Primary · 101-004-27183640-001 (OANDA)');
    const card = await screen.findByRole('region', { name: 'Revenge trading' });
    await user.click(within(card).getByRole('link', { name: 'Show the revenge trading trades' }));
    expect(await screen.findByTestId('router-state')).toHaveTextContent('{"platform":"MetaTrader"}');
  });

  it('names no platform with no data (TradeView) and asks nothing for it', async () => {
    const api = fakeApi({ [GET_PATTERNS]: () => ok(patternsBody(ALL)) });
    const user = userEvent.setup();
    renderWithProviders(<PatternsPage />, { path: '/coach/patterns' });
    await screen.findByRole('region', { name: 'Revenge trading' });
    await user.click(screen.getByRole('button', { name: 'Trading platform: OANDA' }));
    await user.click(screen.getByRole('button', { name: /TradeView/ }));
    expect(screen.getByText('TradeView is not connected')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Revenge trading' })).not.toBeInTheDocument();
    expect(api.to(PATTERNS)).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Show OANDA patterns' }));
    expect(await screen.findByRole('region', { name: 'Revenge trading' })).toBeInTheDocument();
  });

  it('opens on the trader’s default platform (MetaTrader), never asking for OANDA’s patterns first', async () => {
    const api = fakeApi({
      [GET_INFO]: () => ok(metaTraderInfoBody()),
      [GET_PATTERNS]: () => ok(patternsBody(ALL)),
    });
    renderWithProviders(<PatternsPage />, { path: '/coach/patterns' });
    await screen.findByRole('region', { name: 'Revenge trading' });
    expect(screen.getByRole('button', { name: 'Trading platform: MetaTrader' })).toBeInTheDocument();
    expect(api.to(PATTERNS).map((c) => c.search.get('platform'))).toEqual(['metatrader']);
  });

  it('says when the range holds no closed trade', async () => {
    fakeApi({
      [GET_PATTERNS]: () =>
        ok(
          patternsBody(
            COACH_PATTERNS.map((pattern) =>
              patternResult({
                pattern,
                count: 0,
                trades: [],
                netPL: null,
                othersNetPL: null,
                averageR: null,
                othersAverageR: null,
              }),
            ),
          ),
        ),
    });
    renderWithProviders(<PatternsPage />, { path: '/coach/patterns' });
    expect(await screen.findByText('No closed trades in this range')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Revenge trading' })).not.toBeInTheDocument();
  });

  it('shows a failure with the server’s message and a way to try again', async () => {
    let fail = true;
    fakeApi({ [GET_PATTERNS]: () => (fail ? failure(500, 'Database unavailable') : ok(patternsBody(ALL))) });
    renderWithProviders(<PatternsPage />, { path: '/coach/patterns' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your patterns could not be loaded');
    expect(alert).toHaveTextContent('Database unavailable');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Revenge trading' })).toBeInTheDocument();
  });
});

describe('the coach settings', () => {
  it('loads the settings and saves every field, with the thresholds as numbers', async () => {
    const api = fakeApi({
      [GET_PATTERNS]: () => ok(patternsBody(ALL)),
      [GET_SETTINGS]: () => ok(settingsBody()),
      [UPDATE_SETTINGS]: (call) => ok(settingsBody({ ...DEFAULT_COACH_SETTINGS, ...(call.body as object) })),
    });
    renderWithProviders(<PatternsPage />, { path: '/coach/patterns' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Coach settings' }));
    const dialog = await findOpenDialog();
    const auto = await within(dialog).findByLabelText('Review new closed trades automatically');
    expect(auto).not.toBeChecked();
    expect(dialog).toHaveTextContent('Until this is on, automatic and weekly reviews use the built-in analysis');
    await user.click(auto);
    await user.click(within(dialog).getByLabelText('AI-written reviews'));
    await user.click(within(dialog).getByLabelText('Email my weekly review'));
    await user.selectOptions(within(dialog).getByLabelText('Day'), 'Sunday');
    await user.selectOptions(within(dialog).getByLabelText('Hour'), '18:00');
    const revenge = within(dialog).getByLabelText('Revenge window (minutes)');
    expect(revenge).toHaveAccessibleDescription(/after a losing trade closed/);
    await user.clear(revenge);
    await user.type(revenge, '45');
    const ratio = within(dialog).getByLabelText('Holding ratio');
    await user.clear(ratio);
    await user.type(ratio, '2.5');
    await user.click(within(dialog).getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(api.to('/api/v1/coach/update_settings', 'POST')).toHaveLength(1));
    expect(api.to('/api/v1/coach/update_settings')[0]!.body).toEqual({
      autoReview: true,
      aiWritten: true,
      weeklyDay: 7,
      weeklyHour: 18,
      emailWeekly: true,
      thresholds: { ...DEFAULT_COACH_SETTINGS.thresholds, revengeMinutes: 45, holdingRatio: 2.5 },
    });
    expect(await screen.findByText('Coach settings saved')).toBeInTheDocument();
  });

  it('marks a threshold out of range and sends nothing, and shows the server’s refusal', async () => {
    const api = fakeApi({
      [GET_PATTERNS]: () => ok(patternsBody(ALL)),
      [GET_SETTINGS]: () => ok(settingsBody()),
      [UPDATE_SETTINGS]: () => ({
        status: 400,
        body: {
          success: false,
          message: 'weeklyHour must be an hour from 0 to 23',
          code: 'VALIDATION_FAILED',
          requestId: 'r',
          issues: [{ path: 'thresholds.escalationLosses', message: 'Too many losses' }],
        },
      }),
    });
    renderWithProviders(<PatternsPage />, { path: '/coach/patterns' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Coach settings' }));
    const dialog = await findOpenDialog();
    const percentile = await within(dialog).findByLabelText('Overtrading percentile');
    await user.clear(percentile);
    await user.type(percentile, '30');
    await user.click(within(dialog).getByRole('button', { name: 'Save settings' }));
    expect(
      within(dialog).getByText('Overtrading percentile must be a whole number from 50 to 99.'),
    ).toBeInTheDocument();
    expect(percentile).toHaveClass('is-invalid');
    expect(api.to('/api/v1/coach/update_settings')).toHaveLength(0);

    await user.clear(percentile);
    await user.type(percentile, '95');
    await user.click(within(dialog).getByRole('button', { name: 'Save settings' }));
    expect(await within(dialog).findByText('weeklyHour must be an hour from 0 to 23')).toHaveAttribute('role', 'alert');
    expect(within(dialog).getByText('Too many losses')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Losses before escalation')).toHaveClass('is-invalid');
  });

  it('says when the settings cannot be loaded', async () => {
    fakeApi({ [GET_PATTERNS]: () => ok(patternsBody(ALL)), [GET_SETTINGS]: () => failure(500, 'Settings broke') });
    renderWithProviders(<PatternsPage />, { path: '/coach/patterns' });
    await userEvent.click(await screen.findByRole('button', { name: 'Coach settings' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The coach settings could not be loaded: Settings broke',
    );
  });
});
