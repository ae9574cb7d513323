import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InfoRecord } from '@pipsense/contract';
import { describe, expect, it } from 'vitest';
import { failure, fakeApi, ok } from '../../../test/fake-api';
import { accountPage, metaTraderAccount } from '../../../test/account-fixtures';
import { GET_INFO, infoBody, infoRoutes, UPDATE_INFO } from '../../../test/info-fixtures';
import { findOpenDialog, renderWithProviders } from '../../../test/render';
import { TradingPlatformsPage } from './trading-platforms-page';

const unconfigured: InfoRecord = {
  default_ai_platfrom: 'vertexai',
  default_trading_platfrom: 'OANDA',
  oanda: { accessToken: '', accountId: '', mode: '' },
};
const configured: InfoRecord = {
  default_ai_platfrom: 'openai',
  default_trading_platfrom: 'OANDA',
  oanda: { accessToken: '••••4f2a', accountId: '101-001-1234567-001', mode: 'live' },
};

const ACCOUNTS = '/api/v1/account/get_accounts';

async function openOanda() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: /^OANDA,/ }));
  const dialog = await findOpenDialog();
  return { user, dialog };
}

describe('Trading Platforms', () => {
  it('shows the three platforms, OANDA Inactive until a token is saved', async () => {
    fakeApi(infoRoutes(unconfigured));
    renderWithProviders(<TradingPlatformsPage />);
    expect(await screen.findByRole('button', { name: 'OANDA, Inactive: open OANDA Configuration' })).toBeVisible();
    expect(screen.getByRole('button', { name: /^MetaTrader 4\/5, Inactive/ })).toBeVisible();
    expect(screen.getByRole('button', { name: /^TradingView, Inactive/ })).toBeVisible();
  });

  it('marks OANDA Active when it is the default and configured', async () => {
    fakeApi(infoRoutes(configured));
    renderWithProviders(<TradingPlatformsPage />);
    const card = await screen.findByRole('button', { name: /^OANDA, Active/ });
    expect(within(card).getByText('Active')).toBeVisible();
    expect(within(card).getByText(/Live · 101-001-1234567-001/)).toBeVisible();
  });

  it('says on the OANDA card when the saved token can no longer be read, and shows OANDA as not configured', async () => {
    const notice =
      'Your saved OANDA access token can no longer be read on this server (its encryption key changed), so OANDA shows as not configured. Enter your access token again.';
    fakeApi({
      [`GET ${GET_INFO}`]: () =>
        ok({
          ...infoBody({ ...unconfigured, oanda: { accessToken: '', accountId: '101-001-1234567-001', mode: 'demo' } }),
          oandaNotice: notice,
        }),
    });
    renderWithProviders(<TradingPlatformsPage />);
    const card = await screen.findByRole('button', { name: /^OANDA, Inactive/ });
    expect(within(card).getByText(notice)).toBeVisible();
  });

  it('opens the OANDA Configuration modal from the keyboard, prefilled with the saved values', async () => {
    fakeApi(infoRoutes(configured));
    renderWithProviders(<TradingPlatformsPage />);
    const user = userEvent.setup();
    (await screen.findByRole('button', { name: /^OANDA,/ })).focus();
    await user.keyboard('{Enter}');
    const dialog = await findOpenDialog();
    expect(within(dialog).getByText('OANDA Configuration')).toBeVisible();
    expect(within(dialog).getByLabelText('Access Token')).toHaveValue('••••4f2a');
    expect(within(dialog).getByLabelText('Access Token')).toHaveAttribute('type', 'password');
    expect(within(dialog).getByLabelText('Account ID')).toHaveValue('101-001-1234567-001');
    expect(within(dialog).getByLabelText('Mode')).toHaveValue('live');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeVisible();
    expect(within(dialog).getByText(/My Account → Manage API Access/)).toBeVisible();
  });

  it('refuses an empty access token', async () => {
    const server = fakeApi(infoRoutes(configured));
    renderWithProviders(<TradingPlatformsPage />);
    const { user, dialog } = await openOanda();
    await user.clear(within(dialog).getByLabelText('Access Token'));
    await user.click(within(dialog).getByRole('button', { name: 'Save Configuration' }));
    expect(await screen.findByText('All fields are required.')).toBeVisible();
    expect(server.to(UPDATE_INFO, 'POST')).toHaveLength(0);
  });

  it('refuses a token with neither account id nor mode', async () => {
    const server = fakeApi(infoRoutes(unconfigured));
    renderWithProviders(<TradingPlatformsPage />);
    const { user, dialog } = await openOanda();
    await user.type(within(dialog).getByLabelText('Access Token'), 'abc-123');
    await user.click(within(dialog).getByRole('button', { name: 'Save Configuration' }));
    expect(await screen.findByText('All fields are required.')).toBeVisible();
    expect(server.to(UPDATE_INFO, 'POST')).toHaveLength(0);
  });

  it('saves a token and a mode without an account id as the whole record, OANDA the default', async () => {
    const server = fakeApi(infoRoutes({ ...unconfigured, default_trading_platfrom: '' }));
    renderWithProviders(<TradingPlatformsPage />);
    const { user, dialog } = await openOanda();
    await user.type(within(dialog).getByLabelText('Access Token'), 'abc-123');
    await user.selectOptions(within(dialog).getByLabelText('Mode'), 'demo');
    await user.click(within(dialog).getByRole('button', { name: 'Save Configuration' }));
    expect(await screen.findByText('Configuration updated successfully')).toBeVisible();
    expect(server.to(UPDATE_INFO, 'POST').map((c) => c.body)).toEqual([
      {
        default_ai_platfrom: 'vertexai',
        default_trading_platfrom: 'OANDA',
        oanda: { accessToken: 'abc-123', accountId: '', mode: 'demo' },
      },
    ]);
    expect(await screen.findByRole('button', { name: /^OANDA, Active/ })).toBeVisible();
  });

  it('sends the masked token back unchanged when only the account id changes', async () => {
    const server = fakeApi(infoRoutes(configured));
    renderWithProviders(<TradingPlatformsPage />);
    const { user, dialog } = await openOanda();
    const accountId = within(dialog).getByLabelText('Account ID');
    await user.clear(accountId);
    await user.type(accountId, '101-001-7654321-002');
    await user.click(within(dialog).getByRole('button', { name: 'Save Configuration' }));
    await screen.findByText('Configuration updated successfully');
    expect(server.to(UPDATE_INFO, 'POST')[0]?.body).toEqual({
      ...configured,
      oanda: { accessToken: '••••4f2a', accountId: '101-001-7654321-002', mode: 'live' },
    });
  });

  it("shows the server's message when saving fails and keeps the modal open", async () => {
    fakeApi({
      ...infoRoutes(unconfigured),
      'POST /api/v1/account/update_info': () => failure(400, 'Account ID must look like 101-004-1234567-001.'),
    });
    renderWithProviders(<TradingPlatformsPage />);
    const { user, dialog } = await openOanda();
    await user.type(within(dialog).getByLabelText('Access Token'), 'abc-123');
    await user.type(within(dialog).getByLabelText('Account ID'), '42');
    await user.click(within(dialog).getByRole('button', { name: 'Save Configuration' }));
    expect(await screen.findByText('Account ID must look like 101-004-1234567-001.')).toBeVisible();
    expect(screen.getByRole('dialog')).toBeVisible();
  });

  it('has no form for an inactive platform, only the news that it is not available yet', async () => {
    fakeApi(infoRoutes(unconfigured));
    renderWithProviders(<TradingPlatformsPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^TradingView,/ }));
    const dialog = await findOpenDialog();
    expect(within(dialog).getByText('TradingView Configuration')).toBeVisible();
    expect(within(dialog).getByText(/not available yet/)).toBeVisible();
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Save Configuration' })).toBeNull();
  });

  it('keeps MetaTrader Inactive without an import, explains the export and links to the import, without Make Default', async () => {
    const server = fakeApi({
      ...infoRoutes({ ...configured, default_trading_platfrom: 'MetaTrader' }),
      [`GET ${ACCOUNTS}`]: () => ok(accountPage([])),
    });
    renderWithProviders(<TradingPlatformsPage />);
    const user = userEvent.setup();
    const card = await screen.findByRole('button', { name: /^MetaTrader 4\/5, Inactive/ });
    expect(await within(card).findByText(/No report imported yet/)).toBeVisible();
    // OANDA is configured but not the default: Inactive.
    expect(screen.getByRole('button', { name: /^OANDA, Inactive/ })).toBeVisible();
    expect(server.to(ACCOUNTS)[0]!.search.get('platform')).toBe('metatrader');

    await user.click(card);
    const dialog = await findOpenDialog();
    expect(within(dialog).getByText('MetaTrader 4/5 Configuration')).toBeVisible();
    expect(within(dialog).getByText(/Save as Detailed Report/)).toBeVisible();
    expect(within(dialog).getByText('No MetaTrader report imported yet.')).toBeVisible();
    expect(within(dialog).getByRole('link', { name: 'Import a report' })).toHaveAttribute('href', '/trades/import');
    expect(within(dialog).queryByRole('button', { name: 'Make Default' })).toBeNull();
  });

  it('offers Make Default once an import exists, saving the whole record with MetaTrader; then the card is Active', async () => {
    const mt = metaTraderAccount('Broker-Live', '7001234', {
      id: 'mt-1',
      broker: 'Broker Ltd',
      mode: 'live',
    });
    const server = fakeApi({ ...infoRoutes(configured), [`GET ${ACCOUNTS}`]: () => ok(accountPage([mt])) });
    renderWithProviders(<TradingPlatformsPage />);
    const user = userEvent.setup();
    const card = await screen.findByRole('button', { name: /^MetaTrader 4\/5, Inactive/ });
    expect(await within(card).findByText('1 account imported')).toBeVisible();
    expect(screen.getByRole('button', { name: /^OANDA, Active/ })).toBeVisible();

    await user.click(card);
    const dialog = await findOpenDialog();
    const list = within(dialog).getByRole('list', { name: 'Imported MetaTrader accounts' });
    expect(list).toHaveTextContent('7001234');
    expect(list).toHaveTextContent('Broker-Live · Broker Ltd · USD');
    await user.click(within(dialog).getByRole('button', { name: 'Make Default' }));

    await screen.findByRole('button', { name: /^MetaTrader 4\/5, Active/ });
    expect(server.to(UPDATE_INFO, 'POST').map((c) => c.body)).toEqual([
      { ...configured, default_trading_platfrom: 'MetaTrader' },
    ]);
    expect(screen.getByRole('button', { name: /^OANDA, Inactive/ })).toBeVisible();
  });

  it('says in place when the settings cannot be loaded', async () => {
    fakeApi({
      ...infoRoutes(unconfigured),
      'GET /api/v1/account/get_info': () => failure(500, 'Something went wrong on our side. Please try again.'),
    });
    renderWithProviders(<TradingPlatformsPage />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your settings could not be loaded. Something went wrong on our side.');
    expect(screen.queryByRole('button', { name: /^OANDA,/ })).toBeNull();
  });
});
