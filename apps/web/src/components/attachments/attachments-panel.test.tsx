import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AttachmentItem, AttachmentTarget } from '@pipsense/contract';
import { fakeApi, failure, ok, type ApiCall } from '../../test/fake-api';
import { renderWithProviders } from '../../test/render';
import { queryKeys } from '../../lib/query-keys';
import { AttachmentsPanel } from './attachments-panel';

const LIST = 'GET /api/v1/attachment/get_attachments';
const USAGE = 'GET /api/v1/attachment/get_usage';
const UPLOAD = 'POST /api/v1/attachment/upload';
const EDIT = 'POST /api/v1/attachment/edit_attachment/:id';
const DELETE = 'POST /api/v1/attachment/delete_attachment/:id';
const IMAGE = 'GET /api/v1/attachment/get_attachment/:id';
const THUMB = 'GET /api/v1/attachment/get_thumbnail/:id';

const image = (id: string, caption = '', target: AttachmentTarget = 'trade'): AttachmentItem => ({
  id,
  target,
  contentType: 'image/png',
  width: 800,
  height: 600,
  bytes: 1000,
  caption,
  url: `/api/v1/attachment/get_attachment/${id}`,
  thumbnailUrl: `/api/v1/attachment/get_thumbnail/${id}`,
  createdAt: '2026-11-20T10:00:00.000Z',
});
const listBody = (items: AttachmentItem[]) => ok({ success: true, message: 'OK', data: items });
const usageBody = (bytes = 12_900_000) =>
  ok({ success: true, message: 'OK', data: { bytes, quota: 500 * 1024 * 1024, count: 3 } });
const png = (name = 'chart.png', size = 2048) => new File([new Uint8Array(size)], name, { type: 'image/png' });
const pngResponse = () => new Response(new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }));

/** A fake server holding an item's images: uploads add, edits change a caption, deletes remove. */
function server(start: AttachmentItem[] = [], target: AttachmentTarget = 'trade') {
  let items = [...start];
  let next = items.length;
  const api = fakeApi({
    [LIST]: () => listBody(items),
    [USAGE]: () => usageBody(),
    [IMAGE]: () => pngResponse(),
    [THUMB]: () => pngResponse(),
    [UPLOAD]: (call: ApiCall) => {
      const file = call.form?.get('file') as File;
      const made = image(`a${++next}`, '', target);
      items = [...items, made];
      return ok({ success: true, message: `Uploaded ${file.name}`, data: made });
    },
    [EDIT]: (call) => {
      const caption = (call.body as { caption: string }).caption;
      items = items.map((i) => (i.id === call.params.id ? { ...i, caption } : i));
      return ok({ success: true, message: 'Saved', data: items.find((i) => i.id === call.params.id) });
    },
    [DELETE]: (call) => {
      const gone = items.find((i) => i.id === call.params.id);
      items = items.filter((i) => i.id !== call.params.id);
      return ok({ success: true, message: 'Deleted', data: gone });
    },
  });
  return { api, items: () => items };
}

const created: string[] = [];
const revoked: string[] = [];

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('test-token'));
  created.length = 0;
  revoked.length = 0;
  // jsdom has no object URLs.
  Object.assign(URL, {
    createObjectURL: vi.fn(() => {
      const url = `blob:test/${created.length + 1}`;
      created.push(url);
      return url;
    }),
    revokeObjectURL: vi.fn((url: string) => revoked.push(url)),
  });
});
afterEach(() => {
  delete (URL as { createObjectURL?: unknown }).createObjectURL;
  delete (URL as { revokeObjectURL?: unknown }).revokeObjectURL;
});

const trade = { target: 'trade', accountId: 'acc-1', tradeId: '42' } as const;
const dropZone = () => screen.getByRole('group', { name: /^Add images to/ });
const uploadedFile = (call: ApiCall) => call.form?.get('file') as File;

describe('AttachmentsPanel', () => {
  it('lists the thumbnails fetched with the bearer token as object URLs, revoked on unmount, and the usage line', async () => {
    const { api } = server([image('a1', 'Entry on the retest'), image('a2')]);
    const view = renderWithProviders(<AttachmentsPanel {...trade} title="Screenshots" />);
    const first = await screen.findByRole('img', { name: 'Entry on the retest' });
    await waitFor(() => expect(first).toHaveAttribute('src', expect.stringMatching(/^blob:test\//)));
    expect(await screen.findByRole('img', { name: 'Image 2' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Screenshots/ })).toHaveTextContent('Screenshots · 2');
    expect(screen.getByText('Paste, drop or choose an image')).toBeInTheDocument();
    expect(await screen.findByText('Storage: 12.3 MB of 500 MB')).toBeInTheDocument();

    const list = api.to('/api/v1/attachment/get_attachments')[0]!;
    expect(Object.fromEntries(list.search)).toEqual({ target: 'trade', accountId: 'acc-1', tradeId: '42' });
    const thumbs = api.to(/get_thumbnail/);
    expect(thumbs.map((c) => c.path)).toEqual([
      '/api/v1/attachment/get_thumbnail/a1',
      '/api/v1/attachment/get_thumbnail/a2',
    ]);
    for (const call of thumbs) {
      expect(call.headers.Authorization).toBe('Bearer test-token');
      expect(call.url.search).toBe('');
    }

    await waitFor(() => expect(created).toHaveLength(2));
    view.unmount();
    expect([...revoked].sort()).toEqual([...created].sort());
  });

  it('says a thumbnail that cannot be fetched is unavailable, and shows the lightbox’s failure as the server says it', async () => {
    const { api } = server([image('a1', 'Gone')]);
    api.route(THUMB, () => failure(404, 'Attachment not found.', 'NOT_FOUND'));
    api.route(IMAGE, () => failure(404, 'Attachment not found.', 'NOT_FOUND'));
    const user = userEvent.setup();
    renderWithProviders(<AttachmentsPanel {...trade} />);
    expect(await screen.findByText('Image unavailable')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open image 1: Gone' }));
    const dialog = screen.getByRole('dialog', { name: 'Image 1 of 1' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Attachment not found.');
    expect(within(dialog).getByRole('button', { name: 'Next image' })).toBeDisabled();
    expect(created).toHaveLength(0);
  });

  it('uploads through the file picker with the trade named, shows progress, and refreshes the trade list', async () => {
    const { api } = server([]);
    const user = userEvent.setup();
    const view = renderWithProviders(<AttachmentsPanel {...trade} />);
    view.client.setQueryData(queryKeys.tradeHistory.page('', 1), { rows: [] });
    await screen.findByText('Paste, drop or choose an image');

    const release = api.holdUploads();
    await user.upload(screen.getByLabelText('Choose images'), png('setup.png'));
    const bar = await screen.findByRole('progressbar', { name: 'Uploading setup.png' });
    expect(bar).toHaveAttribute('aria-valuenow', '50');
    release();

    expect(await screen.findByRole('img', { name: 'Image 1' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
    const [call] = api.to('/api/v1/attachment/upload');
    expect(call!.headers.Authorization).toBe('Bearer test-token');
    expect([...call!.form!.keys()]).toEqual(['target', 'accountId', 'tradeId', 'file']);
    expect(call!.form!.get('accountId')).toBe('acc-1');
    expect(call!.form!.get('tradeId')).toBe('42');
    expect(uploadedFile(call!).name).toBe('setup.png');
    expect(view.client.getQueryState(queryKeys.tradeHistory.page('', 1))?.isInvalidated).toBe(true);
    // The usage line is read again after the upload.
    await waitFor(() => expect(api.to('/api/v1/attachment/get_usage')).toHaveLength(2));
  });

  it('uploads an image pasted from the clipboard onto a journal day', async () => {
    const { api } = server([], 'day');
    renderWithProviders(<AttachmentsPanel target="day" date="2026-11-20" />);
    await screen.findByText('Paste, drop or choose an image');
    const pasted = new File([new Uint8Array(100)], 'image.png', { type: 'image/png' });
    fireEvent.paste(dropZone(), { clipboardData: { files: [pasted], types: ['Files'] } });

    expect(await screen.findByRole('img', { name: 'Image 1' })).toBeInTheDocument();
    const [call] = api.to('/api/v1/attachment/upload');
    expect(call!.form!.get('target')).toBe('day');
    expect(call!.form!.get('date')).toBe('2026-11-20');
    expect(uploadedFile(call!).name).toBe('image.png');
  });

  it('takes an image pasted anywhere in the dialog that holds it alone, but not one pasted into a text field', async () => {
    const { api } = server([]);
    renderWithProviders(
      <div role="dialog">
        <button type="button">Somewhere else</button>
        <input aria-label="A note" />
        <AttachmentsPanel {...trade} />
      </div>,
    );
    await screen.findByText('Paste, drop or choose an image');
    const image = () => ({
      clipboardData: { files: [new File([new Uint8Array(100)], 'shot.png', { type: 'image/png' })] },
    });
    fireEvent.paste(screen.getByLabelText('A note'), image());
    expect(api.to('/api/v1/attachment/upload')).toHaveLength(0);
    fireEvent.paste(screen.getByRole('button', { name: 'Somewhere else' }), image());
    expect(await screen.findByRole('img', { name: 'Image 1' })).toBeInTheDocument();
    expect(api.to('/api/v1/attachment/upload')).toHaveLength(1);
  });

  it('leaves a paste outside the panels to the trader when the dialog holds two of them', async () => {
    const { api } = server([]);
    renderWithProviders(
      <div role="dialog">
        <button type="button">Somewhere else</button>
        <AttachmentsPanel {...trade} />
        <AttachmentsPanel target="day" date="2026-11-20" />
      </div>,
    );
    await waitFor(() => expect(screen.getAllByText('Paste, drop or choose an image')).toHaveLength(2));
    fireEvent.paste(screen.getByRole('button', { name: 'Somewhere else' }), {
      clipboardData: { files: [new File([new Uint8Array(100)], 'shot.png', { type: 'image/png' })] },
    });
    expect(api.to('/api/v1/attachment/upload')).toHaveLength(0);
  });

  it('ignores a paste with no file (text pasted into a caption stays text)', async () => {
    const { api } = server([]);
    renderWithProviders(<AttachmentsPanel {...trade} />);
    await screen.findByText('Paste, drop or choose an image');
    fireEvent.paste(dropZone(), { clipboardData: { files: [], types: ['text/plain'] } });
    expect(api.to('/api/v1/attachment/upload')).toHaveLength(0);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('uploads dropped images for a playbook', async () => {
    const { api } = server([], 'playbook');
    const onCountChange = vi.fn();
    renderWithProviders(
      <AttachmentsPanel target="playbook" id="pb-1" title="Examples" onCountChange={onCountChange} />,
    );
    const zone = await screen.findByRole('group', { name: 'Add images to Examples' });
    fireEvent.dragOver(zone, { dataTransfer: { files: [], types: ['Files'] } });
    fireEvent.drop(zone, { dataTransfer: { files: [png('a.png'), png('b.png')], types: ['Files'] } });

    expect(await screen.findByRole('img', { name: 'Image 2' })).toBeInTheDocument();
    const calls = api.to('/api/v1/attachment/upload');
    expect(calls.map((c) => uploadedFile(c).name).sort()).toEqual(['a.png', 'b.png']);
    expect(calls.every((c) => c.form!.get('target') === 'playbook' && c.form!.get('id') === 'pb-1')).toBe(true);
    expect(onCountChange).toHaveBeenCalledTimes(2);
  });

  it('lists a missed trade’s images by its id', async () => {
    const { api } = server([image('m1', 'Missed the break', 'missed')], 'missed');
    renderWithProviders(<AttachmentsPanel target="missed" id="mt-9" />);
    expect(await screen.findByRole('img', { name: 'Missed the break' })).toBeInTheDocument();
    expect(Object.fromEntries(api.to('/api/v1/attachment/get_attachments')[0]!.search)).toEqual({
      target: 'missed',
      id: 'mt-9',
    });
  });

  it('refuses before sending: a file that is not an image, one past 10 MB, one past 20 per item', async () => {
    const nineteen = Array.from({ length: 19 }, (_, i) => image(`a${i + 1}`));
    const { api } = server(nineteen);
    renderWithProviders(<AttachmentsPanel {...trade} />);
    await screen.findByRole('img', { name: 'Image 19' });

    const gif = new File([new Uint8Array(10)], 'anim.gif', { type: 'image/gif' });
    const huge = new File([new Uint8Array(11 * 1024 * 1024)], 'huge.png', { type: 'image/png' });
    fireEvent.drop(dropZone(), {
      dataTransfer: { files: [gif, huge, png('ok.png'), png('one-too-many.png')], types: ['Files'] },
    });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('“anim.gif” is not a PNG, JPEG or WebP image.');
    expect(alert).toHaveTextContent('“huge.png” is 11 MB; an image may be at most 10 MB.');
    expect(alert).toHaveTextContent('“one-too-many.png” was not added: an item holds at most 20 images.');
    await waitFor(() => expect(api.to('/api/v1/attachment/upload')).toHaveLength(1));
    expect(uploadedFile(api.to('/api/v1/attachment/upload')[0]!).name).toBe('ok.png');
    expect(await screen.findByText(/This holds the most images it can \(20\)/)).toBeInTheDocument();
    expect(screen.getByLabelText('Choose images')).toBeDisabled();
  });

  it.each([
    [413, 'The image is larger than 10 MB.', 'FILE_TOO_LARGE'],
    [409, 'Your images use all of your 500 MB of storage.', 'QUOTA_EXCEEDED'],
    [400, 'The file is not a PNG, JPEG or WebP image.', 'VALIDATION_ERROR'],
  ])('shows the server’s %i message as it came', async (status, message, code) => {
    const { api } = server([]);
    api.route(UPLOAD, () => failure(status, message, code));
    renderWithProviders(<AttachmentsPanel {...trade} />);
    await screen.findByText('Paste, drop or choose an image');
    fireEvent.drop(dropZone(), { dataTransfer: { files: [png('shot.png')], types: ['Files'] } });
    expect(await screen.findByRole('alert')).toHaveTextContent(`“shot.png”: ${message}`);
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('says the limit on a bare 413 with no body (a proxy’s refusal)', async () => {
    const { api } = server([]);
    api.route(UPLOAD, () => new Response('', { status: 413 }));
    renderWithProviders(<AttachmentsPanel {...trade} />);
    await screen.findByText('Paste, drop or choose an image');
    fireEvent.drop(dropZone(), { dataTransfer: { files: [png('shot.png')], types: ['Files'] } });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '“shot.png” is too large to upload; an image may be at most 10 MB.',
    );
  });

  it('opens the lightbox: arrows go round, Tab stays inside, Escape closes and gives focus back', async () => {
    const { api } = server([image('a1', 'Entry'), image('a2', 'Exit'), image('a3')]);
    const user = userEvent.setup();
    renderWithProviders(<AttachmentsPanel {...trade} />);
    const open = await screen.findByRole('button', { name: 'Open image 1: Entry' });
    await user.click(open);

    const dialog = screen.getByRole('dialog', { name: 'Image 1 of 3' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(within(dialog).getByRole('button', { name: 'Close the image viewer' })).toHaveFocus();
    const full = await within(dialog).findByRole('img', { name: 'Entry' });
    await waitFor(() => expect(full).toHaveAttribute('src', expect.stringMatching(/^blob:/)));
    expect(api.to('/api/v1/attachment/get_attachment/a1')[0]!.headers.Authorization).toBe('Bearer test-token');

    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('dialog', { name: 'Image 2 of 3' })).toHaveTextContent('Exit');
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(screen.getByRole('dialog', { name: 'Image 3 of 3' })).toHaveTextContent('No caption');
    await user.click(screen.getByRole('button', { name: 'Next image' }));
    expect(screen.getByRole('dialog', { name: 'Image 1 of 3' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Previous image' }));
    expect(screen.getByRole('dialog', { name: 'Image 3 of 3' })).toBeInTheDocument();

    // Close, Previous, Next, then round to Close again; and backwards from Close to Next.
    screen.getByRole('button', { name: 'Next image' }).focus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Close the image viewer' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Next image' })).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open image 1: Entry' })).toHaveFocus();
    // The full-size images' object URLs went with the viewer.
    for (const url of created.filter((u) => !revoked.includes(u)))
      expect(screen.getAllByRole('img').some((img) => img.getAttribute('src') === url)).toBe(true);
  });

  it('keeps Escape in the viewer: a surrounding handler on the document never sees it', async () => {
    server([image('a1')]);
    const outer = vi.fn();
    document.addEventListener('keydown', outer);
    const user = userEvent.setup();
    renderWithProviders(<AttachmentsPanel {...trade} />);
    await user.click(await screen.findByRole('button', { name: 'Open image 1' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(outer).not.toHaveBeenCalled();
    document.removeEventListener('keydown', outer);
  });

  it('edits a caption inline; one too long is refused before sending', async () => {
    const { api } = server([image('a1', 'Old')]);
    const user = userEvent.setup();
    renderWithProviders(<AttachmentsPanel {...trade} />);
    await user.click(await screen.findByRole('button', { name: 'Edit the caption of image 1' }));
    const input = screen.getByRole('textbox', { name: 'Caption' });
    await user.clear(input);
    await user.click(input);
    await user.paste('x'.repeat(201));
    expect(screen.getByRole('alert')).toHaveTextContent('A caption may be at most 200 characters.');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    await user.clear(input);
    await user.type(input, '  Stop under the wick ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Stop under the wick')).toBeInTheDocument();
    expect(api.to('/api/v1/attachment/edit_attachment/a1')[0]!.body).toEqual({ caption: 'Stop under the wick' });
    expect(screen.queryByRole('textbox', { name: 'Caption' })).not.toBeInTheDocument();
  });

  it('deletes an image only once confirmed', async () => {
    const { api } = server([image('a1', 'Keep me'), image('a2', 'Remove me')]);
    const user = userEvent.setup();
    const view = renderWithProviders(<AttachmentsPanel {...trade} />);
    view.client.setQueryData(queryKeys.tradeHistory.page('', 1), { rows: [] });
    await screen.findByRole('img', { name: 'Remove me' });

    await user.click(screen.getByRole('button', { name: 'Delete image 2' }));
    const confirm = screen.getByRole('group', { name: 'Delete this image?' });
    await user.click(within(confirm).getByRole('button', { name: 'Keep' }));
    expect(api.to(/delete_attachment/)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete image 2' }));
    await user.click(
      within(screen.getByRole('group', { name: 'Delete this image?' })).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByRole('img', { name: 'Remove me' })).not.toBeInTheDocument());
    expect(api.to('/api/v1/attachment/delete_attachment/a2')).toHaveLength(1);
    expect(screen.getByRole('img', { name: 'Keep me' })).toBeInTheDocument();
    expect(view.client.getQueryState(queryKeys.tradeHistory.page('', 1))?.isInvalidated).toBe(true);
    // The deleted thumbnail's object URL is revoked with its image.
    await act(async () => {});
    const live = screen.getAllByRole('img').map((img) => img.getAttribute('src'));
    expect(created.filter((u) => !revoked.includes(u))).toEqual(live);
  });
});
