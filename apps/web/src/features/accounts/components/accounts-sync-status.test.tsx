import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { fakeApi } from '../../../test/fake-api';
import {
  SYNC_NOW as NOW,
  SYNC_STATUS as STATUS,
  syncAt as at,
  syncStatus as status,
  syncStatusBody as body,
} from '../../../test/sync-status';
import { renderWithProviders } from '../../../test/render';
import { account, accountPage } from '../test-fixtures';
import { AccountsPage } from './accounts-page';

beforeEach(() => localStorage.setItem('token', JSON.stringify('test-token')));

describe('AccountsPage: OANDA background sync', () => {
  it('refetches the list when a background sync finishes', async () => {
    let current = status({ running: { startedAt: at(-1), pages: 1, trades: 500 }, lastSyncedAt: at(-20) });
    const api = fakeApi({
      [STATUS]: () => ({ body: body(current) }),
      '/api/v1/account/get_accounts': () => ({ body: accountPage([account()]) }),
    });
    const { client } = renderWithProviders(<AccountsPage />);
    const line = await screen.findByRole('status', { name: 'Background sync' });
    expect(line).toHaveTextContent('Syncing… 1 page, 500 trades so far');
    await waitFor(() => expect(api.calls.filter((c) => c.path === '/api/v1/account/get_accounts')).toHaveLength(1));
    current = status({ lastSyncedAt: NOW });
    await client.refetchQueries({ queryKey: ['sync-status'] });
    await waitFor(() => expect(line).toHaveTextContent('Synced just now · next in 12 min'));
    await waitFor(() => expect(api.calls.filter((c) => c.path === '/api/v1/account/get_accounts')).toHaveLength(2));
  });
});
