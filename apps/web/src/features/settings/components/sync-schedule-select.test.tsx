import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InfoRecord, SyncStatus } from '@pipsense/contract';
import { fakeApi, failure } from '../../../test/fake-api';
import { infoRoutes } from '../../../test/info-fixtures';
import { renderWithProviders } from '../../../test/render';
import { TradingPlatformsPage } from './trading-platforms-page';

const STATUS = '/api/v1/sync/status';
const SCHEDULE = '/api/v1/sync/schedule';
const NOW = '2026-01-05T12:00:00.000Z';
const status = (over: Partial<SyncStatus> = {}): SyncStatus => ({
  interval: '15m',
  connected: true,
  lastSyncedAt: null,
  nextDueAt: NOW,
  running: null,
  lastError: null,
  failures: 0,
  paused: false,
  now: NOW,
  ...over,
});
const configured: InfoRecord = {
  default_ai_platfrom: 'openai',
  default_trading_platfrom: 'OANDA',
  oanda: { accessToken: '••••4f2a', accountId: '', mode: 'demo' },
};

describe('Trading Platforms: OANDA background sync', () => {
  it('offers Off, every 5 or 15 minutes and hourly, shows the stored one and saves a change', async () => {
    const api = fakeApi({
      ...infoRoutes(configured),
      [STATUS]: () => ({ body: { success: true, message: 'ok', data: status() } }),
      [SCHEDULE]: ({ body }) => {
        const { interval } = body as { interval: SyncStatus['interval'] };
        return { body: { success: true, message: 'Background sync: Hourly.', data: status({ interval }) } };
      },
    });
    renderWithProviders(<TradingPlatformsPage />);
    const select = await screen.findByLabelText('OANDA background sync');
    await waitFor(() => expect(select).toHaveValue('15m'));
    expect([...(select as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      'Off',
      'Every 5 minutes',
      'Every 15 minutes',
      'Hourly',
    ]);
    await userEvent.setup().selectOptions(select, 'Hourly');
    await waitFor(() => expect(api.calls.filter((c) => c.path === SCHEDULE)).toHaveLength(1));
    expect(api.calls.find((c) => c.path === SCHEDULE)?.body).toEqual({ interval: '1h' });
    expect(await screen.findByText('Background sync: Hourly.')).toBeInTheDocument();
    expect(select).toHaveValue('1h');
  });

  it('says why a paused sync stopped, and says so when the change fails', async () => {
    fakeApi({
      ...infoRoutes(configured),
      [STATUS]: () => ({
        body: {
          success: true,
          message: 'ok',
          data: status({
            paused: true,
            lastError: 'OANDA rejected the token: update it in Settings → Trading Platforms.',
          }),
        },
      }),
      [SCHEDULE]: () => failure(400, 'interval must be one of off, 5m, 15m, 1h'),
    });
    renderWithProviders(<TradingPlatformsPage />);
    expect(
      await screen.findByText('OANDA rejected the token: update it in Settings → Trading Platforms.'),
    ).toBeInTheDocument();
    const select = screen.getByLabelText('OANDA background sync');
    await waitFor(() => expect(select).toHaveValue('15m'));
    await userEvent.setup().selectOptions(select, 'Off');
    expect(await screen.findByText('interval must be one of off, 5m, 15m, 1h')).toBeInTheDocument();
    expect(select).toHaveValue('15m');
  });

  it('is not shown before OANDA is configured', async () => {
    fakeApi(infoRoutes({ ...configured, oanda: { accessToken: '', accountId: '', mode: '' } }));
    renderWithProviders(<TradingPlatformsPage />);
    await screen.findByRole('button', { name: /^OANDA,/ });
    expect(screen.queryByLabelText('OANDA background sync')).not.toBeInTheDocument();
  });
});
