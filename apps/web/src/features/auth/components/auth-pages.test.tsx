import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { failure, fakeApi, ok, type ApiCall } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { LoginPage } from './login-page';
import { RegisterPage } from './register-page';

const LOGIN = '/api/v1/auth/login';
const REGISTER = '/api/v1/auth/register';

async function signIn(username: string, password: string) {
  const user = userEvent.setup();
  renderWithProviders(<LoginPage />, { path: '/login' });
  if (username) await user.type(screen.getByLabelText('Username'), username);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('LoginPage', () => {
  it("says 'All fields are required.' and calls nothing when a field is empty", async () => {
    const api = fakeApi();
    await signIn('alice', '');
    expect(await screen.findByText('All fields are required.')).toBeVisible();
    expect(api.calls).toEqual([]);
  });

  it("stores the token and says 'Login successful!'", async () => {
    const api = fakeApi({ [`POST ${LOGIN}`]: () => ok({ success: true, message: 'Signed in.', token: 'jwt-9' }) });
    await signIn(' alice ', 'secret-pass');
    expect(await screen.findByText('Login successful!')).toBeVisible();
    expect(api.to(LOGIN)[0]!.body).toEqual({ username: 'alice', password: 'secret-pass' });
    expect(localStorage.getItem('token')).toBe(JSON.stringify('jwt-9'));
  });

  it("shows the server's message when it refuses, without signing out", async () => {
    fakeApi({ [`POST ${LOGIN}`]: () => failure(401, 'Invalid username or password.') });
    await signIn('alice', 'wrong');
    expect(await screen.findByText('Invalid username or password.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  it("says 'Unexpected response code: {status}' when the server gives no message", async () => {
    fakeApi({ [`POST ${LOGIN}`]: () => ({ status: 502, body: {} }) });
    await signIn('alice', 'secret-pass');
    expect(await screen.findByText('Unexpected response code: 502')).toBeVisible();
  });

  it("says 'Login failed.' when a 200 answer carries no token", async () => {
    fakeApi({ [`POST ${LOGIN}`]: () => ok({ success: true, message: '', token: '' }) });
    await signIn('alice', 'secret-pass');
    expect(await screen.findByText('Login failed.')).toBeVisible();
  });
});

function registerServer(taken: string[], register = () => ok({ success: true, message: 'Registered.' })) {
  const exists = ({ body }: ApiCall) =>
    ok({ success: true, message: '', exists: taken.includes(String(body?.username ?? body?.email)) });
  return fakeApi({
    'POST /api/v1/auth/check_username_exist': exists,
    'POST /api/v1/auth/check_email_exist': exists,
    [`POST ${REGISTER}`]: register,
  });
}

async function signUp(fields: { username: string; email: string; password: string; confirm: string }) {
  const user = userEvent.setup();
  renderWithProviders(
    <Routes>
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/login" element={<p>On the sign-in page</p>} />
    </Routes>,
    { path: '/register' },
  );
  await user.type(screen.getByLabelText('Username'), fields.username);
  await user.type(screen.getByLabelText('Email'), fields.email);
  await user.type(screen.getByLabelText('Password'), fields.password);
  await user.type(screen.getByLabelText('Confirm Password'), fields.confirm);
  await user.click(screen.getByRole('button', { name: 'Sign Up' }));
}

const bob = { username: 'bob', email: 'bob@example.com', password: 'secret-pass', confirm: 'secret-pass' };

describe('RegisterPage', () => {
  it("registers, says 'Registration successful! You can now log in.' and goes to sign in", async () => {
    const api = registerServer([]);
    await signUp(bob);
    expect(await screen.findByText('On the sign-in page')).toBeVisible();
    expect(screen.getByText('Registration successful! You can now log in.')).toBeVisible();
    expect(api.to(REGISTER)[0]!.body).toEqual({ username: 'bob', email: 'bob@example.com', password: 'secret-pass' });
  });

  it("refuses a taken username with 'Username already exists.' before registering", async () => {
    const api = registerServer(['bob']);
    await signUp(bob);
    expect(await screen.findByText('Username already exists.')).toBeVisible();
    expect(api.to(REGISTER)).toEqual([]);
  });

  it("refuses a taken email with 'Email already exists.'", async () => {
    registerServer(['bob@example.com']);
    await signUp(bob);
    expect(await screen.findByText('Email already exists.')).toBeVisible();
  });

  it("shows the server's message when registration is refused", async () => {
    registerServer([], () => failure(400, 'Password must be 8–128 characters.'));
    await signUp(bob);
    expect(await screen.findByText('Password must be 8–128 characters.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeEnabled();
  });

  it('counts a failed lookup as free and lets the server decide', async () => {
    const api = fakeApi({ [`POST ${REGISTER}`]: () => ok({ success: true, message: 'Registered.' }) });
    await signUp(bob);
    expect(await screen.findByText('On the sign-in page')).toBeVisible();
    expect(api.to(REGISTER)).toHaveLength(1);
  });
});
