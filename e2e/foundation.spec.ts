import { expect, test } from '@playwright/test';
import { newUser, registerByApi, signIn, signedIn } from './support';

test('register, sign in, see the layout, save settings, change the profile and log out', async ({ page }) => {
  const user = newUser('reg');
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Welcome to PipSense')).toBeVisible();
  await expect(page.getByText('Please sign in to your account.')).toBeVisible();
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();

  // The spec's order: required first.
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText('All fields are required.')).toBeVisible();

  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm Password').fill('something else');
  await expect(page.getByText('Passwords do not match').first()).toBeVisible();
  await page.getByLabel('Confirm Password').fill(user.password);
  await expect(page.getByText('Passwords match')).toBeVisible();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Registration successful! You can now log in.').first()).toBeVisible();

  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Login successful!')).toBeVisible();
  await page.waitForURL('**/overview');
  const stored = await page.evaluate(() => localStorage.getItem('token'));
  expect(stored).toMatch(/^"ey[^"]+"$/);

  // Layout: heading, sidebar group of the current path open, avatar initial and name, footer.
  await expect(page.locator('.page-heading')).toHaveText('Overview');
  await expect(page.getByRole('link', { name: 'Overview' })).toBeVisible();
  await expect(page.locator('.header .avatar')).toHaveText(user.username[0]!.toUpperCase());
  await expect(page.locator('.header-name')).toHaveText(user.username);
  await expect(page.getByText('Powered by PipSense')).toBeVisible();
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('link', { name: 'Trading Platforms', exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/trading_platforms$/);
  await expect(page.locator('.page-heading')).toHaveText('Trading Platforms');

  // OANDA configuration: the spec's validation, then a save.
  await page.getByText('OANDA', { exact: true }).first().click();
  const modal = page.getByRole('dialog');
  await expect(modal.getByText('OANDA Configuration')).toBeVisible();
  await modal.getByLabel('Access Token').fill('');
  await modal.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(page.getByText('All fields are required.')).toBeVisible();
  await modal.getByLabel('Access Token').fill('e2e-token-0000-1111-2222-abcd');
  await modal.getByLabel('Account ID').fill('101-004-1234567-001');
  await modal.getByLabel('Mode').selectOption('demo');
  await modal.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(page.getByText('Configuration updated successfully')).toBeVisible();

  // AI platform: make VertexAI the default.
  await page.goto('/settings/ai_platforms');
  await expect(page.locator('.page-heading')).toHaveText('AI Platforms');
  await page.getByText('VertexAI', { exact: true }).first().click();
  await page.getByRole('dialog').getByRole('button', { name: 'Make Default' }).click();
  await expect(page.getByText('Configuration updated successfully')).toBeVisible();
  const info = await page.evaluate(async () => {
    const token = JSON.parse(localStorage.getItem('token')!) as string;
    const res = await fetch('/api/v1/account/get_info', { headers: { Authorization: `Bearer ${token}` } });
    return (await res.json()) as {
      data: { default_ai_platfrom: string; oanda: { accessToken: string; accountId: string } };
    };
  });
  expect(info.data.default_ai_platfrom).toBe('vertexai');
  expect(info.data.oanda.accessToken).toBe('••••abcd');
  expect(info.data.oanda.accountId).toBe('101-004-1234567-001');

  // Profile: no change, then a change that the header shows.
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/settings\/profile$/);
  const profileCard = page.locator('.card', { hasText: 'Update Profile' });
  await expect(profileCard.getByLabel('Username')).toHaveValue(user.username);
  await profileCard.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('No changes made to the profile')).toBeVisible();
  const renamed = `${user.username}x`;
  await profileCard.getByLabel('Username').fill(renamed);
  await profileCard.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated successfully')).toBeVisible();
  await expect(page.locator('.header-name')).toHaveText(renamed);

  const passwordCard = page.locator('.card', { hasText: 'Change Password' });
  await passwordCard.getByLabel('Password', { exact: true }).fill('another password');
  await passwordCard.getByLabel('Confirm Password').fill('another passwore');
  await passwordCard.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();

  // Logout: token gone, back at the sign-in page.
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('an expired or undecodable token is removed and the user sent to sign in', async ({ page }) => {
  const user = newUser('exp');
  await registerByApi(page, user);
  await page.goto('/login');
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const expired = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'x', username: 'x', exp: Math.floor(Date.now() / 1000) - 60 })}.sig`;
  for (const token of [expired, 'not-a-jwt']) {
    await page.evaluate((t) => localStorage.setItem('token', JSON.stringify(t)), token);
    await page.goto('/trades/all_trades');
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  }
  // Signed out, any other path goes to /login; signed in, /login goes to /overview.
  await page.goto('/somewhere/else');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, user);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/overview$/);
  await page.goto('/no/such/page');
  await expect(page.getByText('Auth Page Not Found')).toBeVisible();
});

test('the FAQ is public and inside the app', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Need help? Visit our FAQ' }).click();
  await expect(page).toHaveURL(/\/faqs$/);
  await expect(page.getByText('PipSense FAQ')).toBeVisible();
  await expect(page.locator('.accordion-item')).toHaveCount(10);
  await expect(page.locator('.accordion-collapse.show')).toHaveCount(1);
  await page.getByRole('link', { name: /sign in/i }).click();
  await expect(page).toHaveURL(/\/login$/);

  await signedIn(page, 'faq');
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('link', { name: 'FAQs' }).click();
  await expect(page).toHaveURL(/\/settings\/faqs$/);
  await expect(page.locator('.accordion-item')).toHaveCount(10);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the torus panel is hidden, the form fits, and the sidebar opens from the header', async ({ page }) => {
    await page.goto('/login');
    await expect(page.locator('.auth-panel')).toBeHidden();
    const card = await page.locator('.auth-card').boundingBox();
    expect(card!.width).toBeLessThanOrEqual(400);
    expect(card!.x).toBeGreaterThanOrEqual(0);
    await signedIn(page, 'phone');
    await expect(page.locator('.sidebar')).not.toBeInViewport();
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await expect(page.getByRole('link', { name: 'Overview' })).toBeInViewport();
  });
});

test('the torus renders beside the form on a wide screen', async ({ page }) => {
  await page.goto('/login');
  await expect(page.locator('.auth-panel')).toBeVisible();
  await expect(page.locator('[data-testid="torus"] canvas')).toBeAttached();
  const card = await page.locator('.auth-card').boundingBox();
  expect(card!.width).toBeLessThanOrEqual(400);
});
