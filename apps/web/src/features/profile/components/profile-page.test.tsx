import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { ToastContainer } from 'react-toastify';
import type { MeResponse, Profile } from '@pipsense/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProfilePage } from './profile-page';

interface Call {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
}
type Reply = { status: number; body: unknown };

const ok = (body: unknown): Reply => ({ status: 200, body });
const failure = (status: number, message: string): Reply => ({
  status,
  body: { success: false, message, code: 'X', requestId: 'req-1' },
});

/** The account server behind `fetch`: /me answers the stored profile; lookups answer from `taken`. */
function profileServer(initial: Profile, options: { taken?: string[]; update?: Reply; password?: Reply } = {}) {
  let profile = initial;
  const calls: Call[] = [];
  const taken = new Set(options.taken ?? []);
  const reply = (call: Call): Reply => {
    switch (`${call.method} ${call.path}`) {
      case 'GET /api/v1/auth/me':
        return ok({ success: true, message: 'Profile loaded.', data: profile } satisfies MeResponse);
      case 'POST /api/v1/auth/check_username_exist':
      case 'POST /api/v1/auth/check_email_exist': {
        const value = String(call.body?.username ?? call.body?.email);
        return ok({ success: true, message: '', exists: taken.has(value.toLowerCase()) });
      }
      case 'POST /api/v1/account/update_username_email':
        if (options.update) return options.update;
        profile = { username: String(call.body?.new_username), email: String(call.body?.new_email) };
        return ok({ success: true, message: 'Profile updated successfully', data: profile });
      case 'POST /api/v1/account/update_password':
        return options.password ?? ok({ success: true, message: 'Password changed successfully' });
      default:
        return failure(404, 'No such API route');
    }
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : input.toString(), 'http://localhost');
      const call: Call = {
        method: init?.method ?? 'GET',
        path: url.pathname,
        body: typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined,
      };
      calls.push(call);
      const { status, body } = reply(call);
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return { calls, to: (path: string) => calls.filter((c) => c.path === path) };
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ProfilePage />
      <ToastContainer />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const USERNAME_RULE = 'Username must be 3–32 characters: letters, digits, dot, dash or underscore.';
const alice: Profile = { username: 'alice', email: 'alice@example.com' };
const saveButtons = () => screen.getAllByRole('button', { name: 'Save Changes' });
const toastOf = async (text: string) => (await screen.findByText(text)).closest('.Toastify__toast');

afterEach(() => vi.unstubAllGlobals());

describe('Update Profile', () => {
  it('prefills Username and Email address from the profile', async () => {
    profileServer(alice);
    renderPage();
    expect(await screen.findByLabelText('Username')).toHaveValue('alice');
    expect(screen.getByLabelText('Email address')).toHaveValue('alice@example.com');
  });

  it('says there is nothing to save when neither field changed, and calls nothing', async () => {
    const server = profileServer(alice);
    const user = renderPage();
    await screen.findByLabelText('Username');
    await user.click(saveButtons()[0]!);
    expect(await toastOf('No changes made to the profile')).toHaveClass('Toastify__toast--info');
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('refuses a username that already exists before updating', async () => {
    const server = profileServer(alice, { taken: ['bob'] });
    const user = renderPage();
    const username = await screen.findByLabelText('Username');
    await user.clear(username);
    await user.type(username, 'bob');
    await user.click(saveButtons()[0]!);
    expect(await toastOf('Username already exists')).toHaveClass('Toastify__toast--error');
    expect(server.to('/api/v1/auth/check_username_exist').map((c) => c.body)).toEqual([{ username: 'bob' }]);
    expect(server.to('/api/v1/account/update_username_email')).toEqual([]);
  });

  it('refuses an email that already exists, without looking up the unchanged username', async () => {
    const server = profileServer(alice, { taken: ['bob@example.com'] });
    const user = renderPage();
    const email = await screen.findByLabelText('Email address');
    await user.clear(email);
    await user.type(email, 'bob@example.com');
    await user.click(saveButtons()[0]!);
    expect(await toastOf('Email already exists')).toHaveClass('Toastify__toast--error');
    expect(server.to('/api/v1/auth/check_username_exist')).toEqual([]);
    expect(server.to('/api/v1/account/update_username_email')).toEqual([]);
  });

  it('updates both, then shows the saved profile', async () => {
    const server = profileServer(alice);
    const user = renderPage();
    const username = await screen.findByLabelText('Username');
    await user.clear(username);
    await user.type(username, 'alice_fx');
    await user.clear(screen.getByLabelText('Email address'));
    await user.type(screen.getByLabelText('Email address'), 'alice.fx@example.com');
    await user.click(saveButtons()[0]!);
    expect(await toastOf('Profile updated successfully')).toHaveClass('Toastify__toast--success');
    expect(server.to('/api/v1/account/update_username_email').map((c) => c.body)).toEqual([
      { new_username: 'alice_fx', new_email: 'alice.fx@example.com' },
    ]);
    // The profile query is fetched again, so the header's name follows.
    await vi.waitFor(() => expect(server.to('/api/v1/auth/me').length).toBeGreaterThan(1));
    expect(screen.getByLabelText('Username')).toHaveValue('alice_fx');
  });

  it('lets you change the case of your own username without calling it taken', async () => {
    const server = profileServer(alice, { taken: ['alice'] });
    const user = renderPage();
    const username = await screen.findByLabelText('Username');
    await user.clear(username);
    await user.type(username, 'Alice');
    await user.click(saveButtons()[0]!);
    expect(await toastOf('Profile updated successfully')).toBeTruthy();
    expect(server.to('/api/v1/auth/check_username_exist')).toEqual([]);
  });

  it("shows the server's message when the update fails", async () => {
    profileServer(alice, { update: failure(400, USERNAME_RULE) });
    const user = renderPage();
    const username = await screen.findByLabelText('Username');
    await user.clear(username);
    await user.type(username, 'a!');
    await user.click(saveButtons()[0]!);
    expect(await toastOf(USERNAME_RULE)).toHaveClass('Toastify__toast--error');
  });
});

describe('Change Password', () => {
  it('refuses passwords that do not match, and calls nothing', async () => {
    const server = profileServer(alice);
    const user = renderPage();
    await user.type(await screen.findByLabelText('Password'), 'correct horse');
    await user.type(screen.getByLabelText('Confirm Password'), 'correct horsE');
    await user.click(saveButtons()[1]!);
    expect(await toastOf('Passwords do not match')).toHaveClass('Toastify__toast--error');
    expect(server.to('/api/v1/account/update_password')).toEqual([]);
  });

  it('changes the password and clears the fields', async () => {
    const server = profileServer(alice);
    const user = renderPage();
    await user.type(await screen.findByLabelText('Password'), 'correct horse');
    await user.type(screen.getByLabelText('Confirm Password'), 'correct horse');
    await user.click(saveButtons()[1]!);
    expect(await toastOf('Password changed successfully')).toHaveClass('Toastify__toast--success');
    expect(server.to('/api/v1/account/update_password').map((c) => c.body)).toEqual([
      { new_password: 'correct horse' },
    ]);
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Confirm Password')).toHaveValue('');
  });

  it("shows the server's message when the change is refused", async () => {
    profileServer(alice, { password: failure(400, 'Password must be 8–128 characters.') });
    const user = renderPage();
    await user.type(await screen.findByLabelText('Password'), 'short');
    await user.type(screen.getByLabelText('Confirm Password'), 'short');
    await user.click(saveButtons()[1]!);
    expect(await toastOf('Password must be 8–128 characters.')).toHaveClass('Toastify__toast--error');
    expect(screen.getByLabelText('Password')).toHaveValue('short');
  });
});
