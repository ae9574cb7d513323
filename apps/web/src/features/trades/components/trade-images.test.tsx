import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fakeApi, ok } from '../../../test/fake-api';
import { findOpenDialog, renderWithProviders } from '../../../test/render';
import { trade, tradePage } from '../test-fixtures';
import { TradeDetailsModal } from './trade-details-modal';
import { TradesTable } from './trades-table';

const row = (id: string, attachmentCount: number) => ({
  ...tradePage([trade({ tradeId: id })]).data[0]!,
  attachmentCount,
});
const shot = (id: string, caption: string) => ({
  id,
  target: 'trade',
  contentType: 'image/png',
  width: 800,
  height: 600,
  bytes: 1000,
  caption,
  url: `/api/v1/attachment/get_attachment/${id}`,
  thumbnailUrl: `/api/v1/attachment/get_thumbnail/${id}`,
  createdAt: '2026-11-20T10:00:00.000Z',
});

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('test-token'));
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:test/1'), revokeObjectURL: vi.fn() });
});
afterEach(() => {
  delete (URL as { createObjectURL?: unknown }).createObjectURL;
  delete (URL as { revokeObjectURL?: unknown }).revokeObjectURL;
});

describe('Screenshots on trades', () => {
  it('marks a row with its screenshot count, and no mark without any', () => {
    fakeApi();
    renderWithProviders(
      <TradesTable
        trades={[row('1', 3), row('2', 0), row('3', 1)]}
        busy={false}
        onView={() => undefined}
        sort={{ sort: 'openTime', order: 'desc' }}
        onSort={() => undefined}
        selected={new Set()}
        onSelect={() => undefined}
        journal={false}
      />,
    );
    expect(screen.getByRole('img', { name: '3 screenshots' })).toHaveTextContent('3');
    expect(screen.getByRole('img', { name: '1 screenshot' })).toBeInTheDocument();
    expect(screen.getAllByRole('img', { name: /screenshot/ })).toHaveLength(2);
  });

  it('shows the trade’s screenshots in Trade Details, asked for by the trade’s keys', async () => {
    const api = fakeApi({
      'GET /api/v1/attachment/get_attachments': () => ok({ success: true, message: 'OK', data: [shot('a1', 'Entry')] }),
      'GET /api/v1/attachment/get_usage': () =>
        ok({ success: true, message: 'OK', data: { bytes: 1000, quota: 524288000, count: 1 } }),
      'GET /api/v1/attachment/get_thumbnail/:id': () => new Response(new Blob([new Uint8Array([1])])),
    });
    const t = row('5253', 1);
    renderWithProviders(<TradeDetailsModal visible trade={t} base={null} onClose={() => undefined} />);
    const dialog = await findOpenDialog();
    const section = within(dialog).getByRole('region', { name: /Screenshots/ });
    expect(await within(section).findByRole('img', { name: 'Entry' })).toBeInTheDocument();
    expect(within(section).getByText('Paste, drop or choose an image')).toBeInTheDocument();
    expect(Object.fromEntries(api.to('/api/v1/attachment/get_attachments')[0]!.search)).toEqual({
      target: 'trade',
      accountId: t.accountId,
      tradeId: '5253',
    });
  });
});
