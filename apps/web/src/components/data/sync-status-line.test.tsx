import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { fakeApi } from '../../test/fake-api';
import {
  SYNC_STATUS as STATUS,
  syncAt as at,
  syncStatus as status,
  syncStatusBody as body,
} from '../../test/sync-status';
import { renderWithProviders } from '../../test/render';
import { SyncStatusLine } from './sync-status-line';
import { syncStatusText } from './sync-status-query';

beforeEach(() => localStorage.setItem('token', JSON.stringify('test-token')));

describe('syncStatusText', () => {
  it('says when the last sync was and when the next one is, on the server clock', () => {
    expect(syncStatusText(status())).toEqual({ line: 'Synced 3 min ago · next in 12 min', error: null });
    expect(syncStatusText(status(), 2 * 60_000).line).toBe('Synced 5 min ago · next in 10 min');
    expect(syncStatusText(status({ lastSyncedAt: at(-0.5), nextDueAt: at(0.5) })).line).toBe(
      'Synced just now · next any moment',
    );
    expect(syncStatusText(status({ lastSyncedAt: at(-180), nextDueAt: at(60), interval: '1h' })).line).toBe(
      'Synced 3 h ago · next in 60 min',
    );
    expect(syncStatusText(status({ lastSyncedAt: null, nextDueAt: at(0) })).line).toBe(
      'Not synced yet · next any moment',
    );
    expect(syncStatusText(status({ interval: 'off', nextDueAt: null })).line).toBe(
      'Synced 3 min ago · background sync off',
    );
  });

  it("shows a running sync's progress and a paused sync's error", () => {
    expect(syncStatusText(status({ running: { startedAt: at(-1), pages: 3, trades: 1500 } })).line).toBe(
      `Syncing… 3 pages, ${(1500).toLocaleString()} trades so far`,
    );
    expect(syncStatusText(status({ running: { startedAt: at(0), pages: 0, trades: 0 } })).line).toBe('Syncing…');
    const paused = syncStatusText(
      status({ paused: true, nextDueAt: null, lastError: 'OANDA rejected the token: update it in Settings.' }),
    );
    expect(paused).toEqual({
      line: 'Synced 3 min ago · background sync paused',
      error: 'OANDA rejected the token: update it in Settings.',
    });
  });
});

describe('SyncStatusLine', () => {
  it('shows the status and the last error', async () => {
    fakeApi({ [STATUS]: () => ({ body: body(status({ lastError: 'OANDA did not answer in time.' })) }) });
    renderWithProviders(<SyncStatusLine listKey={['accounts']} />);
    const line = await screen.findByRole('status', { name: 'Background sync' });
    expect(line).toHaveTextContent('Synced 3 min ago · next in 12 min');
    expect(line).toHaveTextContent('OANDA did not answer in time.');
  });

  it('shows nothing without an OANDA connection or when the status cannot be read', async () => {
    const api = fakeApi({ [STATUS]: () => ({ body: body(status({ connected: false })) }) });
    const { unmount } = renderWithProviders(<SyncStatusLine listKey={['accounts']} />);
    await waitFor(() => expect(api.calls.filter((c) => c.path === STATUS)).toHaveLength(1));
    expect(screen.queryByRole('status', { name: 'Background sync' })).not.toBeInTheDocument();
    unmount();
    const failing = fakeApi({});
    const { client } = renderWithProviders(<SyncStatusLine listKey={['accounts']} />);
    // The status was asked for and its failure settled: what the line shows now is what it shows for a failure.
    await waitFor(() => expect(failing.calls.filter((c) => c.path === STATUS)).toHaveLength(1));
    await waitFor(() => expect(client.isFetching()).toBe(0));
    expect(screen.queryByRole('status', { name: 'Background sync' })).not.toBeInTheDocument();
  });
});
