import { expect, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';

export function newUser(prefix = 'e2e') {
  const tag = `${prefix}${randomUUID().slice(0, 8)}`;
  return { username: tag, email: `${tag}@example.com`, password: 'correct horse battery' };
}

export type User = ReturnType<typeof newUser>;

/** Registers through the API (fast) — the register screen itself has its own test. */
export async function registerByApi(page: Page, user: User): Promise<void> {
  const res = await page.request.post('/api/v1/auth/register', { data: user });
  expect(res.status(), await res.text()).toBe(200);
}

export async function signIn(page: Page, user: User): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/overview');
}

/** A signed-in page for a fresh user. */
export async function signedIn(page: Page, prefix?: string): Promise<User> {
  const user = newUser(prefix);
  await registerByApi(page, user);
  await signIn(page, user);
  return user;
}

/** A toast (react-toastify renders each one as an alert) with this text. */
export function toast(page: Page, text: string | RegExp) {
  return page.getByRole('alert').filter({ hasText: text });
}

/** The session token the app keeps in localStorage (JSON-encoded, SPEC §9), for API calls as the signed-in user. */
export async function sessionToken(page: Page): Promise<string> {
  const stored = await page.evaluate(() => localStorage.getItem('token'));
  expect(stored, 'no session token in localStorage').not.toBeNull();
  return JSON.parse(stored!) as string;
}

/** Signs in through the API and stores the token where the app reads it: for tests whose subject is not sign-in. */
export async function signInByApi(page: Page, user: User): Promise<string> {
  const res = await page.request.post('/api/v1/auth/login', {
    data: { username: user.username, password: user.password },
  });
  expect(res.status(), await res.text()).toBe(200);
  const { token } = (await res.json()) as { token: string };
  await page.goto('/login');
  await page.evaluate((t) => localStorage.setItem('token', JSON.stringify(t)), token);
  return token;
}

/** GET or POST an API path as a signed-in user; fails the test unless the answer is 200. */
export async function apiAs<T>(page: Page, token: string, path: string, body?: unknown): Promise<T> {
  const headers = { Authorization: `Bearer ${token}` };
  const res =
    body === undefined
      ? await page.request.get(path, { headers })
      : await page.request.post(path, { headers, data: body });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}
