import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { accountSyncResponse } from '@pipsense/contract';
import { deferred, errorBody, fakeApi, type Reply } from '../../../test/fake-api';
import { GET_INFO, metaTraderInfoBody, oandaInfoBody } from '../../../test/info-fixtures';
import { renderWithProviders } from '../../../test/render';
import { account, accountPage, metaTraderAccount } from '../test-fixtures';
import { AccountsPage } from './accounts-page';

const LIST = '/api/v1/account/get_accounts';
const SYNC = '/api/v1/account/sync_account';
const OPERATIONS_PREFIX = '/api/v1/account/get_balance_operations/';
const OPERATIONS = `${OPERATIONS_PREFIX}:accountId`;
const OPERATION_CALLS = /^\/api\/v1\/account\/get_balance_operations\//;

const table = () => screen.getByRole('table', { name: 'Accounts' });
const bodyRows = () => within(table()).getAllByRole('row').slice(1);
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
const local = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(Date.parse(iso));

beforeEach(() => localStorage.setItem('token', JSON.stringify('test-token')));

describe('AccountsPage', () => {
  it('lists accounts with the spec columns and decimals', async () => {
    const api = fakeApi({
      [LIST]: () => ({
        body: accountPage([
          account(),
          account({
            id: 'row-2',
            oandaAccountId: '101-004-27183640-002',
            alias: null,
            currency: 'EUR',
            balance: '5000',
            NAV: '5012.125',
            unrealizedPL: '12.125',
            openTradeCount: 0,
            openPositionCount: null,
          }),
        ]),
      }),
    });
    renderWithProviders(<AccountsPage />);

    expect(await screen.findByRole('heading', { name: 'OANDA Accounts' })).toBeInTheDocument();
    await waitFor(() => expect(bodyRows()).toHaveLength(2));
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'Alias',
      'Account ID',
      'Currency',
      'Balance',
      'NAV',
      'Unrealized P/L',
      'Trades',
      'Positions',
      'Added',
      'Actions',
    ]);
    const [first, second] = bodyRows();
    expect(cells(first!)).toEqual([
      'Primary',
      '101-004-27183640-001',
      'USD',
      '100234.57',
      '100199.99',
      '-34.5736',
      '8',
      '3',
      // Added: the local date over the local time.
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(Date.parse('2025-10-01T07:05:00.000Z')) +
        new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(Date.parse('2025-10-01T07:05:00.000Z')),
      // Actions: 'View Account', then the way to the account's money page.
      'View AccountMoney',
    ]);
    expect(cells(second!).slice(0, 8)).toEqual([
      '-',
      '101-004-27183640-002',
      'EUR',
      '5000.00',
      '5012.13',
      '12.1250',
      '0',
      '-',
    ]);
    expect(within(first!).getByText('-34.5736')).toHaveClass('text-danger');
    expect(within(second!).getByText('12.1250')).toHaveClass('text-success');
    expect(api.to(LIST)[0]!.search.get('limit')).toBe('10');
  });

  it('says No accounts found for an empty list when OANDA is connected', async () => {
    fakeApi({
      [LIST]: () => ({ body: accountPage([], 1, 0) }),
      [GET_INFO]: () => ({ body: oandaInfoBody('••••4f2a') }),
    });
    renderWithProviders(<AccountsPage />);
    expect(await screen.findByText('No accounts found')).toBeInTheDocument();
  });

  it('says to connect OANDA when the list is empty and no token is saved', async () => {
    fakeApi({ [LIST]: () => ({ body: accountPage([], 1, 0) }), [GET_INFO]: () => ({ body: oandaInfoBody('') }) });
    renderWithProviders(<AccountsPage />);
    expect(await screen.findByRole('link', { name: 'Go to Settings → Trading Platforms' })).toBeInTheDocument();
    expect(screen.queryByText('No accounts found')).not.toBeInTheDocument();
  });

  it('pages with Prev and Next, asking for page=2', async () => {
    const api = fakeApi({
      [LIST]: ({ search }) => ({
        body: accountPage([account({ alias: `Page ${search.get('page')} account` })], 2, 11),
      }),
    });
    const user = userEvent.setup();
    renderWithProviders(<AccountsPage />);
    await screen.findByText('Page 1 account');
    expect(screen.getByText('Prev')).toHaveAttribute('aria-disabled', 'true');

    await user.click(screen.getByText('Next'));
    await screen.findByText('Page 2 account');
    expect(api.to(LIST).at(-1)!.search.get('page')).toBe('2');
    expect(screen.getByText('Next')).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByText('Prev')).not.toHaveAttribute('aria-disabled');
    expect(screen.getByText('Showing 11–11 of 11 accounts')).toBeInTheDocument();
  });

  it('shows TradeView as not connected without a request, and goes back to OANDA from there', async () => {
    const api = fakeApi({ [LIST]: () => ({ body: accountPage([account()]) }) });
    const user = userEvent.setup();
    renderWithProviders(<AccountsPage />);
    await waitFor(() => expect(bodyRows()).toHaveLength(1));

    await user.click(screen.getByRole('button', { name: 'Trading platform: OANDA' }));
    await user.click(screen.getByRole('button', { name: /TradeView/ }));
    expect(screen.getByRole('heading', { name: 'TradeView Accounts' })).toBeInTheDocument();
    expect(screen.getByText('TradeView is not connected')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sync accounts' })).toBeDisabled();
    expect(api.to(LIST)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Show OANDA accounts' }));
    expect(screen.getByRole('heading', { name: 'OANDA Accounts' })).toBeInTheDocument();
    await waitFor(() => expect(api.to(LIST)).toHaveLength(2));
    expect(api.to(LIST)[1]!.search.get('page')).toBe('1');
  });

  it('lists MetaTrader accounts with platform=metatrader by their login, with Import instead of Sync', async () => {
    const mt = metaTraderAccount('ICMarketsSC-Demo', '51234567', {
      id: 'mt-row',
      broker: 'Raw Trading Ltd',
      leverage: '1:500',
      serverUtcOffset: '+02:00',
      alias: 'MT5 demo',
    });
    const api = fakeApi({
      [LIST]: ({ search }) => ({ body: accountPage(search.get('platform') === 'metatrader' ? [mt] : [account()]) }),
      [OPERATIONS]: () => ({
        body: {
          success: true,
          message: '2 balance operations',
          pages: 1,
          total: 2,
          data: [
            {
              id: '5002',
              time: '2026-11-05T07:00:00.000000000Z',
              serverTime: '2026-11-05T09:00:00',
              type: 'withdrawal',
              printedType: 'balance',
              amount: '-500.00',
              currency: 'USD',
              comment: 'Withdrawal',
            },
            {
              id: '5001',
              time: '2026-11-01T07:00:00.000000000Z',
              serverTime: '2026-11-01T09:00:00',
              type: 'deposit',
              printedType: 'balance',
              amount: '10000.00',
              currency: 'USD',
              comment: null,
            },
          ],
        },
      }),
    });
    const user = userEvent.setup();
    renderWithProviders(<AccountsPage />);
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(api.to(LIST)[0]!.search.has('platform')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Trading platform: OANDA' }));
    await user.click(screen.getByRole('button', { name: /MetaTrader/ }));
    expect(screen.getByRole('heading', { name: 'MetaTrader Accounts' })).toBeInTheDocument();
    await screen.findByText('MT5 demo');
    expect(api.to(LIST).at(-1)!.search.get('platform')).toBe('metatrader');
    expect(bodyRows()[0]).toHaveTextContent('51234567');
    expect(bodyRows()[0]).not.toHaveTextContent('metatrader:ICMarketsSC-Demo');
    expect(screen.queryByRole('button', { name: 'Sync accounts' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Import' })).toHaveAttribute('href', '/trades/import');

    await user.click(within(bodyRows()[0]!).getByRole('button', { name: /View/ }));
    const dialog = await screen.findByRole('dialog');
    const detail = (label: string) => within(dialog).getByText(label, { selector: 'dt' }).nextElementSibling;
    expect(detail('Server')).toHaveTextContent('ICMarketsSC-Demo');
    expect(detail('Broker')).toHaveTextContent('Raw Trading Ltd');
    expect(detail('Leverage')).toHaveTextContent('1:500');
    const operations = await within(dialog).findByRole('table', { name: 'Balance operations' });
    expect(api.to(OPERATION_CALLS).at(-1)!.path).toBe(`${OPERATIONS_PREFIX}${encodeURIComponent(mt.oandaAccountId)}`);
    const rows = within(operations)
      .getAllByRole('row')
      .slice(1)
      .map((row) => cells(row));
    expect(rows).toEqual([
      [local('2026-11-05T07:00:00.000000000Z'), 'Withdrawal', '-500.00 USD', 'Withdrawal'],
      [local('2026-11-01T07:00:00.000000000Z'), 'Deposit', '10000.00 USD', '-'],
    ]);
  });

  it('says when an imported account has no balance operations, and shows none for OANDA accounts', async () => {
    const mt = account({ platform: 'metatrader', oandaAccountId: 'metatrader:S:1', login: '1', server: 'S' });
    const api = fakeApi({
      [LIST]: ({ search }) => ({ body: accountPage(search.get('platform') === 'metatrader' ? [mt] : [account()]) }),
      [OPERATIONS]: () => ({ body: { success: true, message: '', data: [], pages: 1, total: 0 } }),
    });
    const user = userEvent.setup();
    renderWithProviders(<AccountsPage />);
    await user.click(await screen.findByRole('button', { name: 'View Account' }));
    const oandaDialog = await screen.findByRole('dialog');
    expect(within(oandaDialog).queryByText('Balance operations')).not.toBeInTheDocument();
    expect(api.to(OPERATION_CALLS)).toHaveLength(0);
    await user.click(within(oandaDialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Trading platform: OANDA' }));
    await user.click(screen.getByRole('button', { name: /MetaTrader/ }));
    await screen.findByRole('heading', { name: 'MetaTrader Accounts' });
    await waitFor(() => expect(api.to(LIST).at(-1)!.search.get('platform')).toBe('metatrader'));
    await user.click(await screen.findByRole('button', { name: 'View Account' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      await within(dialog).findByText('No deposits, withdrawals or credits in the imported reports of this account.'),
    ).toBeInTheDocument();
  });

  it("opens on the trader's default platform (MetaTrader), not on OANDA's 'Connect OANDA first'", async () => {
    const api = fakeApi({
      [GET_INFO]: () => ({ body: metaTraderInfoBody() }),
      [LIST]: () => ({ body: accountPage([]) }),
    });
    renderWithProviders(<AccountsPage />);
    expect(await screen.findByRole('heading', { name: 'MetaTrader Accounts' })).toBeInTheDocument();
    expect(await screen.findByText('No MetaTrader accounts yet')).toBeInTheDocument();
    expect(api.to(LIST).map((c) => c.search.get('platform'))).toEqual(['metatrader']);
    expect(screen.queryByText('Connect OANDA first')).not.toBeInTheDocument();
  });

  it("says 'No MetaTrader accounts yet' with an Import button", async () => {
    fakeApi({ [LIST]: () => ({ body: accountPage([]) }) });
    const user = userEvent.setup();
    renderWithProviders(<AccountsPage />);
    await user.click(await screen.findByRole('button', { name: 'Trading platform: OANDA' }));
    await user.click(screen.getByRole('button', { name: /MetaTrader/ }));
    await screen.findByText('No MetaTrader accounts yet');
    expect(screen.getByText('Import a MetaTrader 4/5 report.')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Import' })).toHaveLength(2);
  });

  it('syncs with a disabled spinner button, toasts the message and refetches', async () => {
    const sync = deferred<Reply>();
    let synced = false;
    const api = fakeApi({
      [LIST]: () => ({ body: accountPage(synced ? [account({ alias: 'Fresh' })] : []) }),
      [GET_INFO]: () => ({ body: oandaInfoBody('••••4f2a') }),
      [SYNC]: () => sync.promise,
    });
    const user = userEvent.setup();
    renderWithProviders(<AccountsPage />);
    await screen.findByText('No accounts found');

    await user.click(screen.getByRole('button', { name: 'Sync accounts' }));
    const busy = screen.getByRole('button', { name: 'Syncing accounts' });
    expect(busy).toBeDisabled();
    expect(busy.querySelector('.spinner-border')).not.toBeNull();

    synced = true;
    sync.resolve({
      body: accountSyncResponse.parse({
        success: true,
        message: 'Synced 2 accounts: 2 new, 0 updated',
        data: { accounts: 2, created: 2, updated: 0 },
      }),
    });
    expect(await screen.findByText('Synced 2 accounts: 2 new, 0 updated')).toBeInTheDocument();
    expect(await screen.findByText('Fresh')).toBeInTheDocument();
    expect(api.to(LIST)).toHaveLength(2);
  });

  it("toasts a rejected sync's message", async () => {
    const message = 'OANDA rejected the access token for demo mode: check it in Settings → Trading Platforms.';
    fakeApi({
      [LIST]: () => ({ body: accountPage([account()]) }),
      [SYNC]: () => ({ status: 502, body: errorBody(message, 'OANDA_REJECTED') }),
    });
    const user = userEvent.setup();
    renderWithProviders(<AccountsPage />);
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Sync accounts' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('points to Settings → Trading Platforms when OANDA is not configured', async () => {
    const message = 'Connect your OANDA account in Settings → Trading Platforms first.';
    fakeApi({ [LIST]: () => ({ status: 400, body: errorBody(message, 'OANDA_NOT_CONFIGURED') }) });
    renderWithProviders(<AccountsPage />);
    expect(await screen.findByRole('link', { name: 'Go to Settings → Trading Platforms' })).toHaveAttribute(
      'href',
      '/settings/trading_platforms',
    );
  });

  it('opens Account Details with every field but the internal id, user id and version', async () => {
    const shown = account();
    fakeApi({ [LIST]: () => ({ body: accountPage([shown]) }) });
    const user = userEvent.setup();
    renderWithProviders(<AccountsPage />);
    await user.click(await screen.findByRole('button', { name: 'View Account' }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Account Details')).toBeInTheDocument();
    const value = (label: string) =>
      within(dialog).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(value('Alias')).toBe('Primary');
    expect(value('Account ID')).toBe('101-004-27183640-001');
    expect(value('Balance')).toBe('100234.57');
    expect(value('Margin Used')).toBe('427.70');
    expect(value('Margin Available')).toBe('99772.30');
    expect(value('Open Trades')).toBe('8');
    expect(value('Pending Orders')).toBe('14');
    expect(value('Last Transaction ID')).toBe('5318');
    expect(value('Added')).toBe(local(shown.createdAt));
    expect(value('Last Synced')).toBe(local(shown.syncedAt));

    const text = dialog.textContent ?? '';
    expect(text).not.toContain(shown.id);
    expect(text).not.toContain(shown.userId);
    expect(within(dialog).queryByText(/version/i)).not.toBeInTheDocument();
    expect(within(dialog).queryByText(/user/i)).not.toBeInTheDocument();
  });

  it("leads from each row and from Account Details to the account's money page", async () => {
    const mt = account({ platform: 'metatrader', oandaAccountId: 'metatrader:S:1', login: '1', server: 'S' });
    fakeApi({
      [LIST]: ({ search }) => ({ body: accountPage(search.get('platform') === 'metatrader' ? [mt] : [account()]) }),
      [OPERATIONS]: () => ({ body: { success: true, message: '', data: [], pages: 1, total: 0 } }),
    });
    const user = userEvent.setup();
    renderWithProviders(<AccountsPage />);
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(within(bodyRows()[0]!).getByRole('link', { name: 'Money' })).toHaveAttribute(
      'href',
      '/accounts/101-004-27183640-001/money',
    );
    await user.click(screen.getByRole('button', { name: 'View Account' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('link', { name: 'Money over time' })).toHaveAttribute(
      'href',
      '/accounts/101-004-27183640-001/money',
    );
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // An imported account goes by its key, which the link carries whole.
    await user.click(screen.getByRole('button', { name: 'Trading platform: OANDA' }));
    await user.click(screen.getByRole('button', { name: /MetaTrader/ }));
    await screen.findByRole('heading', { name: 'MetaTrader Accounts' });
    await waitFor(() =>
      expect(within(bodyRows()[0]!).getByRole('link', { name: 'Money' })).toHaveAttribute(
        'href',
        '/accounts/metatrader%3AS%3A1/money',
      ),
    );
  });
});
