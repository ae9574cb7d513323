import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PASSWORD_RESET_REQUESTED } from '@pipsense/contract';
import * as token from '../../../lib/token';
import { failure, fakeApi, ok } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { ConfirmEmailPage } from './confirm-email-page';
import { ForgotPasswordPage } from './forgot-password-page';
import { LoginPage } from './login-page';
import { ResetPasswordPage } from './reset-password-page';

vi.mock('../../../lib/token', async (original) => ({
  ...(await original<typeof token>()),
  clearSession: vi.fn(),
}));

const TOKEN = 'A'.repeat(43);

describe('the sign-in page', () => {
  it("links to '/forgot_password'", () => {
    renderWithProviders(<LoginPage />, { path: '/login' });
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/forgot_password');
  });
});

describe('ForgotPasswordPage', () => {
  it('asks for a link and shows the answer, which is the same for any address', async () => {
    const api = fakeApi({
      'POST /api/v1/auth/request_password_reset': () => ok({ success: true, message: PASSWORD_RESET_REQUESTED }),
    });
    renderWithProviders(<ForgotPasswordPage />, { path: '/forgot_password' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send the reset link' }));
    expect(await screen.findByText('Enter the email address of your account.')).toBeVisible();
    expect(api.calls).toEqual([]);
    await user.type(screen.getByLabelText('Email'), ' ann@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send the reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(PASSWORD_RESET_REQUESTED);
    expect(api.to('/api/v1/auth/request_password_reset').map((c) => c.body)).toEqual([{ email: 'ann@example.com' }]);
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
    // The answer replaces the form and its instructions; a mistyped address is one click from the form again.
    expect(screen.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    expect(screen.queryByText(/Enter the email address of your account and/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'try another address' }));
    expect(screen.getByLabelText('Email')).toHaveValue('ann@example.com');
    expect(screen.getByRole('button', { name: 'Send the reset link' })).toBeEnabled();
  });
});

describe('ResetPasswordPage', () => {
  it('sets the new password with the token of the link, then goes to sign in with the message', async () => {
    const api = fakeApi({
      'POST /api/v1/auth/reset_password': () =>
        ok({ success: true, message: 'Your password has been reset. Sign in with the new password.' }),
    });
    renderWithProviders(<ResetPasswordPage />, { path: `/reset_password?token=${TOKEN}` });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New Password'), 'a fresh start');
    await user.type(screen.getByLabelText('Confirm Password'), 'a fresh stars');
    expect(screen.getByText('Passwords do not match')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Set the new password' }));
    expect(api.calls).toEqual([]);
    await user.clear(screen.getByLabelText('Confirm Password'));
    await user.type(screen.getByLabelText('Confirm Password'), 'a fresh start');
    await user.click(screen.getByRole('button', { name: 'Set the new password' }));
    await vi.waitFor(() =>
      expect(token.clearSession).toHaveBeenCalledWith(
        '/login',
        'Your password has been reset. Sign in with the new password.',
      ),
    );
    expect(api.to('/api/v1/auth/reset_password').map((c) => c.body)).toEqual([
      { token: TOKEN, password: 'a fresh start' },
    ]);
  });

  it("shows the server's message for a used or expired link, with a way to ask for a new one", async () => {
    vi.mocked(token.clearSession).mockClear();
    const message = 'This password reset link is invalid, used or expired. Ask for a new one from the sign-in page.';
    fakeApi({ 'POST /api/v1/auth/reset_password': () => failure(400, message, 'INVALID_LINK') });
    renderWithProviders(<ResetPasswordPage />, { path: `/reset_password?token=${TOKEN}` });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New Password'), 'a fresh start');
    await user.type(screen.getByLabelText('Confirm Password'), 'a fresh start');
    await user.click(screen.getByRole('button', { name: 'Set the new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(token.clearSession).not.toHaveBeenCalled();
    // The spent link's form is gone (no second try of a dead link): the way to a new one is what is left.
    expect(screen.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible();
    expect(screen.queryByLabelText('New Password')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Set the new password' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot_password');
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
  });

  it('keeps the form, with a toast, when the failure is not about the link', async () => {
    fakeApi({ 'POST /api/v1/auth/reset_password': () => failure(400, 'Password must be at most 128 characters.') });
    renderWithProviders(<ResetPasswordPage />, { path: `/reset_password?token=${TOKEN}` });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New Password'), 'a fresh start');
    await user.type(screen.getByLabelText('Confirm Password'), 'a fresh start');
    await user.click(screen.getByRole('button', { name: 'Set the new password' }));
    expect(await screen.findByText('Password must be at most 128 characters.')).toBeVisible();
    expect(screen.getByLabelText('New Password')).toHaveValue('a fresh start');
  });

  it('says so when the link has no token', () => {
    fakeApi();
    renderWithProviders(<ResetPasswordPage />, { path: '/reset_password' });
    expect(screen.getByRole('alert')).toHaveTextContent('This link has no token.');
    expect(screen.queryByRole('button', { name: 'Set the new password' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot_password');
  });
});

describe('ConfirmEmailPage', () => {
  it('confirms once on arrival and says so', async () => {
    const api = fakeApi({
      'POST /api/v1/auth/confirm_email': () =>
        ok({ success: true, message: 'Your email address is confirmed. Thank you!' }),
    });
    renderWithProviders(<ConfirmEmailPage />, { path: `/confirm_email?token=${TOKEN}` });
    expect(await screen.findByText('Your email address is confirmed. Thank you!')).toBeVisible();
    expect(api.to('/api/v1/auth/confirm_email').map((c) => c.body)).toEqual([{ token: TOKEN }]);
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });

  it("shows the server's message when the link is refused; signed in, it leads back to the app", async () => {
    localStorage.setItem('token', JSON.stringify('jwt'));
    const message = 'This confirmation link is invalid or has expired. Sign in and ask for a new one from the banner.';
    fakeApi({ 'POST /api/v1/auth/confirm_email': () => failure(400, message, 'INVALID_LINK') });
    renderWithProviders(<ConfirmEmailPage />, { path: `/confirm_email?token=${TOKEN}` });
    expect(await screen.findByText(message)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to PipSense' })).toHaveAttribute('href', '/overview');
  });
});
