import { expect, test, type Page } from '@playwright/test';
import type { InfoRecord } from '@pipsense/contract';
import {
  apiAs,
  importedStatus,
  MT5_EXPECTED,
  MT5_REPORT,
  MT5_STORED_TRADES,
  sessionToken,
  signedIn,
  SHOTS,
  VIEWPORTS,
} from './support';

/*
 * A trader imports an MT5 report through the UI (the terminal's UTF-16 HTML), sees the
 * preview, confirms, then finds the trades, the overview and a chat answer about them; a wrong file gets its message.
 * The whole journey at 1280×800, the import and its screens again at 390×844. Expected figures come from the
 * report itself (parse/fixtures/mt5-report.expected.json), never from the screen under test.
 */

async function chooseFile(page: Page, name: string, buffer: Buffer, mimeType = 'text/html') {
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType, buffer });
  await expect(page.getByText(name)).toBeVisible();
}

async function importReport(page: Page, shot: string) {
  await page.goto('/trades/import');
  await expect(page.getByRole('heading', { name: 'Import a MetaTrader 4/5 report' })).toBeVisible();

  // A wrong file first: the server's message, and nothing stored.
  await chooseFile(
    page,
    'notes.html',
    Buffer.from('<html><head><title>My notes</title></head><body><p>hi</p></body></html>'),
  );
  await page.getByRole('button', { name: 'Read the report' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /not a MetaTrader/i })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/import-wrong-file-${shot}.png`, fullPage: true });

  await chooseFile(page, 'ReportHistory-51234567.html', MT5_REPORT);
  await page.getByRole('button', { name: 'Read the report' }).click();

  const account = page.getByRole('region', { name: 'Account' });
  await expect(account).toContainText(MT5_EXPECTED.account.number);
  await expect(account).toContainText(MT5_EXPECTED.account.name);
  const report = page.getByRole('region', { name: 'Report' });
  await expect(report).toContainText(String(MT5_EXPECTED.closedTrades.length));
  await expect(report).toContainText(MT5_EXPECTED.totals.netProfit.replace(/\B(?=(\d{3})+(?!\d))/g, ','));
  const sample = page.getByRole('table', { name: 'Sample trades' });
  await expect(sample).toContainText(MT5_EXPECTED.closedTrades[0]!.positionId);
  await page.screenshot({ path: `${SHOTS}/import-preview-${shot}.png`, fullPage: true });

  await page.getByRole('button', { name: 'Confirm import' }).click();
  await expect(importedStatus(page)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/import-done-${shot}.png`, fullPage: true });
}

for (const viewport of VIEWPORTS) {
  test(`MT5 report imported through the UI, then trades, overview and chat (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signedIn(page, `imp${viewport.name[0]}`);
    const token = await sessionToken(page);

    await test.step('the wrong file is refused; the report is previewed and confirmed', async () => {
      await importReport(page, viewport.name);
      const stored = await apiAs<{ total: number }>(
        page,
        token,
        '/api/v1/trade/get_trade_history?platform=metatrader&limit=1',
      );
      expect(stored.total).toBe(MT5_STORED_TRADES);
    });

    await test.step('the trades, on MetaTrader', async () => {
      await page.getByRole('link', { name: 'See the trades' }).click();
      await expect(page.getByRole('heading', { name: 'MetaTrader Trades', exact: true })).toBeVisible();
      const rows = page.getByRole('table').first().locator('tbody tr');
      // Newest first: the position still open, then the closed ones from the latest.
      await expect(rows).toHaveCount(10);
      await expect(page.getByRole('table').first()).toContainText(MT5_EXPECTED.closedTrades.at(-1)!.positionId);
      await expect(page.getByRole('link', { name: 'Import' }).first()).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/import-trades-${viewport.name}.png`, fullPage: true });
    });

    if (viewport.name === 'phone') return;

    await test.step('the overview of the imported trades', async () => {
      await page.goto('/trades/import');
      // The import made MetaTrader the default trading platform: the Overview opens on it.
      await page.goto('/overview');
      await expect(page.getByText('Dashboard – MetaTrader', { exact: true })).toBeVisible();
      const total = page.locator('.card').filter({ has: page.getByText('Total Trades', { exact: true }) });
      await expect(total).toContainText(String(MT5_STORED_TRADES));
      await page.screenshot({ path: `${SHOTS}/import-overview-${viewport.name}.png`, fullPage: true });
    });

    await test.step('a chat answer about them (the built-in analyst, querying MetaTrader)', async () => {
      const { data } = await apiAs<{ data: InfoRecord }>(page, token, '/api/v1/account/get_info');
      expect(data.default_trading_platfrom).toBe('MetaTrader');
      await apiAs(page, token, '/api/v1/account/update_info', { ...data, default_ai_platfrom: 'gemini' });
      await page.goto('/chat/ai_chat');
      await expect(page.getByRole('navigation', { name: 'breadcrumb' })).toContainText('Querying: MetaTrader');
      await page.getByRole('group', { name: 'Select Mode' }).getByRole('radio', { name: 'live', exact: true }).check();
      await page.getByRole('button', { name: '+ New' }).click();
      const modal = page.getByRole('dialog', { name: 'Start a New Chat' });
      await modal.getByLabel('Chat Title').fill('My MT5 winners');
      await modal.getByRole('button', { name: 'Create' }).click();
      await expect(modal).toBeHidden();
      const input = page.getByPlaceholder('Ask AI');
      await input.fill('What were my top 3 winners?');
      await input.press('Enter');
      const answer = page.getByRole('log', { name: 'Conversation' }).locator('[data-role="assistant"]').first();
      await expect(answer).toContainText('XAU_USD');
      await expect(answer).toContainText('from your MetaTrader import of');
      await page.screenshot({ path: `${SHOTS}/import-chat-${viewport.name}.png`, fullPage: true });
    });
  });
}
