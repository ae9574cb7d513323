import { expect, test, type Page } from '@playwright/test';
import { PASSWORD_RESET_REQUESTED } from '@pipsense/contract';
import type { ReceivedMail } from '../apps/server/src/test/smtp';
import { mailsTo } from './stack/stack-client';
import { readStackFacts, type StackFacts } from './stack/stack-facts';
import { newUser, SHOTS, toast, VIEWPORTS, type User } from './support';

/*
 * Account recovery end to end (SECURITY.md, Takeover through recovery links): register, confirm the address from the
 * emailed link, reset a forgotten password from its emailed link (once), and delete the account from Profile. The mails
 * are the ones the built server really sent, over SMTP, to the stack's SMTP server on loopback (e2e/stack). Each screen
 * of the journey is saved under .test-results/screens at the desktop and phone sizes of the other specs.
 */
const BANNER = /Please confirm your email address: we sent a link to/;
const RESET_DONE = 'Your password has been reset. Sign in with the new password.';
const LINK_SPENT = 'This password reset link is invalid, used or expired. Ask for a new one from the sign-in page.';
const DELETED = 'Your account and all of its data have been deleted.';

/** The `n`th mail (1 = first) the server sent to `address`, once it has arrived. */
async function mail(facts: StackFacts, address: string, n: number): Promise<ReceivedMail> {
  await expect
    .poll(async () => (await mailsTo(facts, address)).length, { message: `mail #${n} to ${address}` })
    .toBeGreaterThanOrEqual(n);
  return (await mailsTo(facts, address))[n - 1]!;
}

/** The link of a mail, checked to be this server's `path` with a token. */
function linkOf(message: ReceivedMail, baseURL: string, path: string): string {
  expect(message.link, `a link in "${message.subject}":\n${message.text}`).toBeDefined();
  expect(message.link!.startsWith(`${baseURL}${path}?token=`), message.link).toBe(true);
  return message.link!;
}

async function signInUi(page: Page, username: string, password: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('button', { name: 'Logout', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
}

for (const viewport of VIEWPORTS) {
  test.describe(`account recovery at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('confirm the email, reset a forgotten password once, then delete the account', async ({ page, baseURL }) => {
      const facts = readStackFacts(baseURL);
      const user: User = newUser(`rec${viewport.name[0]}`);
      const newPassword = 'a brand new passphrase';
      // The whole page, or (`fullPage: false`) what the window shows: a page scrolled under the app's fixed header.
      const shot = (name: string, fullPage = true) =>
        page.screenshot({ path: `${SHOTS}/recovery-${name}-${viewport.name}.png`, fullPage });
      const banner = page.getByRole('status').filter({ hasText: BANNER });

      await test.step('register, sign in: the banner asks to confirm the address', async () => {
        await page.goto('/register');
        await page.getByLabel('Username').fill(user.username);
        await page.getByLabel('Email').fill(user.email);
        await page.getByLabel('Password', { exact: true }).fill(user.password);
        await page.getByLabel('Confirm Password').fill(user.password);
        await shot('1-register');
        await page.getByRole('button', { name: 'Sign Up' }).click();
        await expect(page).toHaveURL(/\/login$/);
        await signInUi(page, user.username, user.password);
        await page.waitForURL('**/overview');
        await expect(banner).toBeVisible();
        await expect(banner).toContainText(user.email);
        await shot('2-confirm-banner', false);
      });

      await test.step('the emailed confirmation link confirms; the banner is gone', async () => {
        const confirmation = await mail(facts, user.email, 1);
        expect(confirmation.subject).toBe('Confirm your email address for PipSense');
        await page.goto(linkOf(confirmation, baseURL!, '/confirm_email'));
        await expect(page.getByRole('heading', { name: 'Email confirmation' })).toBeVisible();
        await expect(
          page.getByRole('status').filter({ hasText: 'Your email address is confirmed. Thank you!' }),
        ).toBeVisible();
        await shot('3-email-confirmed');
        await page.getByRole('link', { name: 'Go to PipSense' }).click();
        await page.waitForURL('**/overview');
        await expect(page.locator('.page-heading')).toHaveText('Overview');
        await expect(banner).toHaveCount(0);
        await page.reload();
        await expect(page.locator('.page-heading')).toHaveText('Overview');
        await expect(banner, 'still gone after a reload').toHaveCount(0);
      });

      let resetLink = '';
      await test.step('log out, "Forgot your password?", ask for the link', async () => {
        await logOut(page);
        await page.getByRole('link', { name: 'Forgot your password?' }).click();
        await expect(page).toHaveURL(/\/forgot_password$/);
        await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
        await page.getByLabel('Email').fill(user.email);
        await shot('4-forgot-password');
        await page.getByRole('button', { name: 'Send the reset link' }).click();
        await expect(page.getByRole('status').filter({ hasText: PASSWORD_RESET_REQUESTED })).toBeVisible();
        await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
        await shot('5-reset-requested');
        const reset = await mail(facts, user.email, 2);
        expect(reset.subject).toBe('Reset your PipSense password');
        resetLink = linkOf(reset, baseURL!, '/reset_password');
      });

      await test.step('the emailed reset link sets a new password', async () => {
        await page.goto(resetLink);
        await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
        await page.getByLabel('New Password').fill(newPassword);
        await page.getByLabel('Confirm Password').fill(newPassword);
        await expect(page.getByText('Passwords match')).toBeVisible();
        await shot('6-reset-password');
        await page.getByRole('button', { name: 'Set the new password' }).click();
        await expect(page).toHaveURL(/\/login$/);
        await expect(page.getByRole('status').filter({ hasText: RESET_DONE })).toBeVisible();
        await shot('7-reset-done');
      });

      await test.step('the old password is refused, the new one signs in', async () => {
        await signInUi(page, user.username, user.password);
        await expect(toast(page, 'Invalid username or password.')).toBeVisible();
        await expect(page).toHaveURL(/\/login$/);
        await signInUi(page, user.username, newPassword);
        await page.waitForURL('**/overview');
        await expect(page.locator('.page-heading')).toHaveText('Overview');
      });

      await test.step('the same reset link a second time: used, with a way to a new one', async () => {
        await logOut(page);
        await page.goto(resetLink);
        await page.getByLabel('New Password').fill('yet another passphrase');
        await page.getByLabel('Confirm Password').fill('yet another passphrase');
        await page.getByRole('button', { name: 'Set the new password' }).click();
        // Said on the page, not only in a toast, and the dead link's form is gone.
        await expect(page.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible();
        await expect(page.locator('.auth-card').getByRole('alert')).toHaveText(LINK_SPENT);
        await expect(page.getByLabel('New Password')).toHaveCount(0);
        await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
        await shot('8-reset-link-used');
        // Nothing changed: the password set by the first use still signs in.
        await page.getByRole('link', { name: 'Back to sign in' }).click();
        await signInUi(page, user.username, newPassword);
        await page.waitForURL('**/overview');
      });

      await test.step('Profile → Delete account with the password: signed out, and the login refused', async () => {
        await page.getByRole('button', { name: 'Profile menu' }).click();
        await page.getByRole('link', { name: 'Profile' }).click();
        await expect(page).toHaveURL(/\/settings\/profile$/);
        const card = page.locator('.card', { hasText: 'Delete account' });
        await card.getByRole('button', { name: 'Delete account…' }).click();
        await card.getByLabel('Password').fill('not my password');
        await card.getByRole('button', { name: 'Delete my account for good' }).click();
        await expect(toast(page, 'The password is not correct. Nothing was changed.')).toBeVisible();
        await card.getByLabel('Password').fill(newPassword);
        await card.scrollIntoViewIfNeeded();
        await shot('9-delete-account', false);
        await card.getByRole('button', { name: 'Delete my account for good' }).click();
        await expect(page).toHaveURL(/\/login$/);
        await expect(page.getByRole('status').filter({ hasText: DELETED })).toBeVisible();
        expect(await page.evaluate(() => localStorage.getItem('token')), 'the session is gone').toBeNull();
        await shot('10-account-deleted');
        await signInUi(page, user.username, newPassword);
        await expect(toast(page, 'Invalid username or password.')).toBeVisible();
        await expect(page).toHaveURL(/\/login$/);
      });
    });
  });
}
