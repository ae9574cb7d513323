import { expect, test, type Page, type Request, type Route } from '@playwright/test';
import { signedIn } from './support';

/*
 * A code chunk that does not load (a tab left open across a deploy, a dropped connection) must not blank the app:
 * the route's error boundary says 'Loading chunk {id} failed' with the failure type and the script address
 * (docs/PRODUCT.md, Code chunks) and its Reload button brings the screen back. The chunks are broken here on purpose
 * with page.route.
 */

const chunkPattern = (id: string) => new RegExp(`/static/js/${id}-[\\w-]+\\.js$`);
const chunkAddress = (id: string) => new RegExp(`^http://127\\.0\\.0\\.1:\\d+/static/js/${id}-[\\w-]+\\.js$`);

/** The error the boundary shows, and the address it names after 'type:'. */
async function reportedFailure(page: Page, id: string, type: 'missing' | 'timeout' | 'error') {
  const alert = page.getByRole('alert').filter({ hasText: 'This screen could not be loaded' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText(`Loading chunk ${id} failed.`);
  const detail = alert.locator('.screen-error-detail');
  await expect(detail).toHaveText(new RegExp(`^\\(${type}: \\S+\\)$`));
  const address = /^\((?:missing|timeout|error): (\S+)\)$/.exec((await detail.textContent()) ?? '')?.[1] ?? '';
  expect(address).toMatch(chunkAddress(id));
  return { alert, address };
}

test("a screen's chunk gone after a deploy: 'missing' with its address in the layout, and Reload recovers", async ({
  page,
}, testInfo) => {
  await signedIn(page, 'chunk');
  const requested: string[] = [];
  const gone = (route: Route, request: Request) => {
    requested.push(request.url());
    return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' });
  };
  await page.route(chunkPattern('trades-page'), gone);

  await page.getByText('Trades', { exact: true }).click();
  await page.getByRole('link', { name: 'All Trades' }).click();
  await expect(page).toHaveURL(/\/trades\/all_trades$/);
  const { address } = await reportedFailure(page, 'trades-page', 'missing');
  expect(requested).toContain(address);
  // The failure stays inside the route: the layout is still there and still works.
  await expect(page.locator('.page-heading')).toHaveText('All Trades');
  await expect(page.getByRole('link', { name: 'All Trades' })).toBeVisible();
  await expect(page.getByText('Powered by')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('chunk-missing-1280x800.png') });
  // On a phone, loaded afresh: the same report in the narrow layout.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await reportedFailure(page, 'trades-page', 'missing');
  await page.screenshot({ path: testInfo.outputPath('chunk-missing-390x844.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  await reportedFailure(page, 'trades-page', 'missing');

  await page.getByText('Dashboard', { exact: true }).click();
  await page.getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByText('Total Trades')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'could not be loaded' })).toHaveCount(0);

  if (!(await page.getByRole('link', { name: 'All Trades' }).isVisible()))
    await page.getByText('Trades', { exact: true }).click();
  await page.getByRole('link', { name: 'All Trades' }).click();
  await reportedFailure(page, 'trades-page', 'missing');
  // The new build is deployed: Reload loads the screen.
  await page.unroute(chunkPattern('trades-page'), gone);
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('heading', { name: 'OANDA Trades' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'could not be loaded' })).toHaveCount(0);
});

test("the login screen's chunk cut off: 'error', and Reload shows the form", async ({ page }, testInfo) => {
  const cut = (route: Route) => route.abort('connectionreset');
  await page.route(chunkPattern('login-page'), cut);
  await page.goto('/login');
  await reportedFailure(page, 'login-page', 'error');
  await expect(page.getByRole('button', { name: 'Sign In' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('login-chunk-error-1280x800.png') });

  await page.unroute(chunkPattern('login-page'), cut);
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByText('Please sign in to your account.')).toBeVisible();
});

test("a chunk that never arrives times out after 120000 ms with the build's address for it", async ({ page }) => {
  await page.clock.install();
  const held: Route[] = [];
  const hold = (route: Route) => void held.push(route);
  await page.route(chunkPattern('register-page'), hold);
  await page.goto('/register');
  await expect.poll(() => held.length).toBe(1);
  await expect(page.getByRole('status')).toBeVisible();

  await page.clock.runFor(119_000);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.clock.runFor(1_000);
  const { address } = await reportedFailure(page, 'register-page', 'timeout');
  expect(address).toBe(held[0]!.request().url());

  await page.unroute(chunkPattern('register-page'), hold);
  await Promise.all(held.map((route) => route.abort().catch(() => undefined)));
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
});
