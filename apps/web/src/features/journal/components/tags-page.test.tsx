import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, failure, ok } from '../../../test/fake-api';
import { findOpenDialog, renderWithProviders } from '../../../test/render';
import { GET_TAGS, tag, TAGS, tagsBody } from '../test/journal-fixtures';
import { TagsPage } from './tags-page';

const CREATE = 'POST /api/v1/journal/create_tag';
const EDIT = 'POST /api/v1/journal/edit_tag/:tagId';
const DELETE = 'POST /api/v1/journal/delete_tag/:tagId';
const section = (name: string) => screen.getByRole('region', { name });

beforeEach(() => localStorage.setItem('token', JSON.stringify('test-token')));

describe('TagsPage', () => {
  it('lists the three kinds with their tags and trade counts', async () => {
    fakeApi({ [GET_TAGS]: () => ok(tagsBody()) });
    renderWithProviders(<TagsPage />);
    await screen.findByRole('region', { name: 'Setups' });
    const setups = within(section('Setups')).getAllByRole('listitem');
    expect(setups.map((li) => li.textContent)).toEqual(['Breakout12 trades', 'Pullback4 trades']);
    expect(within(section('Mistakes')).getByText('FOMO').nextSibling).toHaveTextContent('3 trades');
    expect(within(section('Emotions')).getByText('0 trades')).toBeInTheDocument();
  });

  it('creates a tag of the kind, then lists it; a duplicate shows the server message', async () => {
    let tags = [...TAGS];
    const api = fakeApi({
      [GET_TAGS]: () => ok(tagsBody(tags)),
      [CREATE]: (call) => {
        const body = call.body as { name: string; kind: 'setup' };
        if (tags.some((t) => t.name.toLowerCase() === body.name.toLowerCase() && t.kind === body.kind))
          return failure(409, `You already have a ${body.kind} tag named "${body.name}".`, 'TAG_EXISTS');
        const created = tag('t-new', body.name, body.kind, 0);
        tags = [...tags, created];
        return ok({ success: true, message: 'Created', data: created });
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<TagsPage />);
    const setups = await screen.findByRole('region', { name: 'Setups' });

    await user.click(within(setups).getByRole('button', { name: 'Add' }));
    expect(within(setups).getByRole('alert')).toHaveTextContent('Enter a name.');
    expect(api.to(/create_tag/)).toHaveLength(0);

    await user.type(within(setups).getByLabelText('New setup name'), '  Range fade ');
    await user.click(within(setups).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(api.to('/api/v1/journal/create_tag')).toHaveLength(1));
    expect(api.to('/api/v1/journal/create_tag')[0]!.body).toEqual({ kind: 'setup', name: 'Range fade' });
    expect(await within(setups).findByText('Range fade')).toBeInTheDocument();
    expect(within(setups).getByLabelText('New setup name')).toHaveValue('');

    await user.type(within(setups).getByLabelText('New setup name'), 'breakout');
    await user.click(within(setups).getByRole('button', { name: 'Add' }));
    expect(await within(setups).findByRole('alert')).toHaveTextContent(
      'You already have a setup tag named "breakout".',
    );
    expect(within(setups).getByLabelText('New setup name')).toHaveValue('breakout');
  });

  it('refuses a name past the limit without sending it', async () => {
    const api = fakeApi({ [GET_TAGS]: () => ok(tagsBody()) });
    const user = userEvent.setup();
    renderWithProviders(<TagsPage />);
    const mistakes = await screen.findByRole('region', { name: 'Mistakes' });
    await user.type(within(mistakes).getByLabelText('New mistake name'), 'x'.repeat(41));
    await user.click(within(mistakes).getByRole('button', { name: 'Add' }));
    expect(within(mistakes).getByRole('alert')).toHaveTextContent('A tag name must be at most 40 characters.');
    expect(api.to(/create_tag/)).toHaveLength(0);
  });

  it('renames inline, and shows a refused rename in place', async () => {
    let tags = [...TAGS];
    const api = fakeApi({
      [GET_TAGS]: () => ok(tagsBody(tags)),
      [EDIT]: (call) => {
        const { name } = call.body as { name: string };
        if (name === 'Pullback') return failure(409, 'You already have a setup tag named "Pullback".', 'TAG_EXISTS');
        tags = tags.map((t) => (t.id === call.params.tagId ? { ...t, name } : t));
        return ok({ success: true, message: 'Renamed', data: tags.find((t) => t.id === call.params.tagId) });
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<TagsPage />);
    const setups = await screen.findByRole('region', { name: 'Setups' });

    await user.click(within(setups).getByRole('button', { name: 'Rename Breakout' }));
    const input = within(setups).getByLabelText('New name');
    await user.clear(input);
    await user.type(input, 'Pullback');
    await user.click(within(setups).getByRole('button', { name: 'Save' }));
    expect(await within(setups).findByRole('alert')).toHaveTextContent(
      'You already have a setup tag named "Pullback".',
    );

    await user.clear(input);
    await user.type(input, 'Breakout retest{Enter}');
    expect(await within(setups).findByText('Breakout retest')).toBeInTheDocument();
    const edits = api.to('/api/v1/journal/edit_tag/t-breakout', 'POST');
    expect(edits.map((c) => c.body)).toEqual([{ name: 'Pullback' }, { name: 'Breakout retest' }]);
    expect(within(setups).queryByLabelText('New name')).not.toBeInTheDocument();
  });

  it('deletes only after the confirmation, which says how many trades lose the tag', async () => {
    let tags = [...TAGS];
    const api = fakeApi({
      [GET_TAGS]: () => ok(tagsBody(tags)),
      [DELETE]: (call) => {
        tags = tags.filter((t) => t.id !== call.params.tagId);
        return ok({ success: true, message: 'Deleted' });
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<TagsPage />);
    const mistakes = await screen.findByRole('region', { name: 'Mistakes' });

    await user.click(within(mistakes).getByRole('button', { name: 'Delete FOMO' }));
    let dialog = await findOpenDialog();
    expect(dialog).toHaveTextContent('It is removed from 3 trades');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.to(/delete_tag/)).toHaveLength(0);

    await user.click(within(mistakes).getByRole('button', { name: 'Delete FOMO' }));
    dialog = await findOpenDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Delete tag' }));
    await waitFor(() => expect(within(section('Mistakes')).queryByText('FOMO')).not.toBeInTheDocument());
    expect(api.to('/api/v1/journal/delete_tag/t-fomo', 'POST')).toHaveLength(1);
    expect(within(section('Mistakes')).getByText('No mistake tags yet.')).toBeInTheDocument();
  });

  it('keeps the dialog open with the message when a delete fails', async () => {
    fakeApi({
      [GET_TAGS]: () => ok(tagsBody()),
      [DELETE]: () => failure(404, 'Tag not found: it may have been deleted already.', 'NOT_FOUND'),
    });
    const user = userEvent.setup();
    renderWithProviders(<TagsPage />);
    await user.click(await screen.findByRole('button', { name: 'Delete Calm' }));
    const dialog = await findOpenDialog();
    expect(dialog).toHaveTextContent('No trade carries this tag.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete tag' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Tag not found: it may have been deleted already.',
    );
  });
});
