import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import * as token from '../../lib/token';
import { failure, fakeApi, ok } from '../../test/fake-api';
import { findOpenDialog, renderWithProviders } from '../../test/render';
import { AppHeader } from './app-header';
import { EmailConfirmBanner } from './email-confirm-banner';

vi.mock('../../lib/token', async (original) => ({
  ...(await original<typeof token>()),
  logout: vi.fn(),
  clearSession: vi.fn(),
}));

const me = (emailConfirmed: boolean) => () =>
  ok({ success: true, message: '', data: { username: 'ann', email: 'ann@example.com', emailConfirmed } });

async function openMenu() {
  renderWithProviders(<AppHeader onToggleSidebar={() => undefined} />);
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Profile menu' }));
  return user;
}

describe('the profile menu', () => {
  it('Logout revokes the token on the server, then clears the browser', async () => {
    vi.mocked(token.logout).mockClear();
    localStorage.setItem('token', JSON.stringify('jwt-1'));
    const api = fakeApi({
      'GET /api/v1/auth/me': me(true),
      'POST /api/v1/auth/logout': () => ok({ success: true, message: 'You are signed out.' }),
    });
    const user = await openMenu();
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await vi.waitFor(() => expect(token.logout).toHaveBeenCalledTimes(1));
    expect(api.to('/api/v1/auth/logout')[0]!.headers.Authorization).toBe('Bearer jwt-1');
  });

  it('Logout still clears the browser when the server cannot be reached', async () => {
    vi.mocked(token.logout).mockClear();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fakeApi({ 'GET /api/v1/auth/me': me(true), 'POST /api/v1/auth/logout': () => failure(503, 'Down') });
    const user = await openMenu();
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await vi.waitFor(() => expect(token.logout).toHaveBeenCalledTimes(1));
  });

  it('Log out everywhere ends every session, then goes to sign in with the message', async () => {
    const message = 'You are signed out everywhere: every session of your account has ended.';
    const api = fakeApi({
      'GET /api/v1/auth/me': me(true),
      'POST /api/v1/auth/logout_all': () => ok({ success: true, message }),
    });
    const user = await openMenu();
    await user.click(screen.getByRole('button', { name: 'Log out everywhere' }));
    await vi.waitFor(() => expect(token.clearSession).toHaveBeenCalledWith('/login', message));
    expect(api.to('/api/v1/auth/logout_all')).toHaveLength(1);
  });
});

describe('the feedback button', () => {
  it('sends the message and thanks the trader', async () => {
    const api = fakeApi({
      'GET /api/v1/auth/me': me(true),
      'POST /api/v1/support/feedback': () =>
        ok({ success: true, message: 'Thank you for your feedback! It has been sent to the support team.' }),
    });
    renderWithProviders(<AppHeader onToggleSidebar={() => undefined} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Feedback' }));
    await findOpenDialog();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Write a message first.')).toBeVisible();
    expect(api.to('/api/v1/support/feedback')).toEqual([]);
    await user.type(screen.getByLabelText('Your message'), 'The calendar is great');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Thank you for your feedback! It has been sent to the support team.')).toBeVisible();
    expect(api.to('/api/v1/support/feedback').map((c) => c.body)).toEqual([{ message: 'The calendar is great' }]);
  });
});

describe('the email confirmation banner', () => {
  it('asks to confirm an unconfirmed address and resends the link', async () => {
    const api = fakeApi({
      'GET /api/v1/auth/me': me(false),
      'POST /api/v1/auth/resend_confirmation': () =>
        ok({ success: true, message: 'A new confirmation link is on its way to ann@example.com.' }),
    });
    renderWithProviders(<EmailConfirmBanner />);
    expect(await screen.findByText(/Please confirm your email address/)).toHaveTextContent('ann@example.com');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByText('A new confirmation link is on its way to ann@example.com.')).toBeVisible();
    expect(api.to('/api/v1/auth/resend_confirmation')).toHaveLength(1);
  });

  it('is not shown once the address is confirmed', async () => {
    const api = fakeApi({ 'GET /api/v1/auth/me': me(true) });
    renderWithProviders(<EmailConfirmBanner />);
    await vi.waitFor(() => expect(api.to('/api/v1/auth/me')).toHaveLength(1));
    expect(screen.queryByText(/Please confirm your email address/)).toBeNull();
  });
});
