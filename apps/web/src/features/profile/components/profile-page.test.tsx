import userEvent from '@testing-library/user-event';
import { screen } from '@testing-library/react';
import type { MeResponse, Profile } from '@pipsense/contract';
import { describe, expect, it, vi } from 'vitest';
import * as token from '../../../lib/token';
import { fakeApi, failure, ok, type ApiCall, type Reply } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { ProfilePage } from './profile-page';

vi.mock('../../../lib/token', async (original) => ({
  ...(await original<typeof token>()),
  clearSession: vi.fn(),
}));

/** The account server: /me answers the stored profile; lookups answer from `taken`. */
function profileServer(
  initial: Profile,
  options: {
    taken?: string[];
    update?: Reply;
    password?: Reply;
    deletion?: Reply;
    timeZone?: string | null;
    homeCurrency?: { currency: string; isDefault: boolean };
  } = {},
) {
  let profile = initial;
  let home = options.homeCurrency ?? { currency: 'JPY', isDefault: true };
  let timeZone = options.timeZone === undefined ? 'Europe/London' : options.timeZone;
  const taken = new Set(options.taken ?? []);
  const exists = ({ body }: ApiCall) =>
    ok({ success: true, message: '', exists: taken.has(String(body?.username ?? body?.email).toLowerCase()) });
  return fakeApi({
    'GET /api/v1/auth/me': () => ok({ success: true, message: 'Profile loaded.', data: profile } satisfies MeResponse),
    'POST /api/v1/auth/check_username_exist': exists,
    'POST /api/v1/auth/check_email_exist': exists,
    'POST /api/v1/account/update_username_email': ({ body }) => {
      if (options.update) return options.update;
      profile = { username: String(body?.new_username), email: String(body?.new_email) };
      return ok({ success: true, message: 'Profile updated successfully', data: profile });
    },
    'GET /api/v1/account/get_time_zone': () => ok({ success: true, message: 'Time zone loaded.', data: { timeZone } }),
    'POST /api/v1/account/update_time_zone': ({ body }) => {
      timeZone = String(body?.timeZone);
      return ok({ success: true, message: `Time zone set to ${timeZone}.`, data: { timeZone } });
    },
    'GET /api/v1/account/get_home_currency': () => ok({ success: true, message: 'Home currency.', data: home }),
    'POST /api/v1/account/update_home_currency': ({ body }) => {
      const currency = String(body?.currency);
      if (!/^[A-Z]{3}$/.test(currency))
        return failure(400, 'currency must be an ISO 4217 code of three capital letters, such as USD, EUR or JPY');
      home = { currency, isDefault: false };
      return ok({ success: true, message: `Home currency set to ${currency}.`, data: home });
    },
    'POST /api/v1/account/update_password': () =>
      options.password ?? ok({ success: true, message: 'Password changed successfully', token: 'fresh-jwt' }),
    'POST /api/v1/account/delete_account': () =>
      options.deletion ?? ok({ success: true, message: 'Your account and all of its data have been deleted.' }),
  });
}

function renderPage() {
  renderWithProviders(<ProfilePage />);
  return userEvent.setup();
}

const USERNAME_RULE = 'Username must be 3–32 characters: letters, digits, dot, dash or underscore.';
const alice: Profile = { username: 'alice', email: 'alice@example.com' };
const saveButtons = () => screen.getAllByRole('button', { name: 'Save Changes' });
const toastOf = async (text: string) => (await screen.findByText(text)).closest('.Toastify__toast');

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
    await user.type(await screen.findByLabelText('Current Password'), 'old secret');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.type(screen.getByLabelText('Confirm Password'), 'correct horsE');
    await user.click(saveButtons()[1]!);
    expect(await toastOf('Passwords do not match')).toHaveClass('Toastify__toast--error');
    expect(server.to('/api/v1/account/update_password')).toEqual([]);
  });

  it('asks for the current password first, and calls nothing without it', async () => {
    const server = profileServer(alice);
    const user = renderPage();
    await user.type(await screen.findByLabelText('Password'), 'correct horse');
    await user.type(screen.getByLabelText('Confirm Password'), 'correct horse');
    await user.click(saveButtons()[1]!);
    expect(await toastOf('Enter your current password')).toHaveClass('Toastify__toast--error');
    expect(server.to('/api/v1/account/update_password')).toEqual([]);
  });

  it('changes the password with the current one, keeps the session with the fresh token, and clears the fields', async () => {
    const server = profileServer(alice);
    const user = renderPage();
    await user.type(await screen.findByLabelText('Current Password'), 'old secret');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.type(screen.getByLabelText('Confirm Password'), 'correct horse');
    await user.click(saveButtons()[1]!);
    expect(await toastOf('Password changed successfully')).toHaveClass('Toastify__toast--success');
    expect(server.to('/api/v1/account/update_password').map((c) => c.body)).toEqual([
      { current_password: 'old secret', new_password: 'correct horse' },
    ]);
    expect(localStorage.getItem('token')).toBe(JSON.stringify('fresh-jwt'));
    expect(screen.getByLabelText('Current Password')).toHaveValue('');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Confirm Password')).toHaveValue('');
  });

  it("shows the server's message when the change is refused", async () => {
    profileServer(alice, {
      password: failure(400, 'Current Password is not correct. Nothing was changed.', 'WRONG_PASSWORD'),
    });
    const user = renderPage();
    await user.type(await screen.findByLabelText('Current Password'), 'wrong one');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.type(screen.getByLabelText('Confirm Password'), 'correct horse');
    await user.click(saveButtons()[1]!);
    expect(await toastOf('Current Password is not correct. Nothing was changed.')).toHaveClass(
      'Toastify__toast--error',
    );
    expect(screen.getByLabelText('Password')).toHaveValue('correct horse');
  });
});

describe('Delete account', () => {
  it('asks for the password, deletes, and signs this browser out to the sign-in page', async () => {
    const server = profileServer(alice);
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Delete account…' }));
    await user.click(screen.getByRole('button', { name: 'Delete my account for good' }));
    expect(await toastOf('Enter your password to delete the account')).toHaveClass('Toastify__toast--error');
    expect(server.to('/api/v1/account/delete_account')).toEqual([]);

    await user.type(screen.getByLabelText('Password', { selector: '#profile-delete-password' }), 'my secret');
    await user.click(screen.getByRole('button', { name: 'Delete my account for good' }));
    await vi.waitFor(() =>
      expect(token.clearSession).toHaveBeenCalledWith('/login', 'Your account and all of its data have been deleted.'),
    );
    expect(server.to('/api/v1/account/delete_account').map((c) => c.body)).toEqual([{ password: 'my secret' }]);
  });

  it('keeps the account and says why when the password is wrong; Cancel closes the confirmation', async () => {
    vi.mocked(token.clearSession).mockClear();
    profileServer(alice, {
      deletion: failure(400, 'The password is not correct. Nothing was changed.', 'WRONG_PASSWORD'),
    });
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Delete account…' }));
    await user.type(screen.getByLabelText('Password', { selector: '#profile-delete-password' }), 'nope');
    await user.click(screen.getByRole('button', { name: 'Delete my account for good' }));
    expect(await toastOf('The password is not correct. Nothing was changed.')).toHaveClass('Toastify__toast--error');
    expect(token.clearSession).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Delete account…' })).toBeVisible();
  });
});

describe('Time zone', () => {
  const zoneSaves = (server: ReturnType<typeof profileServer>) =>
    server.calls.filter((c) => c.method === 'POST' && c.path === '/api/v1/account/update_time_zone').map((c) => c.body);

  it("saves the browser's zone once when none is saved", async () => {
    const server = profileServer(alice, { timeZone: null });
    renderPage();
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
    await vi.waitFor(() => expect(zoneSaves(server)).toEqual([{ timeZone: browser }]));
    expect(await screen.findByLabelText('Time zone')).toHaveValue(browser);
  });

  it('shows the saved zone, sends nothing on its own, and saves the one picked', async () => {
    const server = profileServer(alice, { timeZone: 'Europe/London' });
    const user = renderPage();
    const select = await screen.findByLabelText('Time zone');
    await vi.waitFor(() => expect(select).toHaveValue('Europe/London'));
    expect(zoneSaves(server)).toEqual([]);
    await user.selectOptions(select, 'Asia/Tokyo');
    await user.click(saveButtons()[2]!);
    expect(await toastOf('Time zone set to Asia/Tokyo. The Overview now counts days and hours in it.')).not.toBeNull();
    expect(zoneSaves(server)).toEqual([{ timeZone: 'Asia/Tokyo' }]);
  });
});

describe('Home currency', () => {
  const saves = (server: ReturnType<typeof profileServer>) =>
    server.calls
      .filter((c) => c.method === 'POST' && c.path === '/api/v1/account/update_home_currency')
      .map((c) => c.body);

  it('shows the default with a note that it is the default, and saves the one picked', async () => {
    const server = profileServer(alice, { homeCurrency: { currency: 'JPY', isDefault: true } });
    const user = renderPage();
    const select = await screen.findByLabelText('Home currency');
    await vi.waitFor(() => expect(select).toHaveValue('JPY'));
    expect(screen.getByText(/Not chosen yet: JPY is the default, the currency of most of your trades\./)).toBeVisible();
    expect(saves(server)).toEqual([]);
    await user.selectOptions(select, 'EUR');
    await user.click(saveButtons()[3]!);
    expect(await toastOf('Home currency set to EUR.')).not.toBeNull();
    expect(saves(server)).toEqual([{ currency: 'EUR' }]);
    expect(await screen.findByText(/Your home currency is EUR\./)).toBeVisible();
  });
});
