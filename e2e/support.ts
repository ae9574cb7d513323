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
