import { expect, test, type Page } from '@playwright/test';
import {
  importedStatus,
  MT5_EXPECTED,
  MT5_REPORT,
  MT5_STORED_TRADES,
  newUser,
  registerByApi,
  signInByApi,
  toast,
  VIEWPORTS,
} from './support';

/** Where this journey's screenshots go, to be looked at (not compared). */
const SHOTS = process.env.E2E_SHOTS ?? '.test-results/screens/metatrader-only';

/*
 * A trader who only uses MetaTrader (never connects OANDA) imports an MT5 report, then opens Trades, Accounts, the
 * Overview and the Calendar: each opens on MetaTrader by itself (the import made it the default trading platform;
 * docs/PRODUCT.md, Overview), and nothing ever asks to connect OANDA. On the way: the trade modal's close button is
 * clickable right after a save (the toast moves out of its corner), the trade table with the journal columns fits a
 * 1280 px screen, and the phone's chat keeps its header at the top after a message. At 1280×800 and 390×844. Expected
 * figures come from the report itself (parse/fixtures/mt5-report.expected.json).
 */

/** The month the report's trades closed in ('2024.04.02 14:02:31' → '2024-04'). */
const MONTH = MT5_EXPECTED.closedTrades[0]!.closeTime.slice(0, 7).replace('.', '-');

/**
 * Records, across page loads, every OANDA prompt or OANDA screen title that was ever on the page, however briefly: a
 * screen that showed OANDA's empty state before switching to MetaTrader is caught too.
 */
async function watchForOanda(page: Page) {
  await page.addInitScript(() => {
    const KEY = 'e2e.sawOanda';
    const PATTERN = /Connect OANDA first|OANDA Trades|OANDA Accounts|Dashboard – OANDA|Trading platform: OANDA/;
    const check = () => {
      const text = `${document.body?.innerText ?? ''} ${[...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label')).join(' ')}`;
      const seen = PATTERN.exec(text);
      if (seen) sessionStorage.setItem(KEY, `${sessionStorage.getItem(KEY) ?? ''}${location.pathname}: ${seen[0]}\n`);
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
  });
}
const sawOanda = (page: Page) => page.evaluate(() => sessionStorage.getItem('e2e.sawOanda') ?? '');

async function importReport(page: Page) {
  await page.goto('/trades/import');
  await expect(page.getByRole('heading', { name: 'Import a MetaTrader 4/5 report' })).toBeVisible();
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'ReportHistory-51234567.html', mimeType: 'text/html', buffer: MT5_REPORT });
  await page.getByRole('button', { name: 'Read the report' }).click();
  await expect(page.getByRole('region', { name: 'Account' })).toContainText(MT5_EXPECTED.account.number);
  await page.getByRole('button', { name: 'Confirm import' }).click();
  await expect(importedStatus(page)).toBeVisible();
}

for (const viewport of VIEWPORTS) {
  test(`a MetaTrader-only trader sees MetaTrader everywhere, never OANDA (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await watchForOanda(page);
    const user = newUser(`mto${viewport.name[0]}`);
    await registerByApi(page, user);
    await signInByApi(page, user);
    // The whole page, except over a modal (a fixed layer: the viewport is what the trader sees).
    const shot = (name: string, fullPage = true) =>
      page.screenshot({ path: `${SHOTS}/${name}-${viewport.name}.png`, fullPage, animations: 'disabled' });

    await test.step('imports an MT5 report', async () => {
      await importReport(page);
    });

    await test.step('Trades open on MetaTrader', async () => {
      await page.goto('/trades/all_trades');
      await expect(page.getByRole('heading', { name: 'MetaTrader Trades', exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Trading platform: MetaTrader' })).toBeVisible();
      const table = page.getByRole('table', { name: 'Trades' });
      await expect(table.locator('tbody tr')).toHaveCount(10);
      await expect(table).toContainText(MT5_EXPECTED.closedTrades.at(-1)!.positionId);
      await shot('trades');
    });

    await test.step('with the journal columns on, the trade table fits the screen', async () => {
      await page.getByRole('checkbox', { name: 'Journal columns' }).check();
      const table = page.getByRole('table', { name: 'Trades' });
      await expect(table.getByRole('columnheader', { name: 'Rating' })).toBeVisible();
      // CoreUI's responsive table scrolls inside its wrapper: at 1280 px nothing may be left to scroll to.
      const wrapper = page.locator('.table-responsive').filter({ has: table });
      const widths = await wrapper.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      if (viewport.name === 'desktop') expect(widths.scroll, JSON.stringify(widths)).toBeLessThanOrEqual(widths.client);
      await shot('trades-journal');
    });

    await test.step("the trade modal's close button is clickable right after a save", async () => {
      const table = page.getByRole('table', { name: 'Trades' });
      await table.getByRole('button', { name: 'View Trade' }).first().click();
      const modal = page.getByRole('dialog', { name: 'Trade Details' });
      await expect(modal).toBeVisible();
      const form = modal.getByRole('region', { name: 'Journal' });
      await form.getByLabel('Note', { exact: true }).fill('Took profit early on the news spike.');
      await form.getByRole('button', { name: 'Save journal' }).click();
      await expect(toast(page, /^Journal saved for trade/)).toBeVisible();
      await shot('trade-saved', false);
      // A short limit: a toast over the button would hold it for its 5 s (longer while the pointer rests on it).
      await modal.locator('.modal-header .btn-close').click({ timeout: 2000 });
      await expect(modal).toBeHidden();
    });

    await test.step('Accounts open on MetaTrader', async () => {
      await page.goto('/accounts/my_accounts');
      await expect(page.getByRole('heading', { name: 'MetaTrader Accounts', exact: true })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Accounts' })).toContainText(MT5_EXPECTED.account.number);
      await shot('accounts');
    });

    await test.step('the Overview opens on MetaTrader', async () => {
      await page.goto('/overview');
      await expect(page.getByRole('heading', { name: 'Dashboard – MetaTrader', exact: true })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Total Trades' })).toContainText(String(MT5_STORED_TRADES));
      await shot('overview');
    });

    await test.step("the Calendar shows the report's month", async () => {
      await page.goto(`/journal/calendar?month=${MONTH}`);
      const grid = page.getByRole('grid', { name: `Daily net P/L, ${MONTH}` });
      await expect(grid).toBeVisible();
      await expect(grid.getByRole('button', { name: /net P\/L/ }).first()).toBeVisible();
      const days = await grid.getByRole('button', { name: /net P\/L/ }).count();
      expect(days).toBeGreaterThanOrEqual(5);
      await shot('calendar');
    });

    await test.step('the chat keeps its header at the top after a message', async () => {
      await page.goto('/chat/ai_chat');
      await expect(page.getByRole('navigation', { name: 'breadcrumb' })).toContainText('Querying: MetaTrader');
      await page.getByRole('button', { name: '+ New' }).click();
      const dialog = page.getByRole('dialog', { name: 'Start a New Chat' });
      await dialog.getByLabel('Chat Title').fill('My MT5 week');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await expect(dialog).toBeHidden();
      const input = page.getByPlaceholder('Ask AI');
      await input.fill('Show my open trades');
      await input.press('Enter');
      const log = page.getByRole('log', { name: 'Conversation' });
      await expect(log.locator('[data-role="assistant"]').first()).not.toBeEmpty();
      await expect(page.getByRole('button', { name: 'Send message' })).toBeEnabled();
      // Sending scrolled the page to the composer; the header must still start the page, with nothing above it (a
      // sticky header left its place empty: the band the whole page showed).
      const place = () =>
        page.evaluate(() => ({
          headerTop: document.querySelector('.header')!.getBoundingClientRect().top + window.scrollY,
          scrolled: window.scrollY,
        }));
      if (viewport.name === 'phone') {
        await expect.poll(async () => (await place()).scrolled).toBeGreaterThan(0);
        await page.waitForTimeout(800);
        const after = await place();
        expect(after.headerTop, JSON.stringify(after)).toBe(0);
      }
      await shot('chat');
    });

    expect(await sawOanda(page)).toBe('');
  });
}
